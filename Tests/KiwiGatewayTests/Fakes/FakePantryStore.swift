import Foundation
import KiwiModels
import Synchronization

@testable import KiwiGateway

/// Pantries in memory, kept, merged and paged the way ``PostgresPantryStore`` keeps, merges and pages them.
final class FakePantryStore: PantryStore {
    private let kept = Mutex<[UUID: [PantryItem]]>([:])

    /// How many items the pantry of kitchen `kitchenID` holds.
    func count(of kitchenID: UUID) -> Int {
        kept.withLock { $0[kitchenID, default: []].count }
    }

    func add(_ items: [PantryItem], for kitchen: Kitchen, capacity: Int) async throws -> PantryAdding {
        kept.withLock { kept in
            var pantry = kept[kitchen.id, default: []]
            let newKeys = Set(items.map(\.key)).subtracting(pantry.map(\.key))
            guard pantry.count + newKeys.count <= capacity else { return .full }
            let added = items.map { item in
                guard let index = pantry.firstIndex(where: { $0.key == item.key }) else {
                    pantry.append(item)
                    return item
                }
                pantry[index].lastSeenAt = item.lastSeenAt
                if item.quantity != nil { (pantry[index].quantity, pantry[index].unit) = (item.quantity, item.unit) }
                if item.bestBefore != nil {
                    (pantry[index].bestBefore, pantry[index].useSoonBy, pantry[index].useSoonEstimated) =
                        (item.bestBefore, item.useSoonBy, item.useSoonEstimated)
                }
                return pantry[index]
            }
            kept[kitchen.id] = pantry
            return .added(added, count: pantry.count)
        }
    }

    func items(of kitchen: Kitchen, after cursor: PageCursor?, limit: Int) async throws -> PantryPage {
        let after = try await allItems(of: kitchen).map { (item: $0, createdAtMicroseconds: PantryPage.sortMicroseconds(of: $0)) }.filter { found in
            cursor.map { PageCursor.precedes(($0.createdAtMicroseconds, $0.id), (found.createdAtMicroseconds, found.item.id)) } ?? true
        }
        let page = PageCursor.page(of: Array(after.prefix(limit + 1)), limit: limit, id: \.id)
        return PantryPage(items: page.items, next: page.next)
    }

    func allItems(of kitchen: Kitchen) async throws -> [PantryItem] {
        kept.withLock { $0[kitchen.id, default: []] }.sorted {
            PageCursor.precedes((PantryPage.sortMicroseconds(of: $0), $0.id), (PantryPage.sortMicroseconds(of: $1), $1.id))
        }
    }

    func item(_ id: UUID, of kitchen: Kitchen) async throws -> PantryItem? {
        kept.withLock { $0[kitchen.id, default: []].first { $0.id == id } }
    }

    func replace(_ item: PantryItem, of kitchen: Kitchen) async throws -> PantryReplacing {
        kept.withLock { kept in
            guard let index = kept[kitchen.id, default: []].firstIndex(where: { $0.id == item.id }) else { return .notFound }
            guard !kept[kitchen.id, default: []].contains(where: { $0.key == item.key && $0.id != item.id }) else { return .keyTaken }
            kept[kitchen.id]?[index] = item
            return .replaced(item)
        }
    }

    func delete(_ id: UUID, of kitchen: Kitchen) async throws -> Bool {
        kept.withLock { kept in
            let before = kept[kitchen.id, default: []].count
            kept[kitchen.id]?.removeAll { $0.id == id }
            return kept[kitchen.id, default: []].count < before
        }
    }

    func deleteAll(of kitchen: Kitchen) async throws {
        _ = kept.withLock { $0.removeValue(forKey: kitchen.id) }
    }
}

extension FakePantryStore: FakeKitchenPart {
    func counts(of target: UUID, and source: UUID) -> (target: Int, source: Int, merged: Int) {
        kept.withLock { kept in
            let kept = kept
            let keys = { (kitchen: UUID) in Set(kept[kitchen, default: []].map(\.key)) }
            return (keys(target).count, keys(source).count, keys(target).union(keys(source)).count)
        }
    }

    func merge(_ source: UUID, into target: UUID) {
        kept.withLock { kept in
            var pantry = kept[target, default: []]
            for item in kept.removeValue(forKey: source) ?? [] {
                guard let index = pantry.firstIndex(where: { $0.key == item.key }) else {
                    pantry.append(item)
                    continue
                }
                guard item.lastSeenAt > pantry[index].lastSeenAt else { continue }
                pantry[index].lastSeenAt = item.lastSeenAt
                if item.quantity != nil { (pantry[index].quantity, pantry[index].unit) = (item.quantity, item.unit) }
                if item.bestBefore != nil {
                    (pantry[index].bestBefore, pantry[index].useSoonBy, pantry[index].useSoonEstimated) =
                        (item.bestBefore, item.useSoonBy, item.useSoonEstimated)
                }
            }
            kept[target] = pantry
        }
    }

    func empty(_ kitchenID: UUID) {
        _ = kept.withLock { $0.removeValue(forKey: kitchenID) }
    }
}
