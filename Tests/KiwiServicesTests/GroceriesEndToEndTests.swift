import Foundation
import KiwiDevelopment
import KiwiModels
import KiwiTestSupport
import NIOHTTP1
import PostgresNIO
import Testing

@testable import KiwiLLMStub

/// The pantry and the shopping list through the three real services (docs/architecture.md, "The pantry and the
/// shopping list"): what a refined scan confirmed fills the pantry, a saved recipe's missing ingredients fill the list,
/// and bought items make the recipe cookable.
@Suite("Pantry and shopping list end to end", .serialized, .timeLimit(.minutes(3)))
struct GroceriesEndToEndTests {
    let photo = SyntheticJPEG.make(size: 16 * 1024, seed: 98)
    let confirmed = ["Greek yoghurt", "leeks"]
    let gratin = ModelAnswers.Dish(
        "Leek and spinach gratin",
        ingredients: ["leeks", "Greek yoghurt", "spinach", "salt", "olive oil"],
        substitutions: ["spinach": "kale"]
    )

    @Test("a receipt's food fills the pantry, bought amounts adding up; another scan of the same receipt is refused as a duplicate")
    func receiptFillsThePantry() async throws {
        try await SystemRig.run { rig in
            let token = try await rig.signIn()
            let scan = try await rig.finishedScan(photo, mode: .receipt, token: token)
            let receipt = try #require(scan.result?.receipt)
            #expect(receipt.totalMismatch == nil)
            let stocked = try await rig.post("/v1/pantry/items", ["scanId": scan.id.uuidString.lowercased()], token: token)
            #expect(stocked.status == 200)
            let items = try KiwiJSON.decoder().decode(PantryItems.self, from: stocked.body).items
            let food = receipt.lines.filter { $0.kind == .food }
            #expect(!items.isEmpty && items.count <= food.count)
            #expect(items.allSatisfy { $0.source == .scan && $0.scanId == scan.id && $0.quantity != nil })

            let again = try await rig.finishedScan(photo, mode: .receipt, token: token)
            let refused = try await rig.post("/v1/pantry/items", ["scanId": again.id.uuidString.lowercased()], token: token)
            #expect(refused.status == 409)
            #expect(try refused.json()["error"] as? String == "receipt_already_added")
            #expect(try refused.json()["scanId"] as? String == scan.id.uuidString.lowercased())
            let pantry = try KiwiJSON.decoder().decode(PantryList.self, from: try await rig.send(.GET, "/v1/pantry", token: token).body)
            #expect(Set(pantry.items.map(\.id)) == Set(items.map(\.id)))
            let held = Dictionary(uniqueKeysWithValues: pantry.items.map { ($0.id, $0.quantity) })
            #expect(items.allSatisfy { held[$0.id] == $0.quantity }, "nothing was added twice")
        }
    }

