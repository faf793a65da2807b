import Foundation
import KiwiModels
import Synchronization

@testable import KiwiGateway

/// Shopping lists in memory, kept and merged the way ``PostgresShoppingListStore`` keeps and merges them.
final class FakeShoppingListStore: ShoppingListStore {
    private let kept = Mutex<[(userID: UUID, item: ShoppingListItem)]>([])

    func add(_ items: [ShoppingListItem], for userID: UUID, capacity: Int) async throws -> ShoppingListAdding {
        let merged = PostgresShoppingListStore.mergedByKey(items)
        return kept.withLock { kept in
            let own = Set(kept.filter { $0.userID == userID }.map(\.item.key))
            guard own.count + merged.filter({ !own.contains($0.key) }).count <= capacity else { return .full }
            for item in merged {
                if let index = kept.firstIndex(where: { $0.userID == userID && $0.item.key == item.key }) {
                    kept[index].item.forRecipes += item.forRecipes.filter { !kept[index].item.forRecipes.contains($0) }
                } else {
                    kept.append((userID, item))
                }
            }
            return .added(items.compactMap { item in kept.first { $0.userID == userID && $0.item.key == item.key }?.item })
        }
    }

    func items(of userID: UUID) async throws -> [ShoppingListItem] {
        kept.withLock { kept in
            kept.filter { $0.userID == userID }.map(\.item).sorted { ($0.addedAt, $0.id.uuidString) < ($1.addedAt, $1.id.uuidString) }
        }
    }

    func setChecked(_ id: UUID, _ checked: Bool, of userID: UUID) async throws -> ShoppingListItem? {
        kept.withLock { kept in
            guard let index = kept.firstIndex(where: { $0.userID == userID && $0.item.id == id }) else { return nil }
            kept[index].item.checked = checked
            return kept[index].item
        }
    }

    func delete(_ ids: [UUID], of userID: UUID) async throws -> Int {
        kept.withLock { kept in
            let before = kept.count
            kept.removeAll { $0.userID == userID && ids.contains($0.item.id) }
            return before - kept.count
        }
    }

    func deleteAll(of userID: UUID) async throws {
        kept.withLock { $0.removeAll { $0.userID == userID } }
    }
}
