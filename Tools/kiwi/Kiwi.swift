import ArgumentParser
import Foundation
import KiwiAppleSignIn

/// `kiwi`: the command-line client for Kiwi's local development.
@main
struct Kiwi: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kiwi",
        abstract:
            "Kiwi's command-line client: sign in, scan a fridge photo, list scans, keep, show, cook, share and export recipes, keep a pantry and a shopping list, share a household, find what you can cook, check the quota, sign out, delete the account.",
        subcommands: [
            Login.self, Scan.self, CookFromPantry.self, Scans.self, Save.self, Recipes.self, RecipeCommand.self, Cook.self, Share.self, Export.self,
            Pantry.self,
            Shop.self, Cookable.self, PlanCommand.self, Quota.self,
            Profile.self, HouseholdCommand.self, Logout.self, ExportAccount.self, DeleteAccount.self,
            DevKeys.self, DevToken.self,
        ]
    )
}
