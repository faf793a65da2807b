import Foundation
import KiwiModels
import Testing

@testable import KiwiGateway

/// The pantry store, each case against ``FakePantryStore`` and against ``PostgresPantryStore`` on a migrated database of
/// its own.
@Suite("Pantry store, fake and PostgreSQL")
struct PantryStoreTests {
    /// The store of each kind.
    static let stores = PortImplementations<any PantryStore>(
        fake: { FakePantryStore() },
        postgres: { PostgresPantryStore(client: $0, logger: testLogger, timeout: .seconds(60)) }
    )

    /// Whole seconds, which PostgreSQL's microseconds keep exactly.
    static let now = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
    static let today = CalendarDay(utc: now)

    /// A new item called `name` (its key the name lower-cased), added at `addedAt`.
    static func item(
        _ name: String,
        quantity: Double? = nil,
        unit: QuantityUnit? = nil,
        bestBefore: CalendarDay? = nil,
        useSoonBy: CalendarDay? = nil,
        addedAt: Date = now
    ) -> PantryItem {
        PantryItem(
            id: UUID(),
            name: name,
            key: name.lowercased(),
            category: "Vegetable",
            quantity: quantity,
            unit: unit,
            bestBefore: bestBefore,
            useSoonBy: bestBefore ?? useSoonBy,
            useSoonEstimated: bestBefore == nil && useSoonBy != nil,
            source: .manual,
            addedAt: addedAt,
            lastSeenAt: addedAt
        )
    }

    @Test("added items read back exactly, every field, and the add says how many the pantry holds", arguments: StoreKind.allCases)
    func addedItemsReadBack(_ kind: StoreKind) async throws {
        try await Self.stores.with(kind) { store async throws in
            let user = Kitchen.own(UUID())
            var spinach = Self.item("Spinach", quantity: 0.25, unit: .kg, bestBefore: Self.today.adding(days: 2))
            (spinach.source, spinach.scanId, spinach.category) = (.scan, UUID(), "Vegetable")
            let rice = Self.item("Rice", addedAt: Self.now.addingTimeInterval(-3600))
            #expect(try await store.add([spinach, rice], for: user, capacity: 10) == .added([spinach, rice], count: 2))
            #expect(try await store.item(spinach.id, of: user) == spinach)
            #expect(try await store.item(rice.id, of: user) == rice)
            #expect(try await store.allItems(of: user) == [spinach, rice])
        }
    }

    @Test(
        "adding a key the pantry has updates last seen, quantity and best-before, and keeps id, name, category, source and addedAt",
        arguments: StoreKind.allCases
    )
    func addMergesByKey(_ kind: StoreKind) async throws {
        try await Self.stores.with(kind) { store async throws in
            let user = Kitchen.own(UUID())
            let first = Self.item("Tomatoes", quantity: 4, unit: .piece, useSoonBy: Self.today.adding(days: 5))
            _ = try await store.add([first], for: user, capacity: 10)
            var again = Self.item(
                "tomatoes",
                quantity: 500,
                unit: .g,
                bestBefore: Self.today.adding(days: 3),
                addedAt: Self.now.addingTimeInterval(60)
            )
            (again.key, again.category, again.source, again.scanId) = (first.key, "Other", .scan, UUID())
            var merged = first
            (merged.lastSeenAt, merged.quantity, merged.unit) = (again.lastSeenAt, 500, .g)
            (merged.bestBefore, merged.useSoonBy, merged.useSoonEstimated) = (again.bestBefore, again.bestBefore, false)
            #expect(try await store.add([again], for: user, capacity: 10) == .added([merged], count: 1))
            #expect(try await store.allItems(of: user) == [merged])
        }
    }

