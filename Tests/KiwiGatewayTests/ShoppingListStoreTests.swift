import Foundation
import KiwiModels
import Testing

@testable import KiwiGateway

/// The shopping list store, each case against ``FakeShoppingListStore`` and against ``PostgresShoppingListStore`` on a
/// migrated database of its own.
@Suite("Shopping list store, fake and PostgreSQL")
struct ShoppingListStoreTests {
    /// The store of each kind.
    static let stores = PortImplementations<any ShoppingListStore>(
        fake: { FakeShoppingListStore() },
        postgres: { PostgresShoppingListStore(client: $0, logger: testLogger, timeout: .seconds(60)) }
    )

    /// An unticked item of `name` (its key the lower-cased name), needed by `recipes`, added at a whole second so that
    /// it reads back from PostgreSQL's microseconds exactly.
    static func item(
        _ name: String,
        section: String = "Vegetable",
        for recipes: [String] = [],
        addedAt: Date = Date(),
        quantity: Double? = nil,
        unit: QuantityUnit? = nil
    ) -> ShoppingListItem {
        ShoppingListItem(
            id: UUID(),
            name: name,
            key: name.lowercased(),
            section: section,
            checked: false,
            forRecipes: recipes,
            addedAt: Date(timeIntervalSince1970: addedAt.timeIntervalSince1970.rounded(.down)),
            quantity: quantity,
            unit: unit
        )
    }

    @Test("added items read back exactly, oldest first", arguments: StoreKind.allCases)
    func addedItemsReadBack(_ kind: StoreKind) async throws {
        try await Self.stores.with(kind) { store async throws in
            let user = Kitchen.own(UUID())
            let now = Date()
            let items = [
                Self.item("Spinach", for: ["Spinach Omelette"], addedAt: now),
                Self.item("Milk", section: "Dairy", for: ["Pancakes", "Porridge"], addedAt: now.addingTimeInterval(-60)),
            ]
            #expect(try await store.add(items, for: user, capacity: 10) == .added(items))
            #expect(try await store.items(of: user) == [items[1], items[0]])
        }
    }

    @Test("an item of a key the list has gains the new recipes once, in order, and keeps its tick and everything else", arguments: StoreKind.allCases)
    func mergeAddsRecipesAndKeepsTick(_ kind: StoreKind) async throws {
        try await Self.stores.with(kind) { store async throws in
            let user = Kitchen.own(UUID())
            let milk = Self.item("Milk", section: "Dairy", for: ["Pancakes"])
            _ = try await store.add([milk], for: user, capacity: 10)
            _ = try await store.setChecked(milk.id, true, of: user)
            var expected = milk
            expected.checked = true
            expected.forRecipes = ["Pancakes", "Porridge", "Custard"]
            let again = Self.item("Milk", section: "Other", for: ["Porridge", "Pancakes", "Custard", "Porridge"])
            #expect(try await store.add([again], for: user, capacity: 10) == .added([expected]))
            #expect(try await store.items(of: user) == [expected])
        }
    }

    @Test("a new recipe's quantity is summed into the item's in one unit; the same recipe again adds none", arguments: StoreKind.allCases)
    func quantitiesAreSummedOnce(_ kind: StoreKind) async throws {
        try await Self.stores.with(kind) { store async throws in
            let user = Kitchen.own(UUID())
            let risotto = Self.item("Rice", section: "Grain", for: ["Risotto"], quantity: 200, unit: .g)
            _ = try await store.add([risotto], for: user, capacity: 10)
            let pilaf = Self.item("Rice", section: "Grain", for: ["Pilaf"], quantity: 1, unit: .cup)
            var expected = risotto
            (expected.forRecipes, expected.quantity, expected.unit) = (["Risotto", "Pilaf"], 390, .g)
            #expect(try await store.add([pilaf], for: user, capacity: 10) == .added([expected]))
            #expect(try await store.add([pilaf, risotto], for: user, capacity: 10) == .added([expected, expected]))
            #expect(try await store.items(of: user) == [expected])
        }
    }

