import Foundation
import KiwiDevelopment
import KiwiModels
import KiwiTestSupport
import NIOHTTP1
import PostgresNIO
import Testing

/// The recipe box through the three real services: a recipe the worker's answer held is saved, read back in every
/// form, and goes with the account.
@Suite("Recipe box end to end")
struct RecipeBoxEndToEndTests {
    let photo = SyntheticJPEG.make(size: 16 * 1024, seed: 97)

    @Test("a recipe of a real scan is saved, exported as schema.org JSON-LD and text, and deleted with the account")
    func saveExportAndDeleteWithAccount() async throws {
        try await SystemRig.run { rig in
            let token = try await rig.signIn()
            let user = try await rig.userID(of: token)
            let scan = try await rig.finishedScan(photo, token: token)
            let recipe = try #require(scan.result?.recipes.first)
            let (status, copy) = try await rig.saveRecipe(recipe, of: scan, token: token)
            #expect(status == 201)
            #expect(copy.recipe == recipe)

            let path = "/v1/recipes/\(copy.id.uuidString.lowercased())"
            let linked = try await rig.send(.GET, path, token: token, headers: [("Accept", "application/ld+json")])
            let document = try #require(try JSONSerialization.jsonObject(with: linked.body) as? [String: Any])
            #expect(document["@type"] as? String == "Recipe")
            #expect(document["name"] as? String == recipe.name)
            #expect((document["recipeInstructions"] as? [Any])?.count ?? 0 >= recipe.steps.count)
            let text = try await rig.send(.GET, path, token: token, headers: [("Accept", "text/plain")])
            #expect(String(decoding: text.body, as: UTF8.self).hasPrefix(recipe.name + "\n"))

            #expect(try await rig.send(.DELETE, "/v1/account", token: token).status == 200)
            let left = try await rig.database { client in
                let rows = try await client.query("SELECT count(*) FROM saved_recipes WHERE kitchen_id = \(user)")
                for try await count in rows.decode(Int.self) { return count }
                return -1
            }
            #expect(left == 0)
        }
    }

    @Test("a saved recipe of a real scan answers its conflict with an allergy added after the save, and is not offered as cookable")
    func conflictWithTodaysProfile() async throws {
        try await SystemRig.run { rig in
            let token = try await rig.signIn()
            let scan = try await rig.finishedScan(photo, token: token)
            let recipe = try #require(scan.result?.recipes.first { !($0.allergens ?? []).isEmpty })
            let allergen = try #require(recipe.allergens?.first)
            let (_, copy) = try await rig.saveRecipe(recipe, of: scan, token: token)
            #expect(copy.conflicts.isEmpty)

            let profile = try await rig.send(
                .PUT,
                "/v1/profile",
                token: token,
                contentType: "application/json",
                body: Array(#"{"allergies": ["\#(allergen.rawValue)"]}"#.utf8)
            )
            #expect(profile.status == 200)
            let shown = try await rig.send(.GET, "/v1/recipes/\(copy.id.uuidString.lowercased())", token: token)
            let checked = try KiwiJSON.decoder().decode(SavedRecipe.self, from: Data(shown.body))
            #expect(checked.conflicts.map(\.name).contains(allergen.rawValue))
            let cookable = try await rig.send(.GET, "/v1/recipes?cookable=true", token: token)
            let offered = try KiwiJSON.decoder().decode(CookableRecipeList.self, from: Data(cookable.body))
            #expect(!offered.recipes.contains { $0.saved.id == copy.id })
        }
    }
}
