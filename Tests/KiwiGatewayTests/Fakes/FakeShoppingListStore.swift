import Foundation
import KiwiFood
import KiwiModels
import Synchronization

@testable import KiwiGateway

/// Shopping lists in memory, kept and merged the way ``PostgresShoppingListStore`` keeps and merges them.
final class FakeShoppingListStore: ShoppingListStore {
    private let kept = Mutex<[(kitchenID: UUID, item: ShoppingListItem)]>([])

    func add(_ items: [ShoppingListItem], holding held: [String: Quantity], for kitchen: Kitchen, capacity: Int) async throws -> ShoppingListAdding {
        kept.withLock { kept in
            let own = kept.filter { $0.kitchenID == kitchen.id }.map(\.item)
            let keys = Set(items.map(\.key))
            let merged = PostgresShoppingListStore.merged(items, into: own.filter { keys.contains($0.key) }, holding: held)
            guard Set(own.map(\.key)).union(merged.map(\.key)).count <= capacity else { return .full }
            for item in merged {
                if let index = kept.firstIndex(where: { $0.kitchenID == kitchen.id && $0.item.key == item.key }) {
                    kept[index].item = item
                } else {
                    kept.append((kitchen.id, item))
                }
            }
            return .added(items.compactMap { item in kept.first { $0.kitchenID == kitchen.id && $0.item.key == item.key }?.item })
        }
    }

    func items(of kitchen: Kitchen) async throws -> [ShoppingListItem] {
        kept.withLock { kept in
            kept.filter { $0.kitchenID == kitchen.id }.map(\.item).sorted { ($0.addedAt, $0.id.uuidString) < ($1.addedAt, $1.id.uuidString) }
        }
    }

    func setChecked(_ id: UUID, _ checked: Bool, of kitchen: Kitchen) async throws -> ShoppingListItem? {
        kept.withLock { kept in
            guard let index = kept.firstIndex(where: { $0.kitchenID == kitchen.id && $0.item.id == id }) else { return nil }
            kept[index].item.checked = checked
            return kept[index].item
        }
    }

    func delete(_ ids: [UUID], of kitchen: Kitchen) async throws -> Int {
        kept.withLock { kept in
            let before = kept.count
            kept.removeAll { $0.kitchenID == kitchen.id && ids.contains($0.item.id) }
            return before - kept.count
        }
    }

    func deleteAll(of kitchen: Kitchen) async throws {
        kept.withLock { $0.removeAll { $0.kitchenID == kitchen.id } }
    }
}

extension FakeShoppingListStore: FakeKitchenPart {
    func counts(of target: UUID, and source: UUID) -> (target: Int, source: Int, merged: Int) {
        kept.withLock { kept in
            let kept = kept
            let keys = { (kitchen: UUID) in Set(kept.filter { $0.kitchenID == kitchen }.map(\.item.key)) }
            return (keys(target).count, keys(source).count, keys(target).union(keys(source)).count)
        }
    }

    func merge(_ source: UUID, into target: UUID) {
        kept.withLock { kept in
            for entry in kept where entry.kitchenID == source {
                if let index = kept.firstIndex(where: { $0.kitchenID == target && $0.item.key == entry.item.key }) {
                    kept[index].item = kept[index].item.mergingKitchens(entry.item)
                } else {
                    kept.append((target, entry.item))
                }
            }
            kept.removeAll { $0.kitchenID == source }
        }
    }

    func empty(_ kitchenID: UUID) {
        kept.withLock { $0.removeAll { $0.kitchenID == kitchenID } }
    }
}
