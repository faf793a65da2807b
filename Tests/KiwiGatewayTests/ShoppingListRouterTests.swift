import Foundation
import HTTPTypes
import HummingbirdTesting
import KiwiFood
import KiwiInternalAPI
import KiwiModels
import KiwiScans
import KiwiTestSupport
import NIOCore
import Testing

@testable import KiwiGateway

/// The shopping list (`/v1/shopping-list`), in-process on fakes: what a recipe adds (only what the pantry lacks, no
/// staples, merged by key), adding by hand, ticking off, moving into the pantry, the text export, the rules of every
/// body (each broken one a 400 with nothing stored), the capacity, and that nobody reaches another user's list.
@Suite("Gateway router: the shopping list")
struct ShoppingListRouterTests {
    /// A recipe saved now of ingredients without substitutions.
    static func savedRecipe(_ name: String, _ ingredients: [String]) -> SavedRecipe {
        SavedRecipe(
            id: UUID(),
            scanId: UUID(),
            savedAt: Date(),
            recipe: Recipe(
                id: UUID(),
                name: name,
                summary: "A dish.",
                cookTimeMinutes: 10,
                difficulty: .easy,
                ingredients: ingredients.map { RecipeIngredient(id: UUID(), name: $0, isDetected: false, substitution: nil) },
                steps: ["Cook."],
                makeItFasterTip: nil
            ),
            detectedIngredients: [],
            note: nil,
            rating: nil
        )
    }

    static let omelette = savedRecipe("Spinach Omelette", ["Eggs", "Spinach", "Milk", "feta", "salt", "Olive oil"])

    /// Keeps `recipe` for `userID` in the fake box.
    static func keep(_ recipe: SavedRecipe, in gateway: FakeGateway, for userID: UUID) async throws {
        #expect(try await gateway.recipes.save(recipe, for: .own(userID), capacity: RecipesController.capacity) == .saved(recipe))
    }

    /// Puts items of `names` in the user's pantry, by hand now.
    static func stock(_ names: [String], in gateway: FakeGateway, for userID: UUID) async throws {
        let items = try names.map { name in
            let checked = try PantryItemFields.checkedName(name)
            return PantryItem.new(name: checked, section: StoreSection(key: checked.key), source: .manual, at: Date())
        }
        _ = try await gateway.pantry.add(items, for: .own(userID), capacity: PantryController.capacity)
    }

    static func post(
        _ client: some TestClientProtocol,
        _ path: String = "/v1/shopping-list/items",
        token: String,
        body: String
    ) async throws -> TestResponse {
        try await client.execute(.post, path, token: token, headers: [.contentType: "application/json"], body: ByteBuffer(string: body))
    }