    @Test("adding a key again without quantity or best-before keeps the ones the item has", arguments: StoreKind.allCases)
    func addKeepsWhatTheNewItemLacks(_ kind: StoreKind) async throws {
        try await Self.stores.with(kind) { store async throws in
            let user = Kitchen.own(UUID())
            let first = Self.item("Milk", quantity: 1, unit: .l, bestBefore: Self.today.adding(days: 4))
            _ = try await store.add([first], for: user, capacity: 10)
            var again = Self.item("Milk", addedAt: Self.now.addingTimeInterval(60))
            again.useSoonBy = Self.today.adding(days: 7)
            var merged = first
            merged.lastSeenAt = again.lastSeenAt
            #expect(try await store.add([again], for: user, capacity: 10) == .added([merged], count: 1))
        }
    }

    @Test("an add that would take the pantry past its capacity adds nothing, while one of known keys only goes in", arguments: StoreKind.allCases)
    func capacityIsAllOrNothing(_ kind: StoreKind) async throws {
        try await Self.stores.with(kind) { store async throws in
            let user = Kitchen.own(UUID())
            let kept = [Self.item("Eggs"), Self.item("Milk")]
            _ = try await store.add(kept, for: user, capacity: 3)
            #expect(try await store.add([Self.item("Flour"), Self.item("Sugar")], for: user, capacity: 3) == .full)
            #expect(try await store.allItems(of: user).map(\.name).sorted() == ["Eggs", "Milk"])
            let flour = Self.item("Flour")
            #expect(try await store.add([Self.item("Eggs"), flour], for: user, capacity: 3) == .added([kept[0], flour], count: 3))
            #expect(try await store.add([Self.item("Milk")], for: user, capacity: 3) == .added([kept[1]], count: 3))
        }
    }

    @Test("pages run soonest use-soon date first, food that keeps last, then by id, without skipping or repeating", arguments: StoreKind.allCases)
    func pagesRunSoonestFirst(_ kind: StoreKind) async throws {
        try await Self.stores.with(kind) { store async throws in
            let user = Kitchen.own(UUID())
            let items = [
                Self.item("Rice"), Self.item("Milk", bestBefore: Self.today.adding(days: 6)),
                Self.item("Spinach", useSoonBy: Self.today.adding(days: 1)), Self.item("Flour"),
                Self.item("Yoghurt", bestBefore: Self.today.adding(days: 6)), Self.item("Old cheese", bestBefore: Self.today.adding(days: -1)),
                Self.item("Pasta"),
            ]
            _ = try await store.add(items, for: user, capacity: 10)
            var seen: [PantryItem] = []
            var cursor: PageCursor?
            repeat {
                let page = try await store.items(of: user, after: cursor, limit: 3)
                seen += page.items
                cursor = page.next
                if let cursor, let last = page.items.last {
                    #expect(cursor == PageCursor(createdAtMicroseconds: PantryPage.sortMicroseconds(of: last), id: last.id))
                }
            } while cursor != nil
            let byID = { (names: [String]) in items.filter { names.contains($0.name) }.sorted { $0.id.uuidString < $1.id.uuidString } }
            let expected = byID(["Old cheese"]) + byID(["Spinach"]) + byID(["Milk", "Yoghurt"]) + byID(["Rice", "Flour", "Pasta"])
            #expect(seen.map(\.name) == expected.map(\.name))
            #expect(try await store.allItems(of: user).map(\.name) == expected.map(\.name))
        }
    }

    @Test("a replace writes the whole item over the old one, the last write winning", arguments: StoreKind.allCases)
    func replaceWritesLastWins(_ kind: StoreKind) async throws {
        try await Self.stores.with(kind) { store async throws in
            let user = Kitchen.own(UUID())
            let item = Self.item("Tomatoes", quantity: 4, unit: .piece)
            _ = try await store.add([item], for: user, capacity: 10)
            var first = item
            (first.name, first.key, first.quantity, first.unit) = ("Cherry tomatoes", "cherry tomato", nil, nil)
            var second = item
            (second.quantity, second.bestBefore, second.useSoonBy) = (2, Self.today.adding(days: 1), Self.today.adding(days: 1))
            #expect(try await store.replace(first, of: user) == .replaced(first))
            #expect(try await store.replace(second, of: user) == .replaced(second))
            #expect(try await store.allItems(of: user) == [second])
        }
    }