    @Test("an item typed by hand takes a recipe's quantity; one of unknown quantity stays unknown", arguments: StoreKind.allCases)
    func unknownQuantities(_ kind: StoreKind) async throws {
        try await Self.stores.with(kind) { store async throws in
            let user = Kitchen.own(UUID())
            let byHand = Self.item("Rice", section: "Grain")
            let unmeasured = Self.item("Leeks", for: ["Soup"])
            _ = try await store.add([byHand, unmeasured], for: user, capacity: 10)
            let added = try await store.add(
                [Self.item("Rice", for: ["Risotto"], quantity: 200, unit: .g), Self.item("Leeks", for: ["Pie"], quantity: 2, unit: .piece)],
                for: user,
                capacity: 10
            )
            guard case .added(let items) = added else { throw CancellationError() }
            #expect(items.map(\.quantity) == [200, nil] && items.map(\.unit) == [.g, nil])
            #expect(items.map(\.forRecipes) == [["Risotto"], ["Soup", "Pie"]])
        }
    }

    @Test("adding the same items twice changes nothing", arguments: StoreKind.allCases)
    func sameItemsTwiceChangeNothing(_ kind: StoreKind) async throws {
        try await Self.stores.with(kind) { store async throws in
            let user = Kitchen.own(UUID())
            let items = [
                Self.item("Feta", section: "Dairy", for: ["Spinach Omelette"]), Self.item("Eggs", section: "Protein", for: ["Spinach Omelette"]),
            ]
            _ = try await store.add(items, for: user, capacity: 10)
            let before = try await store.items(of: user)
            let copies = items.map { Self.item($0.name, section: $0.section, for: $0.forRecipes) }
            #expect(try await store.add(copies, for: user, capacity: 10) == .added(items))
            #expect(try await store.items(of: user) == before)
        }
    }

    @Test("an add that would pass the capacity adds nothing, while one of keys the list has still merges", arguments: StoreKind.allCases)
    func capacityIsAllOrNothing(_ kind: StoreKind) async throws {
        try await Self.stores.with(kind) { store async throws in
            let user = Kitchen.own(UUID())
            let first = [Self.item("Eggs"), Self.item("Milk")]
            _ = try await store.add(first, for: user, capacity: 3)
            #expect(try await store.add([Self.item("Flour"), Self.item("Sugar"), Self.item("Eggs")], for: user, capacity: 3) == .full)
            #expect(Set(try await store.items(of: user)) == Set(first))
            guard case .added(let merged) = try await store.add([Self.item("Eggs", for: ["Cake"]), Self.item("Flour")], for: user, capacity: 3)
            else { throw ShoppingListTestFailure() }
            #expect(merged.map(\.forRecipes) == [["Cake"], []])
            #expect(try await store.items(of: user).count == 3)
        }
    }

    @Test("an item is ticked off and on; another user's or an unknown one is nil", arguments: StoreKind.allCases)
    func setCheckedTicks(_ kind: StoreKind) async throws {
        try await Self.stores.with(kind) { store async throws in
            let user = Kitchen.own(UUID())
            let eggs = Self.item("Eggs")
            _ = try await store.add([eggs], for: user, capacity: 10)
            #expect(try await store.setChecked(eggs.id, true, of: user)?.checked == true)
            #expect(try await store.setChecked(eggs.id, false, of: user)?.checked == false)
            #expect(try await store.setChecked(eggs.id, true, of: Kitchen.own(UUID())) == nil)
            #expect(try await store.setChecked(UUID(), true, of: user) == nil)
            #expect(try await store.items(of: user).map(\.checked) == [false])
        }
    }

