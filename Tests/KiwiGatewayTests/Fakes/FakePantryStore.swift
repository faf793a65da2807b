import Foundation
import KiwiModels
import Synchronization

@testable import KiwiGateway

/// Pantries in memory, kept, merged and paged the way ``PostgresPantryStore`` keeps, merges and pages them.
final class FakePantryStore: PantryStore {
    private let kept = Mutex<[UUID: [PantryItem]]>([:])

    /// How many items `userID`'s pantry holds.
    func count(of userID: UUID) -> Int {
        kept.withLock { $0[userID, default: []].count }
    }

    func add(_ items: [PantryItem], for userID: UUID, capacity: Int) async throws -> PantryAdding {
        kept.withLock { kept in
            var pantry = kept[userID, default: []]
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
            kept[userID] = pantry
            return .added(added, count: pantry.count)
        }
    }

    func items(of userID: UUID, after cursor: PageCursor?, limit: Int) async throws -> PantryPage {
        let after = try await allItems(of: userID).map { (item: $0, createdAtMicroseconds: PantryPage.sortMicroseconds(of: $0)) }.filter { found in
            cursor.map { PageCursor.precedes(($0.createdAtMicroseconds, $0.id), (found.createdAtMicroseconds, found.item.id)) } ?? true
        }
        let page = PageCursor.page(of: Array(after.prefix(limit + 1)), limit: limit, id: \.id)
        return PantryPage(items: page.items, next: page.next)
    }

    func allItems(of userID: UUID) async throws -> [PantryItem] {
        kept.withLock { $0[userID, default: []] }.sorted {
            PageCursor.precedes((PantryPage.sortMicroseconds(of: $0), $0.id), (PantryPage.sortMicroseconds(of: $1), $1.id))
        }
    }

    func item(_ id: UUID, of userID: UUID) async throws -> PantryItem? {
        kept.withLock { $0[userID, default: []].first { $0.id == id } }
    }

    func replace(_ item: PantryItem, of userID: UUID) async throws -> PantryReplacing {
        kept.withLock { kept in
            guard let index = kept[userID, default: []].firstIndex(where: { $0.id == item.id }) else { return .notFound }
            guard !kept[userID, default: []].contains(where: { $0.key == item.key && $0.id != item.id }) else { return .keyTaken }
            kept[userID]?[index] = item
            return .replaced(item)
        }
    }

    func delete(_ id: UUID, of userID: UUID) async throws -> Bool {
        kept.withLock { kept in
            let before = kept[userID, default: []].count
            kept[userID]?.removeAll { $0.id == id }
            return kept[userID, default: []].count < before
        }
    }

    func deleteAll(of userID: UUID) async throws {
        _ = kept.withLock { $0.removeValue(forKey: userID) }
    }
}