    @Test("a replace onto another item's key is keyTaken, of another user's or no item notFound, and changes nothing", arguments: StoreKind.allCases)
    func replaceRefusals(_ kind: StoreKind) async throws {
        try await Self.stores.with(kind) { store async throws in
            let (user, other) = (Kitchen.own(UUID()), Kitchen.own(UUID()))
            let (eggs, milk) = (Self.item("Eggs"), Self.item("Milk"))
            _ = try await store.add([eggs, milk], for: user, capacity: 10)
            var renamed = eggs
            (renamed.name, renamed.key) = ("Milk", "milk")
            #expect(try await store.replace(renamed, of: user) == .keyTaken)
            #expect(try await store.replace(eggs, of: other) == .notFound)
            #expect(try await store.replace(Self.item("Flour"), of: user) == .notFound)
            #expect(try await store.allItems(of: user) == [eggs, milk].sorted { $0.id.uuidString < $1.id.uuidString })
        }
    }

    @Test("a delete removes one item, deleteAll every one of a user, and neither touches another user's", arguments: StoreKind.allCases)
    func deleteAndDeleteAll(_ kind: StoreKind) async throws {
        try await Self.stores.with(kind) { store async throws in
            let (user, other) = (Kitchen.own(UUID()), Kitchen.own(UUID()))
            let (eggs, milk) = (Self.item("Eggs"), Self.item("Milk"))
            _ = try await store.add([eggs, milk], for: user, capacity: 10)
            _ = try await store.add([Self.item("Eggs")], for: other, capacity: 10)
            #expect(try await store.delete(eggs.id, of: other) == false)
            #expect(try await store.delete(eggs.id, of: user))
            #expect(try await store.delete(eggs.id, of: user) == false)
            #expect(try await store.allItems(of: user) == [milk])
            try await store.deleteAll(of: user)
            #expect(try await store.allItems(of: user).isEmpty)
            #expect(try await store.allItems(of: other).count == 1)
        }
    }

    @Test("another user's items are invisible: not listed, not found, not merged into", arguments: StoreKind.allCases)
    func anotherUsersItemsAreInvisible(_ kind: StoreKind) async throws {
        try await Self.stores.with(kind) { store async throws in
            let (user, other) = (Kitchen.own(UUID()), Kitchen.own(UUID()))
            let eggs = Self.item("Eggs")
            _ = try await store.add([eggs], for: user, capacity: 10)
            #expect(try await store.item(eggs.id, of: other) == nil)
            #expect(try await store.items(of: other, after: nil, limit: 10).items.isEmpty)
            let theirs = Self.item("Eggs")
            #expect(try await store.add([theirs], for: other, capacity: 10) == .added([theirs], count: 1))
            #expect(try await store.allItems(of: user) == [eggs])
        }
    }