    @Test("scan, refine, add to the pantry, save a recipe, list what it lacks, check it off into the pantry: the recipe is cookable")
    func fromAScanToACookableRecipe() async throws {
        let answers = [ModelAnswers.fridge([gratin], ingredients: ["cream"]), ModelAnswers.fridge([gratin], ingredients: confirmed)]
        try await SystemRig.run(behaviour: StubBehaviour(answers: answers)) { rig in
            let token = try await rig.signIn()
            let scan = try await rig.finishedScan(photo, token: token)
            let refined = try await rig.send(
                .POST,
                "/v1/scans/\(scan.id.uuidString.lowercased())/refinements",
                token: token,
                contentType: "application/json",
                body: Array(try JSONEncoder().encode(["ingredients": confirmed])),
                headers: [("Prefer", "wait=30")]
            )
            try #require(refined.status == 200, "the refinement answered \(refined.status)")
            let refinement = try KiwiJSON.decoder().decode(ScanResource.self, from: refined.body)

            let stocked = try await rig.post("/v1/pantry/items", ["scanId": refinement.id.uuidString.lowercased()], token: token)
            #expect(stocked.status == 200)
            let items = try KiwiJSON.decoder().decode(PantryItems.self, from: stocked.body).items
            #expect(items.map(\.name) == confirmed)
            #expect(items.map(\.key) == ["greek yoghurt", "leek"])
            #expect(items.allSatisfy { $0.source == .scan && $0.scanId == refinement.id })

            let recipe = try #require(refinement.result?.recipes.first)
            let (status, saved) = try await rig.saveRecipe(recipe, of: refinement, token: token)
            #expect(status == 201)
            let before = try #require(try await rig.cookable(token: token).recipes.first)
            #expect(before.saved.id == saved.id)
            #expect(before.cookable.coverage == 2.0 / 3, "salt and olive oil are staples: three ingredients count")
            #expect(before.cookable.missing == [MissingIngredient(name: "spinach", substitution: "kale")])

            let recipeID = ["recipeId": saved.id.uuidString.lowercased()]
            let listed = try await rig.post("/v1/shopping-list/items", recipeID, token: token)
            #expect(listed.status == 200)
            let addition = try KiwiJSON.decoder().decode(ShoppingListAddition.self, from: listed.body)
            #expect(addition.added.map(\.name) == ["spinach"])
            #expect(addition.list.sections.map(\.name) == ["Vegetable"])
            let again = try KiwiJSON.decoder().decode(
                ShoppingListAddition.self,
                from: try await rig.post("/v1/shopping-list/items", recipeID, token: token).body
            )
            #expect(again.list == addition.list, "the same recipe twice does not double the list")
            #expect(again.list.sections.first?.items.first?.forRecipes == [recipe.name])
            let text = try await rig.send(.GET, "/v1/shopping-list", token: token, headers: [("Accept", "text/plain")])
            #expect(String(decoding: text.body, as: UTF8.self) == "Shopping list\n\nVegetable\n- [ ] spinach (\(recipe.name))\n")

            let item = try #require(addition.added.first)
            let checked = try await rig.send(
                .PATCH,
                "/v1/shopping-list/items/\(item.id.uuidString.lowercased())",
                token: token,
                contentType: "application/json",
                body: Array(#"{"checked": true}"#.utf8)
            )
            #expect(checked.status == 200)
            let moved = try await rig.send(.POST, "/v1/shopping-list/checked/pantry", token: token)
            #expect(moved.status == 200)
            #expect(try KiwiJSON.decoder().decode(PantryItems.self, from: moved.body).items.map(\.key) == ["spinach"])
            let list = try await rig.send(.GET, "/v1/shopping-list", token: token)
            #expect(try KiwiJSON.decoder().decode(ShoppingList.self, from: list.body).sections.isEmpty)

            let after = try #require(try await rig.cookable(token: token).recipes.first)
            #expect(after.saved.id == saved.id)
            #expect(after.cookable.coverage == 1)
            #expect(after.cookable.missing.isEmpty)
        }
    }

    @Test("two devices adding the same scan at once give one set of items")
    func concurrentAddsOfOneScan() async throws {
        try await SystemRig.run(gateways: 2) { rig in
            let token = try await rig.signIn()
            let scan = try await rig.finishedScan(photo, token: token)
            let body = ["scanId": scan.id.uuidString.lowercased()]
            async let first = rig.post("/v1/pantry/items", body, token: token, to: rig.gateways[0])
            async let second = rig.post("/v1/pantry/items", body, token: token, to: rig.gateways[1])
            let answers = try await [first, second]
            #expect(answers.map(\.status) == [200, 200])
            let added = try answers.map { try KiwiJSON.decoder().decode(PantryItems.self, from: $0.body).items }
            #expect(Set(added[0].map(\.id)) == Set(added[1].map(\.id)))

            let pantry = try KiwiJSON.decoder().decode(PantryList.self, from: try await rig.send(.GET, "/v1/pantry?limit=100", token: token).body)
            #expect(!added[0].isEmpty && added[0].count <= (scan.result?.ingredients.count ?? 0))
            #expect(pantry.items.count == added[0].count)
            #expect(Set(pantry.items.map(\.id)) == Set(added[0].map(\.id)))
        }
    }

    @Test("a German scan's \"Tomaten\" and an English scan's \"tomatoes\" of one person are one pantry item, kept by its plain English name")
    func germanAndEnglishNamesMerge() async throws {
        let tomatoSalad = ModelAnswers.Dish("Tomatensalat", ingredients: ["Tomaten"])
        let answers = [
            ModelAnswers.fridge([tomatoSalad], ingredients: ["Tomaten"], englishNames: ["Tomaten": "tomatoes"]),
            ModelAnswers.fridge([gratin], ingredients: ["tomatoes"]),
        ]
        try await SystemRig.run(behaviour: StubBehaviour(answers: answers)) { rig in
            let token = try await rig.signIn()
            #expect(try await rig.putProfile(#"{"language": "de"}"#, token: token).status == 200)
            let german = try await rig.finishedScan(photo, token: token)
            #expect(german.result?.ingredients.map(\.canonicalName) == ["tomatoes"])
            #expect(try await rig.putProfile(#"{"language": "en"}"#, token: token).status == 200)
            let english = try await rig.finishedScan(SyntheticJPEG.make(size: 16 * 1024, seed: 99), token: token)
            for scan in [german, english] {
                #expect(try await rig.post("/v1/pantry/items", ["scanId": scan.id.uuidString.lowercased()], token: token).status == 200)
            }
            let pantry = try KiwiJSON.decoder().decode(PantryList.self, from: try await rig.send(.GET, "/v1/pantry?limit=100", token: token).body)
            #expect(pantry.items.map(\.name) == ["Tomaten"], "the first scan's name stays")
            #expect(pantry.items.map(\.key) == ["tomato"])
        }
    }

    @Test("deleting the account leaves no pantry item and no shopping-list item in PostgreSQL")
    func accountDeletionLeavesNoRows() async throws {
        try await SystemRig.run(workers: 0) { rig in
            let token = try await rig.signIn()
            let user = try await rig.userID(of: token)
            #expect(try await rig.post("/v1/pantry/items", ["name": "Leeks"], token: token).status == 201)
            #expect(try await rig.post("/v1/shopping-list/items", ["name": "Milk"], token: token).status == 200)
            #expect(try await rig.rows(of: user) == [1, 1])

            #expect(try await rig.send(.DELETE, "/v1/account", token: token).status == 200)
            #expect(try await rig.rows(of: user) == [0, 0])
        }
    }
}

extension SystemRig {
    /// `POST path` with `members` as its JSON body.
    fileprivate func post(_ path: String, _ members: [String: String], token: String, to gateway: URL? = nil) async throws -> Exchange {
        try await send(.POST, path, token: token, contentType: "application/json", body: Array(try JSONEncoder().encode(members)), to: gateway)
    }

    /// `GET /v1/recipes?cookable=true`.
    fileprivate func cookable(token: String) async throws -> CookableRecipeList {
        let answer = try await send(.GET, "/v1/recipes?cookable=true", token: token)
        try #require(answer.status == 200, "cookable answered \(answer.status)")
        return try KiwiJSON.decoder().decode(CookableRecipeList.self, from: answer.body)
    }

    /// How many `pantry_items` and `shopping_list_items` rows the own kitchen of `user` has.
    fileprivate func rows(of user: UUID) async throws -> [Int] {
        try await database { client in
            var counts: [Int] = []
            for table in ["pantry_items", "shopping_list_items"] {
                let rows = try await client.query("SELECT count(*) FROM \(unescaped: table) WHERE kitchen_id = \(user)")
                for try await count in rows.decode(Int.self) { counts.append(count) }
            }
            return counts
        }
    }
}
