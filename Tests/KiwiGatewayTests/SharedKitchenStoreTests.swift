import Foundation
import KiwiModels
import Testing

@testable import KiwiGateway

/// A household's kitchen as people move in and out: the household store with the pantry, shopping list and recipe box
/// it merges and empties, each case against the fakes and against the PostgreSQL stores on one migrated database.
@Suite("Shared kitchen, fake and PostgreSQL")
struct SharedKitchenStoreTests {
    /// The four stores of one kind, over the same data.
    struct Stores: Sendable {
        var households: any HouseholdStore
        var pantry: any PantryStore
        var shoppingList: any ShoppingListStore
        var recipes: any SavedRecipeStore
    }

    static let stores = PortImplementations<Stores>(
        fake: {
            let (pantry, shoppingList, recipes) = (FakePantryStore(), FakeShoppingListStore(), FakeSavedRecipeStore())
            let households = FakeHouseholdStore(pantry: pantry, shoppingList: shoppingList, recipes: recipes)
            return Stores(households: households, pantry: pantry, shoppingList: shoppingList, recipes: recipes)
        },
        postgres: { client in
            Stores(
                households: PostgresHouseholdStore(client: client, logger: testLogger, timeout: .seconds(60)),
                pantry: PostgresPantryStore(client: client, logger: testLogger, timeout: .seconds(60)),
                shoppingList: PostgresShoppingListStore(client: client, logger: testLogger, timeout: .seconds(60)),
                recipes: PostgresSavedRecipeStore(client: client, logger: testLogger, timeout: .seconds(60))
            )
        }
    )