    @Test("ten adds at once of one scan's items leave exactly one set of them", arguments: StoreKind.allCases)
    func concurrentAddsOfOneScanMakeOneSet(_ kind: StoreKind) async throws {
        try await Self.stores.with(kind) { store async throws in
            let user = Kitchen.own(UUID())
            let names = ["Eggs", "Milk", "Spinach", "Feta", "Butter"]
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<10 { group.addTask { _ = try await store.add(names.map { Self.item($0) }, for: user, capacity: 100) } }
                try await group.waitForAll()
            }
            #expect(try await store.allItems(of: user).map(\.name).sorted() == names.sorted())
        }
    }

    @Test("two replaces of one item at once leave one of the two writes, and the item", arguments: StoreKind.allCases)
    func concurrentReplacesKeepOneWrite(_ kind: StoreKind) async throws {
        try await Self.stores.with(kind) { store async throws in
            let user = Kitchen.own(UUID())
            let item = Self.item("Tomatoes")
            _ = try await store.add([item], for: user, capacity: 10)
            let writes = [1.0, 2.0].map { quantity in
                var write = item
                write.quantity = quantity
                return write
            }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for write in writes { group.addTask { _ = try await store.replace(write, of: user) } }
                try await group.waitForAll()
            }
            let kept = try await store.allItems(of: user)
            #expect(kept.count == 1)
            #expect(writes.contains(try #require(kept.first)))
        }
    }

    @Test("twenty adds at once into a pantry with room for five keep exactly five", arguments: StoreKind.allCases)
    func capacityHoldsUnderConcurrency(_ kind: StoreKind) async throws {
        try await Self.stores.with(kind) { store async throws in
            let user = Kitchen.own(UUID())
            let results = try await withThrowingTaskGroup(of: PantryAdding.self) { group in
                for index in 0..<20 { group.addTask { try await store.add([Self.item("Item \(index)")], for: user, capacity: 5) } }
                return try await group.reduce(into: [PantryAdding]()) { $0.append($1) }
            }
            #expect(results.filter { $0 != .full }.count == 5)
            #expect(try await store.allItems(of: user).count == 5)
        }
    }

    /// A purchase of `quantity` `unit` of `name` on a receipt's line, at `price` euros a unit.
    static func purchase(_ name: String, _ quantity: Double, _ unit: QuantityUnit, scan: UUID, price: Double = 1.19) -> Purchase {
        var item = item(name, quantity: quantity, unit: unit)
        (item.source, item.scanId, item.price) = (.scan, scan, PantryPrice(amount: price, unit: unit, currency: "EUR"))
        return Purchase(lineID: UUID(), item: item)
    }

    @Test(
        "a receipt's purchases add to what the pantry holds, and each line goes in once however often its scan is added",
        arguments: StoreKind.allCases
    )
    func purchasesAccumulateOnce(_ kind: StoreKind) async throws {
        try await Self.stores.with(kind) { store async throws in
            let user = Kitchen.own(UUID())
            _ = try await store.add([Self.item("Milk", quantity: 500, unit: .ml), Self.item("Eggs")], for: user, capacity: 10)
            let scan = UUID()
            let receipt = ReceiptAddition(scanID: scan, fingerprint: "shop|2026-11-27|18:42|EUR|238|2", again: false)
            let purchases = [
                Self.purchase("Milk", 1, .l, scan: scan), Self.purchase("Milk", 1, .l, scan: scan), Self.purchase("Eggs", 10, .piece, scan: scan),
            ]
            guard case .added(let items, let count) = try await store.addPurchases(purchases, from: receipt, for: user, capacity: 10) else {
                Issue.record("the purchases were not added")
                return
            }
            #expect(items.map(\.key) == ["milk", "eggs"] && count == 2)
            #expect(items.map(\.quantity) == [2500, 10] && items.map(\.unit) == [.ml, .piece])
            #expect(
                items.map(\.price) == [
                    PantryPrice(amount: 1.19, unit: .l, currency: "EUR"), PantryPrice(amount: 1.19, unit: .piece, currency: "EUR"),
                ]
            )
            guard case .added(let again, _) = try await store.addPurchases(purchases, from: receipt, for: user, capacity: 10) else {
                Issue.record("adding the scan again was refused")
                return
            }
            #expect(again == items)
            #expect(try await store.allItems(of: user).map(\.quantity).sorted { ($0 ?? 0) < ($1 ?? 0) } == [10, 2500])
        }
    }

    @Test("another scan of the same receipt adds nothing and names the first scan, unless added again on purpose", arguments: StoreKind.allCases)
    func sameReceiptIsNoticed(_ kind: StoreKind) async throws {
        try await Self.stores.with(kind) { store async throws in
            let user = Kitchen.own(UUID())
            let (first, second) = (UUID(), UUID())
            let fingerprint = "shop|2026-11-27|18:42|EUR|199|1"
            _ = try await store.addPurchases(
                [Self.purchase("Milk", 1, .l, scan: first)],
                from: .init(scanID: first, fingerprint: fingerprint, again: false),
                for: user,
                capacity: 10
            )
            let duplicate = [Self.purchase("Milk", 1, .l, scan: second)]
            #expect(
                try await store.addPurchases(duplicate, from: .init(scanID: second, fingerprint: fingerprint, again: false), for: user, capacity: 10)
                    == .sameReceipt(firstScanID: first)
            )
            #expect(try await store.allItems(of: user).map(\.quantity) == [1])
            _ = try await store.addPurchases(duplicate, from: .init(scanID: second, fingerprint: fingerprint, again: true), for: user, capacity: 10)
            #expect(try await store.allItems(of: user).map(\.quantity) == [2])
            #expect(
                try await store.addPurchases(
                    duplicate,
                    from: .init(scanID: UUID(), fingerprint: fingerprint, again: false),
                    for: Kitchen.own(UUID()),
                    capacity: 10
                )
                    != .sameReceipt(firstScanID: first),
                "another kitchen's receipt is no duplicate"
            )
        }
    }

    @Test("purchases that would pass the capacity add nothing, and a cleared pantry takes the receipt again", arguments: StoreKind.allCases)
    func purchasesPastCapacityAndAfterClearing(_ kind: StoreKind) async throws {
        try await Self.stores.with(kind) { store async throws in
            let user = Kitchen.own(UUID())
            let scan = UUID()
            let receipt = ReceiptAddition(scanID: scan, fingerprint: nil, again: false)
            let purchases = [Self.purchase("Milk", 1, .l, scan: scan), Self.purchase("Eggs", 6, .piece, scan: scan)]
            #expect(try await store.addPurchases(purchases, from: receipt, for: user, capacity: 1) == .full)
            #expect(try await store.allItems(of: user).isEmpty)
            _ = try await store.addPurchases(purchases, from: receipt, for: user, capacity: 10)
            try await store.deleteAll(of: user)
            guard case .added(let items, _) = try await store.addPurchases(purchases, from: receipt, for: user, capacity: 10) else {
                Issue.record("the receipt was not added again after clearing")
                return
            }
            #expect(items.map(\.quantity) == [1, 6])
        }
    }

    @Test(
        "a receipt's prices are the kitchen's, the later line's for one food, outlive their items and go when the pantry is cleared",
        arguments: StoreKind.allCases
    )
    func pricesOutliveTheirItems(_ kind: StoreKind) async throws {
        try await Self.stores.with(kind) { store async throws in
            let (user, other) = (Kitchen.own(UUID()), Kitchen.own(UUID()))
            let scan = UUID()
            let later = Self.purchase("Milk", 1, .l, scan: scan, price: 0.99)
            let purchases = [Self.purchase("Milk", 1, .l, scan: scan), later, Self.purchase("Eggs", 6, .piece, scan: scan)]
            _ = try await store.addPurchases(purchases, from: ReceiptAddition(scanID: scan, fingerprint: nil, again: false), for: user, capacity: 10)
            let paid = [
                "milk": PantryPrice(amount: 0.99, unit: .l, currency: "EUR"), "eggs": PantryPrice(amount: 1.19, unit: .piece, currency: "EUR"),
            ]
            #expect(try await store.prices(of: user) == paid)
            for item in try await store.allItems(of: user) { _ = try await store.delete(item.id, of: user) }
            #expect(try await store.prices(of: user) == paid, "a price outlives its item")
            #expect(try await store.prices(of: other).isEmpty)
            try await store.deleteAll(of: user)
            #expect(try await store.prices(of: user).isEmpty)
        }
    }

    @Test("two adds of one receipt at once add each line once", arguments: StoreKind.allCases)
    func concurrentPurchasesAddOnce(_ kind: StoreKind) async throws {
        try await Self.stores.with(kind) { store async throws in
            let user = Kitchen.own(UUID())
            let scan = UUID()
            let receipt = ReceiptAddition(scanID: scan, fingerprint: "shop|2026-11-27||EUR|100|1", again: false)
            let purchases = [Self.purchase("Rice", 1, .kg, scan: scan)]
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<4 { group.addTask { _ = try await store.addPurchases(purchases, from: receipt, for: user, capacity: 10) } }
                try await group.waitForAll()
            }
            #expect(try await store.allItems(of: user).map(\.quantity) == [1])
        }
    }
}
