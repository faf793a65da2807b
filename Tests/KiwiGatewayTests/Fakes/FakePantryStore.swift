import Foundation
import KiwiModels
import Synchronization

@testable import KiwiGateway

/// Pantries in memory, kept, merged and paged the way ``PostgresPantryStore`` keeps, merges and pages them.
final class FakePantryStore: PantryStore {
    private let kept = Mutex<[UUID: [PantryItem]]>([:])
    /// The receipt lines each kitchen's pantry was filled from, in the order added.
    private let receiptLines = Mutex<[UUID: [(addition: ReceiptAddition, lineID: UUID)]]>([:])
    /// Each kitchen's last price of each food it bought, by key, with when it was paid.
    private let paid = Mutex<[UUID: [String: (price: PantryPrice, at: Date)]]>([:])

    /// How many items the pantry of kitchen `kitchenID` holds.
    func count(of kitchenID: UUID) -> Int {
        kept.withLock { $0[kitchenID, default: []].count }
    }

    func add(_ items: [PantryItem], for kitchen: Kitchen, capacity: Int) async throws -> PantryAdding {
        kept.withLock { kept in Self.write(items, to: &kept[kitchen.id, default: []], capacity: capacity) }
    }

    func addPurchases(_ purchases: [Purchase], from receipt: ReceiptAddition, for kitchen: Kitchen, capacity: Int) async throws -> PurchaseAdding {
        receiptLines.withLock { receiptLines in
            kept.withLock { kept in
                let lines = receiptLines[kitchen.id, default: []]
                if let fingerprint = receipt.fingerprint, !receipt.again,
                    let earlier = lines.first(where: { $0.addition.fingerprint == fingerprint && $0.addition.scanID != receipt.scanID })
                {
                    return .sameReceipt(firstScanID: earlier.addition.scanID)
                }
                let added = Set(lines.filter { $0.addition.scanID == receipt.scanID }.map(\.lineID))
                let new = purchases.filter { !added.contains($0.lineID) }
                let existing = Dictionary(kept[kitchen.id, default: []].map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
                guard
                    case .added(_, let count) = Self.write(
                        PantryPurchases.items(adding: new, to: existing),
                        to: &kept[kitchen.id, default: []],
                        capacity: capacity
                    )
                else { return .full }
                receiptLines[kitchen.id, default: []] += new.map { (receipt, $0.lineID) }
                paid.withLock { paid in
                    for (key, price) in PantryPurchases.prices(of: new) { paid[kitchen.id, default: [:]][key] = (price, Date()) }
                }
                let byKey = Dictionary(kept[kitchen.id, default: []].map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
                return .added(PantryPurchases.firstKeys(of: purchases).compactMap { byKey[$0] }, count: count)
            }
        }
    }

    func prices(of kitchen: Kitchen) async throws -> [String: PantryPrice] {
        paid.withLock { $0[kitchen.id, default: [:]].mapValues(\.price) }
    }

    /// Writes `items` into `pantry` as ``PostgresPantryStore`` writes them.
    private static func write(_ items: [PantryItem], to pantry: inout [PantryItem], capacity: Int) -> PantryAdding {
        let newKeys = Set(items.map(\.key)).subtracting(pantry.map(\.key))
        guard pantry.count + newKeys.count <= capacity else { return .full }
        let added = items.map { item in
            guard let index = pantry.firstIndex(where: { $0.key == item.key }) else {
                pantry.append(item)
                return item
            }
            Self.find(&pantry[index], again: item)
            return pantry[index]
        }
        return .added(added, count: pantry.count)
    }

    /// `found` seen again as `item`, as the upsert of ``PostgresPantryStore`` and the merge of kitchens take it: the new
    /// sighting, and the new amount, price and best-before where `item` has them.
    private static func find(_ found: inout PantryItem, again item: PantryItem) {
        found.lastSeenAt = item.lastSeenAt
        if item.quantity != nil { (found.quantity, found.unit) = (item.quantity, item.unit) }
        if item.price != nil { found.price = item.price }
        if item.bestBefore != nil {
            (found.bestBefore, found.useSoonBy, found.useSoonEstimated) = (item.bestBefore, item.useSoonBy, item.useSoonEstimated)
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
        empty(kitchen.id)
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
                Self.find(&pantry[index], again: item)
            }
            kept[target] = pantry
        }
        receiptLines.withLock { lines in
            let known = Set(lines[target, default: []].map { "\($0.addition.scanID) \($0.lineID)" })
            lines[target, default: []] += (lines.removeValue(forKey: source) ?? []).filter { !known.contains("\($0.addition.scanID) \($0.lineID)") }
        }
        paid.withLock { paid in
            paid[target, default: [:]].merge(paid.removeValue(forKey: source) ?? [:]) { kept, moved in moved.at > kept.at ? moved : kept }
        }
    }

    func empty(_ kitchenID: UUID) {
        _ = kept.withLock { $0.removeValue(forKey: kitchenID) }
        _ = receiptLines.withLock { $0.removeValue(forKey: kitchenID) }
        _ = paid.withLock { $0.removeValue(forKey: kitchenID) }
    }
}
