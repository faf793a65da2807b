import Foundation
import KiwiDietGuard
import KiwiModels

/// Checks recipes kept or shown after their scan against the profile of their owner's table as it is now
/// (docs/architecture.md, "Saved recipes meet today's profile"; ``TableProfile``), with the guard that checks every scan's
/// answer: a recipe saved before an allergy was added, or before someone with it joined the household, says so (and
/// for whom), and is never offered as cookable.
struct TodaysProfileCheck: Sendable {
    let tableProfile: TableProfile

    /// `recipes` of `userID` as they are shown: each with its ``SavedRecipe/conflicts`` and without advice that breaks
    /// the profile. The profile is read once, whatever the count; a store that does not answer fails the request
    /// rather than show a recipe unchecked.
    func checked(_ recipes: [SavedRecipe], of userID: UUID) async throws -> [SavedRecipe] {
        let table = try await tableProfile.table(of: userID)
        return recipes.map { checked($0, at: table) }
    }

    /// The units `userID`'s profile asks recipes to be shown in; nil when it asks none.
    func units(of userID: UUID) async throws -> UnitSystem? {
        try await tableProfile.profiles.profile(of: userID)?.units
    }

    /// One saved recipe as ``checked(_:of:)`` shows it.
    func checked(_ recipe: SavedRecipe, of userID: UUID) async throws -> SavedRecipe {
        checked(recipe, at: try await tableProfile.table(of: userID))
    }

    /// A scan's or a saved recipe's conflicts with the profile of `userID`'s table now, and the recipe without advice
    /// that breaks it.
    func checked(_ recipe: Recipe, of userID: UUID) async throws -> (recipe: Recipe, conflicts: [RecipeConflict]) {
        checked(recipe, at: try await tableProfile.table(of: userID))
    }

    /// Scans' or saved recipes' conflicts as ``checked(_:of:)-(Recipe,_)`` finds them, the profile read once.
    func checked(_ recipes: [Recipe], of userID: UUID) async throws -> [(recipe: Recipe, conflicts: [RecipeConflict])] {
        guard !recipes.isEmpty else { return [] }
        let table = try await tableProfile.table(of: userID)
        return recipes.map { checked($0, at: table) }
    }

    private func checked(_ saved: SavedRecipe, at table: Table) -> SavedRecipe {
        var checked = saved
        (checked.recipe, checked.conflicts) = self.checked(saved.recipe, at: table)
        return checked
    }

    /// A table without a profile has no allergies or diets to meet. The recipe is read in the language it was written
    /// in, whatever the profile's is now.
    private func checked(_ recipe: Recipe, at table: Table) -> (recipe: Recipe, conflicts: [RecipeConflict]) {
        DietGuard.reading(recipe.language ?? .en).checked(recipe, against: table.profile ?? KitchenProfile(), table: table.seats ?? [])
    }
}