    static func addRecipe(_ client: some TestClientProtocol, token: String, _ recipe: SavedRecipe) async throws -> TestResponse {
        try await post(client, token: token, body: #"{"recipeId": "\#(recipe.id.uuidString)"}"#)
    }

    static func list(_ client: some TestClientProtocol, token: String) async throws -> ShoppingList {
        let answer = try await client.execute(.get, "/v1/shopping-list", token: token)
        try #require(answer.status == .ok)
        return try decoded(answer)
    }

    static func decoded<Value: Decodable>(_ answer: TestResponse, as type: Value.Type = Value.self) throws -> Value {
        try KiwiJSON.decoder().decode(Value.self, from: Data(answer.body.readableBytesView))
    }

    /// The list as section name → item names, in order.
    static func names(_ list: ShoppingList) -> [String: [String]] {
        Dictionary(uniqueKeysWithValues: list.sections.map { ($0.name, $0.items.map(\.name)) })
    }

    // MARK: Adding from recipes

    @Test("a saved recipe adds only what the pantry lacks and no staples, grouped by section in the order a shop is walked")
    func savedRecipeAddsWhatPantryLacks() async throws {
        let gateway = FakeGateway()
        let (token, session, _) = gateway.signIn()
        try await Self.keep(Self.omelette, in: gateway, for: session.userId)
        try await Self.stock(["Egg"], in: gateway, for: session.userId)
        try await gateway.test { client async throws in
            let answer = try await Self.addRecipe(client, token: token, Self.omelette)
            #expect(answer.status == .ok)
            let addition: ShoppingListAddition = try Self.decoded(answer)
            #expect(addition.list.sections.map(\.name) == ["Vegetable", "Dairy"])
            #expect(Self.names(addition.list) == ["Vegetable": ["Spinach"], "Dairy": ["feta", "Milk"]])
            #expect(addition.added.map(\.name) == ["Spinach", "Milk", "feta"])
            #expect(addition.added.allSatisfy { $0.forRecipes == ["Spinach Omelette"] && !$0.checked })
            #expect(try await Self.list(client, token: token) == addition.list)
        }
    }

    @Test("a scan's recipe adds its ingredients the pantry lacks")
    func scanRecipeAdds() async throws {
        let gateway = RecipesRouterTests.gateway()
        let (token, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            let scan = try await RecipesRouterTests.finishedScan(client, token: token)
            let body = #"{"scanId": "\#(scan.uuidString)", "recipeId": "\#(RecipesRouterTests.omelette.id.uuidString)"}"#
            let answer = try await Self.post(client, token: token, body: body)
            #expect(answer.status == .ok)
            let addition: ShoppingListAddition = try Self.decoded(answer)
            #expect(Self.names(addition.list) == ["Protein": ["eggs"], "Dairy": ["feta"]])
            #expect(addition.added.allSatisfy { $0.forRecipes == ["Spinach Omelette"] })
        }
    }

    @Test("a scan still open is 409 scan_in_progress, with nothing added")
    func openScanConflicts() async throws {
        let gateway = FakeGateway(workers: .hold)
        let (token, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            let created = try await client.scan(testPhoto, token: token, path: "/v1/scans")
            let scan: ScanResource = try Self.decoded(created)
            let body = #"{"scanId": "\#(scan.id.uuidString)", "recipeId": "\#(UUID().uuidString)"}"#
            let answer = try await Self.post(client, token: token, body: body)
            #expect(answer.status == .conflict && answer.errorCode == "scan_in_progress")
            #expect(try await Self.list(client, token: token).sections.isEmpty)
        }
    }

    @Test("a recipe id the user has not saved is 404")
    func unknownRecipeNotFound() async throws {
        let gateway = FakeGateway()
        let (token, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            let answer = try await Self.addRecipe(client, token: token, Self.omelette)
            #expect(answer.status == .notFound && answer.errorCode == "not_found")
        }
    }

    @Test("another user's saved recipe is 404, like one that never was")
    func otherUsersRecipeNotFound() async throws {
        let gateway = FakeGateway()
        let (token, _, _) = gateway.signIn()
        let (_, owner, _) = gateway.signIn()
        try await Self.keep(Self.omelette, in: gateway, for: owner.userId)
        try await gateway.test { client async throws in
            let answer = try await Self.addRecipe(client, token: token, Self.omelette)
            #expect(answer.status == .notFound)
            #expect(try await Self.list(client, token: token).sections.isEmpty)
        }
    }

    @Test("adding the same recipe twice leaves the list as it was")
    func sameRecipeTwiceIsIdempotent() async throws {
        let gateway = FakeGateway()
        let (token, session, _) = gateway.signIn()
        try await Self.keep(Self.omelette, in: gateway, for: session.userId)
        try await gateway.test { client async throws in
            let first: ShoppingListAddition = try Self.decoded(try await Self.addRecipe(client, token: token, Self.omelette))
            let again = try await Self.addRecipe(client, token: token, Self.omelette)
            #expect(again.status == .ok)
            let second: ShoppingListAddition = try Self.decoded(again)
            #expect(second.list == first.list)
            #expect(second.added == first.added)
        }
    }

    @Test("two recipes needing one ingredient give one item naming both")
    func twoRecipesShareOneItem() async throws {
        let gateway = FakeGateway()
        let (token, session, _) = gateway.signIn()
        let pancakes = Self.savedRecipe("Pancakes", ["flour", "milk"])
        try await Self.keep(Self.omelette, in: gateway, for: session.userId)
        try await Self.keep(pancakes, in: gateway, for: session.userId)
        try await gateway.test { client async throws in
            _ = try await Self.addRecipe(client, token: token, Self.omelette)
            _ = try await Self.addRecipe(client, token: token, pancakes)
            let items = try await Self.list(client, token: token).sections.flatMap(\.items)
            let milk = items.filter { $0.key == "milk" }
            #expect(milk.count == 1)
            #expect(milk.first?.name == "Milk")
            #expect(milk.first?.forRecipes == ["Spinach Omelette", "Pancakes"])
        }
    }

    /// A saved recipe whose ingredients have amounts.
    static func measuredRecipe(_ name: String, _ ingredients: [(String, Double?, QuantityUnit?)]) -> SavedRecipe {
        var saved = savedRecipe(name, ingredients.map(\.0))
        saved.recipe.ingredients = ingredients.map {
            RecipeIngredient(id: UUID(), name: $0.0, isDetected: false, substitution: nil, amount: $0.1, unit: $0.2)
        }
        return saved
    }

    @Test("200 g and 1 cup of rice for two recipes sum in grams, less the 100 g the pantry holds, taken off once")
    func quantitiesSumLessThePantry() async throws {
        let gateway = FakeGateway()
        let (token, session, _) = gateway.signIn()
        let risotto = Self.measuredRecipe("Risotto", [("rice", 200, .g), ("leeks", 2, .piece), ("leek", 1, .piece)])
        let pilaf = Self.measuredRecipe("Pilaf", [("Rice", 1, .cup), ("onion", nil, nil)])
        try await Self.keep(risotto, in: gateway, for: session.userId)
        try await Self.keep(pilaf, in: gateway, for: session.userId)
        var rice = PantryItem.new(name: try PantryItemFields.checkedName("Rice"), section: .grain, source: .manual, at: Date())
        (rice.quantity, rice.unit) = (100, .g)
        _ = try await gateway.pantry.add([rice], for: .own(session.userId), capacity: PantryController.capacity)
        try await gateway.test { client async throws in
            let first: ShoppingListAddition = try Self.decoded(try await Self.addRecipe(client, token: token, risotto))
            #expect(first.added.map { "\($0.key) \($0.quantity ?? 0) \($0.unit?.rawValue ?? "-")" } == ["rice 100.0 g", "leek 3.0 piece"])
            _ = try await Self.addRecipe(client, token: token, pilaf)
            let items = try await Self.list(client, token: token).sections.flatMap(\.items)
            let listed = items.first { $0.key == "rice" }
            // 200 g + 1 cup (185 g) = 385 g, less 100 g = 285 g, rounded to 290 g; the pantry's 100 g is taken off once.
            #expect(listed?.quantity == 290 && listed?.unit == .g && listed?.forRecipes == ["Risotto", "Pilaf"])
            let onion = items.first { $0.key == "onion" }
            #expect(onion != nil && onion?.quantity == nil && onion?.unit == nil, "an ingredient without an amount has none")
            let text = String(buffer: try await client.execute(.get, "/v1/shopping-list", token: token, headers: [.accept: "text/plain"]).body)
            #expect(text.contains("- [ ] rice, 290 g (Risotto, Pilaf)"), "\(text)")
        }
    }

    @Test("the list estimates what is left to buy at the prices last paid, listing what it cannot price, in JSON and text")
    func listEstimatesItsCost() async throws {
        let gateway = FakeGateway()
        let (token, session, _) = gateway.signIn()
        let risotto = Self.measuredRecipe("Risotto", [("rice", 200, .g), ("leeks", 2, .piece)])
        try await Self.keep(risotto, in: gateway, for: session.userId)
        var rice = PantryItem.new(name: try PantryItemFields.checkedName("Rice"), section: .grain, source: .scan, at: Date())
        (rice.quantity, rice.unit, rice.price) = (100, .g, PantryPrice(amount: 2.40, unit: .kg, currency: "EUR"))
        let receipt = ReceiptAddition(scanID: UUID(), fingerprint: nil, again: false)
        _ = try await gateway.pantry.addPurchases([Purchase(lineID: UUID(), item: rice)], from: receipt, for: .own(session.userId), capacity: 10)
        // The rice is used up and gone from the pantry; what it cost is not.
        #expect(try await gateway.pantry.delete(rice.id, of: .own(session.userId)))
        try await gateway.test { client async throws in
            let added: ShoppingListAddition = try Self.decoded(try await Self.addRecipe(client, token: token, risotto))
            // 200 g of rice to buy at 2.40 a kilogram; the leeks were never bought on a receipt.
            let unpriced = [UnpricedIngredient(name: "leeks", reason: .noPrice)]
            #expect(added.list.estimatedCost == ShoppingListCost(currency: "EUR", total: 0.48, status: .partial, unpriced: unpriced))
            let text = String(buffer: try await client.execute(.get, "/v1/shopping-list", token: token, headers: [.accept: "text/plain"]).body)
            #expect(text.hasSuffix("\nLeft to buy: about 0.48 EUR, without leeks\n"), "\(text)")
            let riceItem = try #require(added.added.first { $0.key == "rice" })
            let ticked = try await client.execute(
                .patch,
                "/v1/shopping-list/items/\(riceItem.id)",
                token: token,
                headers: [.contentType: "application/json"],
                body: ByteBuffer(string: #"{"checked": true}"#)
            )
            #expect(ticked.status == .ok)
            #expect(try await Self.list(client, token: token).estimatedCost == nil, "nothing left to buy has a price")
        }
    }

    @Test("a ticked item moved into the pantry takes its quantity, in metric units, where the pantry lacks it")
    func movedItemTakesItsQuantity() async throws {
        let gateway = FakeGateway()
        let (token, session, _) = gateway.signIn()
        let recipe = Self.measuredRecipe("Pilaf", [("rice", 1.5, .cup), ("butter", 2, .oz), ("leeks", 2, .piece)])
        try await Self.keep(recipe, in: gateway, for: session.userId)
        try await Self.stock(["Leeks"], in: gateway, for: session.userId)
        try await gateway.test { client async throws in
            let addition: ShoppingListAddition = try Self.decoded(try await Self.addRecipe(client, token: token, recipe))
            for item in addition.added {
                _ = try await client.execute(
                    .patch,
                    "/v1/shopping-list/items/\(item.id.uuidString.lowercased())",
                    token: token,
                    headers: [.contentType: "application/json"],
                    body: ByteBuffer(string: #"{"checked": true}"#)
                )
            }
            let moved: PantryItems = try Self.decoded(try await Self.post(client, "/v1/shopping-list/checked/pantry", token: token, body: "{}"))
            let byKey = Dictionary(uniqueKeysWithValues: moved.items.map { ($0.key, $0) })
            #expect(byKey["rice"]?.quantity == 350 && byKey["rice"]?.unit == .ml, "1.5 cups are 354.9 ml, rounded")
            #expect(byKey["butter"]?.quantity == 55 && byKey["butter"]?.unit == .g, "2 oz are 56.7 g, rounded")
        }
    }

    @Test("a pantry that holds enough, or holds the food without a comparable amount, adds nothing of it")
    func pantryThatHoldsEnough() async throws {
        let gateway = FakeGateway()
        let (token, session, _) = gateway.signIn()
        let recipe = Self.measuredRecipe("Risotto", [("rice", 200, .g), ("leeks", 2, .piece)])
        try await Self.keep(recipe, in: gateway, for: session.userId)
        var rice = PantryItem.new(name: try PantryItemFields.checkedName("Rice"), section: .grain, source: .manual, at: Date())
        (rice.quantity, rice.unit) = (1, .kg)
        var leeks = PantryItem.new(name: try PantryItemFields.checkedName("Leeks"), section: .vegetable, source: .manual, at: Date())
        (leeks.quantity, leeks.unit) = (1, .pack)
        _ = try await gateway.pantry.add([rice, leeks], for: .own(session.userId), capacity: PantryController.capacity)
        try await gateway.test { client async throws in
            let addition: ShoppingListAddition = try Self.decoded(try await Self.addRecipe(client, token: token, recipe))
            #expect(addition.added.isEmpty && addition.list.sections.isEmpty)
        }
    }

    // MARK: Adding by hand

    @Test("a name typed by hand is trimmed and listed under the section given, in any case")
    func handwrittenItem() async throws {
        let gateway = FakeGateway()
        let (token, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            let answer = try await Self.post(client, token: token, body: #"{"name": "  Oat milk ", "section": "dAIRY"}"#)
            #expect(answer.status == .ok)
            let addition: ShoppingListAddition = try Self.decoded(answer)
            #expect(addition.added.map(\.name) == ["Oat milk"])
            #expect(addition.added.first?.forRecipes == [])
            #expect(Self.names(addition.list) == ["Dairy": ["Oat milk"]])
        }
    }

    @Test(
        "each broken body rule is a clear 400, with nothing stored",
        arguments: [
            #"{"name": ""}"#, #"{"name": "   "}"#, #"{"name": "\#(String(repeating: "a", count: 101))"}"#, #"{"name": "Milk\u0000"}"#,
            #"{"name": "Milk\nEggs"}"#, #"{"name": "!!!"}"#, #"{"name": 4}"#, #"{"name": "Milk", "quantity": 2}"#,
            #"{"name": "Milk", "section": "Bakery"}"#, #"{"name": "Milk", "section": null}"#, #"{"recipeId": "not-an-id"}"#,
            #"{"scanId": "\#(UUID().uuidString)"}"#, #"{"name": "Milk", "recipeId": "\#(UUID().uuidString)"}"#,
            #"{"recipeId": "\#(UUID().uuidString)", "section": "Dairy"}"#, "{}", "[]", "not json",
            #"{"name": "\#(String(repeating: "a", count: 65 * 1024))"}"#,
        ]
    )
    func brokenBodyRefused(body: String) async throws {
        let gateway = FakeGateway()
        let (token, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            let answer = try await Self.post(client, token: token, body: body)
            #expect(answer.status == .badRequest && answer.errorCode == "bad_request")
            #expect(try answer.json()["message"] as? String != nil)
            #expect(try await Self.list(client, token: token).sections.isEmpty)
        }
    }

    @Test("an add that would take the list past 500 items is 400 shopping_list_full, with nothing added")
    func fullListRefusesAll() async throws {
        let gateway = FakeGateway()
        let (token, session, _) = gateway.signIn()
        let filler = (0..<499).map { ShoppingListStoreTests.item("Thing \($0)") }
        _ = try await gateway.shoppingList.add(filler, for: .own(session.userId), capacity: ShoppingListController.capacity)
        try await Self.keep(Self.omelette, in: gateway, for: session.userId)
        try await gateway.test { client async throws in
            let answer = try await Self.addRecipe(client, token: token, Self.omelette)
            #expect(answer.status == .badRequest && answer.errorCode == "shopping_list_full")
            #expect(try await gateway.shoppingList.items(of: .own(session.userId)).count == 499)
        }
    }

    // MARK: Ticking off and moving into the pantry

    @Test("ticked items move into the pantry and leave the list; unticked ones stay")
    func checkedItemsMoveToPantry() async throws {
        let gateway = FakeGateway()
        let (token, session, _) = gateway.signIn()
        try await Self.keep(Self.omelette, in: gateway, for: session.userId)
        try await gateway.test { client async throws in
            let addition: ShoppingListAddition = try Self.decoded(try await Self.addRecipe(client, token: token, Self.omelette))
            for item in addition.added where item.key != "egg" {
                let path = "/v1/shopping-list/items/\(item.id.uuidString)"
                let ticked = try await client.execute(.patch, path, token: token, body: ByteBuffer(string: #"{"checked": true}"#))
                #expect(ticked.status == .ok)
                #expect(try Self.decoded(ticked, as: ShoppingListItem.self).checked)
            }
            let moved = try await Self.post(client, "/v1/shopping-list/checked/pantry", token: token, body: "")
            #expect(moved.status == .ok)
            let pantry = try Self.decoded(moved, as: PantryItems.self).items
            #expect(Set(pantry.map(\.key)) == ["spinach", "milk", "feta"])
            #expect(pantry.first { $0.key == "feta" }?.category == "Dairy")
            #expect(pantry.allSatisfy { $0.source == .manual })
            #expect(Set(try await gateway.pantry.allItems(of: .own(session.userId)).map(\.key)) == ["spinach", "milk", "feta"])
            #expect(Self.names(try await Self.list(client, token: token)) == ["Protein": ["Eggs"]])
        }
    }

    @Test("a move retried after one that stopped between its steps doubles nothing in the pantry")
    func retriedMoveDoublesNothing() async throws {
        let gateway = FakeGateway()
        let (token, session, _) = gateway.signIn()
        let milk = ShoppingListStoreTests.item("Milk", section: "Dairy")
        _ = try await gateway.shoppingList.add([milk], for: .own(session.userId), capacity: ShoppingListController.capacity)
        _ = try await gateway.shoppingList.setChecked(milk.id, true, of: .own(session.userId))
        // The first move's pantry add happened; its delete from the list did not.
        try await Self.stock(["Milk"], in: gateway, for: session.userId)
        try await gateway.test { client async throws in
            let moved = try await Self.post(client, "/v1/shopping-list/checked/pantry", token: token, body: "")
            #expect(moved.status == .ok)
            #expect(try await gateway.pantry.allItems(of: .own(session.userId)).map(\.key) == ["milk"])
            #expect(try await Self.list(client, token: token).sections.isEmpty)
        }
    }

    @Test("a move into a full pantry is 400 pantry_full and moves nothing")
    func moveIntoFullPantry() async throws {
        let gateway = FakeGateway()
        let (token, session, _) = gateway.signIn()
        try await Self.stock((0..<PantryController.capacity).map { "Thing \($0)" }, in: gateway, for: session.userId)
        let milk = ShoppingListStoreTests.item("Milk", section: "Dairy")
        _ = try await gateway.shoppingList.add([milk], for: .own(session.userId), capacity: ShoppingListController.capacity)
        _ = try await gateway.shoppingList.setChecked(milk.id, true, of: .own(session.userId))
        try await gateway.test { client async throws in
            let moved = try await Self.post(client, "/v1/shopping-list/checked/pantry", token: token, body: "")
            #expect(moved.status == .badRequest && moved.errorCode == "pantry_full")
            #expect(try await gateway.shoppingList.items(of: .own(session.userId)).map(\.checked) == [true])
            #expect(try await gateway.pantry.allItems(of: .own(session.userId)).count == PantryController.capacity)
        }
    }

    @Test("ticking off, or deleting, another user's item or an unknown one is 404")
    func otherUsersItemNotFound() async throws {
        let gateway = FakeGateway()
        let (token, _, _) = gateway.signIn()
        let (_, owner, _) = gateway.signIn()
        let milk = ShoppingListStoreTests.item("Milk")
        _ = try await gateway.shoppingList.add([milk], for: .own(owner.userId), capacity: ShoppingListController.capacity)
        try await gateway.test { client async throws in
            for id in [milk.id.uuidString, UUID().uuidString, "not-an-id"] {
                let path = "/v1/shopping-list/items/\(id)"
                let ticked = try await client.execute(.patch, path, token: token, body: ByteBuffer(string: #"{"checked": true}"#))
                #expect(ticked.status == .notFound)
                #expect(try await client.execute(.delete, path, token: token).status == .notFound)
            }
        }
        #expect(try await gateway.shoppingList.items(of: .own(owner.userId)) == [milk])
    }

    @Test("a tick must be {\"checked\": true|false}: anything else is 400 and changes nothing")
    func brokenTickRefused() async throws {
        let gateway = FakeGateway()
        let (token, session, _) = gateway.signIn()
        let milk = ShoppingListStoreTests.item("Milk")
        _ = try await gateway.shoppingList.add([milk], for: .own(session.userId), capacity: ShoppingListController.capacity)
        try await gateway.test { client async throws in
            for body in [#"{"checked": "yes"}"#, #"{"checked": true, "name": "Eggs"}"#, "{}"] {
                let path = "/v1/shopping-list/items/\(milk.id.uuidString)"
                #expect(try await client.execute(.patch, path, token: token, body: ByteBuffer(string: body)).status == .badRequest)
            }
        }
        #expect(try await gateway.shoppingList.items(of: .own(session.userId)) == [milk])
    }

    @Test("an item is deleted alone, then the whole list is cleared")
    func deleteItemAndClear() async throws {
        let gateway = FakeGateway()
        let (token, session, _) = gateway.signIn()
        let (milk, eggs) = (ShoppingListStoreTests.item("Milk"), ShoppingListStoreTests.item("Eggs"))
        _ = try await gateway.shoppingList.add([milk, eggs], for: .own(session.userId), capacity: ShoppingListController.capacity)
        try await gateway.test { client async throws in
            #expect(try await client.execute(.delete, "/v1/shopping-list/items/\(milk.id.uuidString)", token: token).status == .noContent)
            #expect(try await gateway.shoppingList.items(of: .own(session.userId)) == [eggs])
            #expect(try await client.execute(.delete, "/v1/shopping-list", token: token).status == .noContent)
            #expect(try await gateway.shoppingList.items(of: .own(session.userId)).isEmpty)
        }
    }

    // MARK: Reading

    @Test("Accept: text/plain answers the share text, sections in shop order, ticked items marked")
    func textExport() async throws {
        let gateway = FakeGateway()
        let (token, session, _) = gateway.signIn()
        let items = [
            ShoppingListStoreTests.item("Milk", section: "Dairy", for: ["Pancakes", "Porridge"]),
            ShoppingListStoreTests.item("Tomatoes", section: "Vegetable"),
            ShoppingListStoreTests.item("Spinach", section: "Vegetable", for: ["Spinach Omelette"]),
        ]
        _ = try await gateway.shoppingList.add(items, for: .own(session.userId), capacity: ShoppingListController.capacity)
        _ = try await gateway.shoppingList.setChecked(items[1].id, true, of: .own(session.userId))
        try await gateway.test { client async throws in
            let answer = try await client.execute(.get, "/v1/shopping-list", token: token, headers: [.accept: "text/plain"])
            #expect(answer.status == .ok)
            #expect(answer.headers[.contentType] == "text/plain; charset=utf-8")
            #expect(
                String(buffer: answer.body) == """
                    Shopping list

                    Vegetable
                    - [ ] Spinach (Spinach Omelette)
                    - [x] Tomatoes

                    Dairy
                    - [ ] Milk (Pancakes, Porridge)

                    """
            )
        }
    }

    @Test("an Accept the list has no form for is 406; JSON-LD ranked first does not hide text")
    func acceptNegotiation() async throws {
        let gateway = FakeGateway()
        let (token, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            let refused = try await client.execute(.get, "/v1/shopping-list", token: token, headers: [.accept: "application/ld+json"])
            #expect(refused.status == .notAcceptable && refused.errorCode == "not_acceptable")
            let text = try await client.execute(.get, "/v1/shopping-list", token: token, headers: [.accept: "application/ld+json, text/plain;q=0.5"])
            #expect(String(buffer: text.body) == "Shopping list\n\nNothing to buy.\n")
        }
    }

    @Test("deleting the account empties the shopping list")
    func accountDeletionEmptiesList() async throws {
        let gateway = FakeGateway()
        let (token, session, _) = gateway.signIn()
        _ = try await gateway.shoppingList.add(
            [ShoppingListStoreTests.item("Milk")],
            for: .own(session.userId),
            capacity: ShoppingListController.capacity
        )
        try await gateway.test { client async throws in
            #expect(try await client.execute(.delete, "/v1/account", token: token).status == .ok)
        }
        #expect(try await gateway.shoppingList.items(of: .own(session.userId)).isEmpty)
    }
}