    /// A household of `creator` (made at ``HouseholdStoreTests/now``), and `joiner` joined to it within `limits`; the
    /// invitation's code with what became of the join.
    static func household(
        of creator: HouseholdMemberRecord,
        joinedBy joiner: HouseholdMemberRecord,
        limits: KitchenLimits = .standard,
        in stores: Stores
    ) async throws -> (joining: HouseholdJoining, code: Data) {
        _ = try await HouseholdStoreTests.created(by: creator, in: stores.households)
        let code = HouseholdStoreTests.code()
        #expect(
            try await stores.households.invite(
                codeHash: code,
                by: creator.userID,
                expiresAt: HouseholdStoreTests.tomorrow,
                now: HouseholdStoreTests.now
            )
        )
        let joining = try await stores.households.join(codeHash: code, member: joiner, now: HouseholdStoreTests.now, capacity: 12, limits: limits)
        return (joining, code)
    }

    /// A pantry item of `name`, seen `seconds` after ``HouseholdStoreTests/now``.
    static func pantryItem(_ name: String, quantity: Double? = nil, seenAfter seconds: TimeInterval = 0) -> PantryItem {
        PantryStoreTests.item(
            name,
            quantity: quantity,
            unit: quantity == nil ? nil : .piece,
            addedAt: HouseholdStoreTests.now.addingTimeInterval(seconds)
        )
    }

    @Test("creating a household moves the creator's pantry, list and recipes into the household's kitchen", arguments: StoreKind.allCases)
    func creationMovesTheKitchen(_ kind: StoreKind) async throws {
        try await Self.stores.with(kind) { stores async throws in
            let sam = HouseholdStoreTests.person("Sam")
            let own = Kitchen.own(sam.userID)
            let eggs = Self.pantryItem("Eggs")
            _ = try await stores.pantry.add([eggs], for: own, capacity: 10)
            _ = try await stores.shoppingList.add([ShoppingListStoreTests.item("Milk")], for: own, capacity: 10)
            _ = try await stores.recipes.save(SavedRecipeStoreTests().copy(), for: own, capacity: 10)
            let household = try await HouseholdStoreTests.created(by: sam, in: stores.households)
            let kitchen = try await stores.households.kitchen(of: sam.userID)
            #expect(kitchen == Kitchen(id: household.id, member: sam.userID))
            #expect(try await stores.pantry.allItems(of: kitchen) == [eggs])
            #expect(try await stores.shoppingList.items(of: kitchen).map(\.name) == ["Milk"])
            #expect(try await stores.recipes.recipes(of: kitchen, matching: nil, after: nil, limit: 10).recipes.count == 1)
            #expect(try await stores.pantry.allItems(of: own).isEmpty)
        }
    }

    @Test(
        "joining sums a list item's quantities in one unit, leaves them unknown across units, and gives a hand-typed item the joiner's",
        arguments: StoreKind.allCases
    )
    func joiningMergesListQuantities(_ kind: StoreKind) async throws {
        try await Self.stores.with(kind) { stores async throws in
            let (sam, alex) = (HouseholdStoreTests.person("Sam"), HouseholdStoreTests.person("Alex"))
            let item = ShoppingListStoreTests.item
            _ = try await stores.shoppingList.add(
                [
                    item("Rice", "Grain", ["Risotto"], Date(), 200, .g), item("Milk", "Dairy", ["Porridge"], Date(), 300, .ml),
                    item("Leeks", "Vegetable", [], Date(), nil, nil),
                ],
                for: .own(sam.userID),
                capacity: 10
            )
            _ = try await stores.shoppingList.add(
                [
                    item("Rice", "Grain", ["Pilaf"], Date(), 150, .g), item("Milk", "Dairy", ["Pancakes"], Date(), 1, .cup),
                    item("Leeks", "Vegetable", ["Pie"], Date(), 2, .piece),
                ],
                for: .own(alex.userID),
                capacity: 10
            )
            guard case .joined = try await Self.household(of: sam, joinedBy: alex, in: stores).joining else { throw KitchenTestFailure() }
            let list = try await stores.shoppingList.items(of: try await stores.households.kitchen(of: sam.userID))
            let byKey = Dictionary(uniqueKeysWithValues: list.map { ($0.key, $0) })
            #expect(byKey["rice"]?.quantity == 350 && byKey["rice"]?.unit == .g)
            #expect(byKey["milk"]?.quantity == nil && byKey["milk"]?.unit == nil)
            #expect(byKey["leeks"]?.quantity == 2 && byKey["leeks"]?.unit == .piece && byKey["leeks"]?.forRecipes == ["Pie"])
        }
    }

    @Test(
        "joining merges the joiner's kitchen: a key both have once with the later sighting, list recipes joined, each note kept",
        arguments: StoreKind.allCases
    )
    func joiningMergesByKey(_ kind: StoreKind) async throws {
        try await Self.stores.with(kind) { stores async throws in
            let (sam, alex) = (HouseholdStoreTests.person("Sam"), HouseholdStoreTests.person("Alex"))
            let (samsOwn, alexsOwn) = (Kitchen.own(sam.userID), Kitchen.own(alex.userID))
            _ = try await stores.pantry.add([Self.pantryItem("Eggs", quantity: 2), Self.pantryItem("Rice")], for: samsOwn, capacity: 10)
            _ = try await stores.pantry.add(
                [Self.pantryItem("eggs", quantity: 6, seenAfter: 60), Self.pantryItem("Feta")],
                for: alexsOwn,
                capacity: 10
            )
            _ = try await stores.shoppingList.add([ShoppingListStoreTests.item("Milk", for: ["Pancakes"])], for: samsOwn, capacity: 10)
            _ = try await stores.shoppingList.add([ShoppingListStoreTests.item("Milk", for: ["Porridge"])], for: alexsOwn, capacity: 10)
            let recipe = SavedRecipeStoreTests().copy()
            guard case .saved(let samsCopy) = try await stores.recipes.save(recipe, for: samsOwn, capacity: 10) else { throw KitchenTestFailure() }
            var alexsRecipe = recipe
            alexsRecipe.id = UUID()
            guard case .saved(let alexsCopy) = try await stores.recipes.save(alexsRecipe, for: alexsOwn, capacity: 10) else {
                throw KitchenTestFailure()
            }
            _ = try await stores.recipes.update(samsCopy.id, of: samsOwn, SavedRecipeChanges(note: .set("Sam's"), rating: .keep))
            _ = try await stores.recipes.update(alexsCopy.id, of: alexsOwn, SavedRecipeChanges(note: .set("Alex's"), rating: .set(5)))

            guard case .joined = try await Self.household(of: sam, joinedBy: alex, in: stores).joining else { throw KitchenTestFailure() }
            let (samsKitchen, alexsKitchen) = (
                try await stores.households.kitchen(of: sam.userID), try await stores.households.kitchen(of: alex.userID)
            )
            #expect(samsKitchen.id == alexsKitchen.id)
            let pantry = try await stores.pantry.allItems(of: samsKitchen)
            #expect(pantry.map(\.key).sorted() == ["eggs", "feta", "rice"])
            // Sam's eggs keep their id and name; Alex's later sighting gives the quantity.
            let eggs = try #require(pantry.first { $0.key == "eggs" })
            #expect(eggs.name == "Eggs" && eggs.quantity == 6)
            #expect(try await stores.shoppingList.items(of: alexsKitchen).map(\.forRecipes) == [["Pancakes", "Porridge"]])
            let box = try await stores.recipes.recipes(of: samsKitchen, matching: nil, after: nil, limit: 10).recipes
            #expect(box.map(\.id) == [samsCopy.id])
            let (samReads, alexReads) = (
                try await stores.recipes.recipe(samsCopy.id, of: samsKitchen), try await stores.recipes.recipe(samsCopy.id, of: alexsKitchen)
            )
            #expect(samReads?.note == "Sam's" && samReads?.rating == nil)
            #expect(alexReads?.note == "Alex's" && alexReads?.rating == 5)
            #expect(try await stores.pantry.allItems(of: alexsOwn).isEmpty)
        }
    }

    @Test(
        "joining merges the kitchens' prices: a food both bought keeps the later price, and the joiner's own are gone",
        arguments: StoreKind.allCases
    )
    func joiningMergesPrices(_ kind: StoreKind) async throws {
        try await Self.stores.with(kind) { stores async throws in
            let (sam, alex) = (HouseholdStoreTests.person("Sam"), HouseholdStoreTests.person("Alex"))
            let (samsOwn, alexsOwn) = (Kitchen.own(sam.userID), Kitchen.own(alex.userID))
            func buy(_ name: String, at price: Double, for kitchen: Kitchen) async throws {
                let purchase = PantryStoreTests.purchase(name, 1, .piece, scan: UUID(), price: price)
                let receipt = ReceiptAddition(scanID: UUID(), fingerprint: nil, again: false)
                _ = try await stores.pantry.addPurchases([purchase], from: receipt, for: kitchen, capacity: 10)
            }
            // Alex, who joins, bought eggs before Sam did, and milk after.
            try await buy("Eggs", at: 1.19, for: alexsOwn)
            try await buy("Eggs", at: 2.00, for: samsOwn)
            try await buy("Milk", at: 1.19, for: samsOwn)
            try await buy("Milk", at: 0.99, for: alexsOwn)
            guard case .joined = try await Self.household(of: sam, joinedBy: alex, in: stores).joining else { throw KitchenTestFailure() }
            let prices = try await stores.pantry.prices(of: try await stores.households.kitchen(of: sam.userID))
            #expect(prices.mapValues(\.amount) == ["eggs": 2.00, "milk": 0.99])
            #expect(try await stores.pantry.prices(of: alexsOwn).isEmpty)
        }
    }

    @Test(
        "a join whose merged pantry would pass its limit is refused with the counts, nothing is merged, and the code still works",
        arguments: StoreKind.allCases
    )
    func overfullMergeIsRefused(_ kind: StoreKind) async throws {
        try await Self.stores.with(kind) { stores async throws in
            let (sam, alex) = (HouseholdStoreTests.person("Sam"), HouseholdStoreTests.person("Alex"))
            _ = try await stores.pantry.add([Self.pantryItem("Eggs"), Self.pantryItem("Rice")], for: .own(sam.userID), capacity: 10)
            _ = try await stores.pantry.add([Self.pantryItem("eggs"), Self.pantryItem("Feta")], for: .own(alex.userID), capacity: 10)
            let limits = KitchenLimits(pantry: 2, shoppingList: 10, recipeBox: 10)
            let (joining, code) = try await Self.household(of: sam, joinedBy: alex, limits: limits, in: stores)
            #expect(joining == .kitchenTooFull(KitchenOverflow(part: .pantry, household: 2, yours: 2, merged: 3, limit: 2)))
            #expect(try await stores.households.kitchen(of: alex.userID) == .own(alex.userID))
            #expect(try await stores.pantry.allItems(of: .own(alex.userID)).map(\.key).sorted() == ["eggs", "feta"])
            #expect(
                try await stores.pantry.allItems(of: try await stores.households.kitchen(of: sam.userID)).map(\.key).sorted() == ["eggs", "rice"]
            )
            // The refused join used nothing: the same code joins once the merged kitchen fits.
            let again = try await stores.households.join(codeHash: code, member: alex, now: HouseholdStoreTests.now, capacity: 12, limits: .standard)
            guard case .joined = again else { throw KitchenTestFailure() }
        }
    }

    @Test(
        "a leaver starts with an empty kitchen and loses their notes; the kitchen stays with the household until its last member leaves",
        arguments: StoreKind.allCases
    )
    func leavingLeavesTheKitchen(_ kind: StoreKind) async throws {
        try await Self.stores.with(kind) { stores async throws in
            let (sam, alex) = (HouseholdStoreTests.person("Sam"), HouseholdStoreTests.person("Alex"))
            _ = try await stores.pantry.add([Self.pantryItem("Eggs")], for: .own(alex.userID), capacity: 10)
            guard case .joined(let household) = try await Self.household(of: sam, joinedBy: alex, in: stores).joining else {
                throw KitchenTestFailure()
            }
            let shared = Kitchen(id: household.id, member: alex.userID)
            guard case .saved(let saved) = try await stores.recipes.save(SavedRecipeStoreTests().copy(), for: shared, capacity: 10) else {
                throw KitchenTestFailure()
            }
            _ = try await stores.recipes.update(saved.id, of: shared, SavedRecipeChanges(note: .set("Alex's"), rating: .set(4)))

            #expect(try await stores.households.leave(alex.userID))
            #expect(try await stores.households.kitchen(of: alex.userID) == .own(alex.userID))
            #expect(try await stores.pantry.allItems(of: .own(alex.userID)).isEmpty)
            let samsKitchen = try await stores.households.kitchen(of: sam.userID)
            #expect(try await stores.pantry.allItems(of: samsKitchen).map(\.name) == ["Eggs"])
            // Alex's note went with Alex: were Alex to come back, the recipe would read without it.
            let read = try await stores.recipes.recipe(saved.id, of: shared)
            #expect(read != nil && read?.note == nil && read?.rating == nil)

            #expect(try await stores.households.leave(sam.userID))
            #expect(try await stores.pantry.allItems(of: samsKitchen).isEmpty)
            #expect(try await stores.recipes.recipe(saved.id, of: samsKitchen) == nil)
        }
    }
}

struct KitchenTestFailure: Error {}
