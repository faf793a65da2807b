import Foundation
import KiwiModels

/// What became of adding items to a pantry.
enum PantryAdding: Sendable, Hashable {
    /// The items as they are now, in the order given, and how many the pantry holds after it.
    case added([PantryItem], count: Int)
    /// The new items would take the pantry past its capacity: nothing was added.
    case full
}

/// What became of replacing a pantry item.
enum PantryReplacing: Sendable, Hashable {
    case replaced(PantryItem)
    /// The kitchen has no item of that id.
    case notFound
    /// Another of the kitchen's items has the new key.
    case keyTaken
}

/// One page of a kitchen's pantry: soonest `useSoonBy` first, food that keeps last, then by id.
struct PantryPage: Sendable {
    var items: [PantryItem]
    /// Where the next page starts; nil on the last page. Its `createdAtMicroseconds` is the item's
    /// ``PantryPage/sortMicroseconds(of:)``.
    var next: PageCursor?

    /// What the pantry's pages sort by, in the cursor's microseconds: midnight UTC of `useSoonBy`, or
    /// ``keepsMicroseconds`` for food without one.
    static func sortMicroseconds(of item: PantryItem) -> Int64 {
        item.useSoonBy.map { Int64($0.daysSince1970) * 86_400_000_000 } ?? keepsMicroseconds
    }

    /// Later than any day's midnight, and within the 18 digits a cursor allows.
    static let keepsMicroseconds: Int64 = 999_999_999_999_999_999
}

/// The things users have at home (`/v1/pantry`). Real: ``PostgresPantryStore`` (the `pantry_items` table); fake:
/// `FakePantryStore`. Every lookup is by the kitchen too: another kitchen's item is one that does not exist.
protocol PantryStore: Sendable {
    /// Adds `items` (of distinct keys) to the kitchen's pantry in one step. Where the pantry has an item of the same key,
    /// that item is found again instead: its `lastSeenAt` becomes the new item's, and the new quantity (with its unit)
    /// and best-before (with its use-soon date) replace the old where the new item has them; its id, name, category,
    /// source and `addedAt` stay. All or nothing: ``PantryAdding/full`` when the new keys would take the pantry past
    /// `capacity`. Two adds at once never double an item nor pass the capacity.
    func add(_ items: [PantryItem], for kitchen: Kitchen, capacity: Int) async throws -> PantryAdding
    /// Adds a receipt's `purchases` to the kitchen's pantry in one step (docs/architecture.md, "Receipts in the
    /// pantry"): unless `receipt.again`, nothing when another scan of the same receipt went into it
    /// (``PurchaseAdding/sameReceipt(firstScanID:)``); each line once, whatever the number of adds; the rest added to
    /// what the pantry holds (``PantryPurchases/items(adding:to:)``), then written as ``add(_:for:capacity:)`` writes,
    /// all or nothing at `capacity`. The price of each food bought becomes the kitchen's price of it (``prices(of:)``).
    func addPurchases(_ purchases: [Purchase], from receipt: ReceiptAddition, for kitchen: Kitchen, capacity: Int) async throws -> PurchaseAdding
    /// A page of the kitchen's items, after `cursor`.
    func items(of kitchen: Kitchen, after cursor: PageCursor?, limit: Int) async throws -> PantryPage
    /// Every item of the kitchen (a pantry holds at most its capacity), for matching recipes against.
    func allItems(of kitchen: Kitchen) async throws -> [PantryItem]
    /// The last price paid for each food the kitchen bought on a receipt added to its pantry, by key, kept after the
    /// item is gone: what a recipe's or a shopping list's cost is counted from (``RecipeCosting``).
    func prices(of kitchen: Kitchen) async throws -> [String: PantryPrice]
    func item(_ id: UUID, of kitchen: Kitchen) async throws -> PantryItem?
    /// Writes `item` over the kitchen's item of its id, whatever that was: the last write wins.
    func replace(_ item: PantryItem, of kitchen: Kitchen) async throws -> PantryReplacing
    /// False when the kitchen had no such item.
    func delete(_ id: UUID, of kitchen: Kitchen) async throws -> Bool
    /// Empties the kitchen's pantry, and forgets which receipts went into it and what their food cost: by hand, and when
    /// its owner's account goes.
    func deleteAll(of kitchen: Kitchen) async throws
}