    @Test("deleting ids removes and counts only the user's items", arguments: StoreKind.allCases)
    func deleteCountsOwnItems(_ kind: StoreKind) async throws {
        try await Self.stores.with(kind) { store async throws in
            let (user, other) = (Kitchen.own(UUID()), Kitchen.own(UUID()))
            let (eggs, milk, theirs) = (Self.item("Eggs"), Self.item("Milk"), Self.item("Eggs"))
            _ = try await store.add([eggs, milk], for: user, capacity: 10)
            _ = try await store.add([theirs], for: other, capacity: 10)
            #expect(try await store.delete([eggs.id, theirs.id, UUID()], of: user) == 1)
            #expect(try await store.items(of: user) == [milk])
            #expect(try await store.items(of: other) == [theirs])
            #expect(try await store.delete([], of: user) == 0)
        }
    }

    @Test("deleteAll empties the user's list only", arguments: StoreKind.allCases)
    func deleteAllEmptiesOneList(_ kind: StoreKind) async throws {
        try await Self.stores.with(kind) { store async throws in
            let (user, other) = (Kitchen.own(UUID()), Kitchen.own(UUID()))
            _ = try await store.add([Self.item("Eggs"), Self.item("Milk")], for: user, capacity: 10)
            let theirs = Self.item("Eggs")
            _ = try await store.add([theirs], for: other, capacity: 10)
            try await store.deleteAll(of: user)
            #expect(try await store.items(of: user).isEmpty)
            #expect(try await store.items(of: other) == [theirs])
        }
    }

    @Test("another user's list is invisible: same keys are items of their own, counted against their own capacity", arguments: StoreKind.allCases)
    func otherUsersInvisible(_ kind: StoreKind) async throws {
        try await Self.stores.with(kind) { store async throws in
            let (user, other) = (Kitchen.own(UUID()), Kitchen.own(UUID()))
            let mine = Self.item("Eggs", for: ["Omelette"])
            _ = try await store.add([mine], for: user, capacity: 1)
            let theirs = Self.item("Eggs", for: ["Cake"])
            #expect(try await store.add([theirs], for: other, capacity: 1) == .added([theirs]))
            #expect(try await store.items(of: user) == [mine])
            #expect(try await store.items(of: other) == [theirs])
        }
    }

    @Test("ten adds at once of one recipe's items give one set of items", arguments: StoreKind.allCases)
    func concurrentAddsOfOneRecipeGiveOneSet(_ kind: StoreKind) async throws {
        try await Self.stores.with(kind) { store async throws in
            let user = Kitchen.own(UUID())
            try await withThrowingTaskGroup(of: ShoppingListAdding.self) { group in
                for _ in 0..<10 {
                    group.addTask {
                        try await store.add(["Eggs", "Feta", "Spinach"].map { Self.item($0, for: ["Spinach Omelette"]) }, for: user, capacity: 500)
                    }
                }
                for try await result in group { #expect(result != .full) }
            }
            let items = try await store.items(of: user)
            #expect(items.map(\.key).sorted() == ["eggs", "feta", "spinach"])
            #expect(items.allSatisfy { $0.forRecipes == ["Spinach Omelette"] })
        }
    }

    @Test("twenty adds at once never take the list past its capacity", arguments: StoreKind.allCases)
    func concurrentAddsNeverPassCapacity(_ kind: StoreKind) async throws {
        try await Self.stores.with(kind) { store async throws in
            let user = Kitchen.own(UUID())
            let results = try await withThrowingTaskGroup(of: ShoppingListAdding.self) { group in
                for index in 0..<20 {
                    group.addTask { try await store.add([Self.item("Item \(index) A"), Self.item("Item \(index) B")], for: user, capacity: 9) }
                }
                return try await group.reduce(into: [ShoppingListAdding]()) { $0.append($1) }
            }
            #expect(results.filter { $0 != .full }.count == 4)
            #expect(try await store.items(of: user).count == 8)
        }
    }
}

struct ShoppingListTestFailure: Error {}
