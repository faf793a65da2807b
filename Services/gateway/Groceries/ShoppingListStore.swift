import Foundation
import KiwiModels

/// What became of adding items to a shopping list.
enum ShoppingListAdding: Sendable, Hashable {
    /// The items as they are now, in the order given.
    case added([ShoppingListItem])
    /// The new items would take the list past its capacity: nothing was added.
    case full
}

/// The things users mean to buy (`/v1/shopping-list`). Real: ``PostgresShoppingListStore`` (the
/// `shopping_list_items` table); fake: `FakeShoppingListStore`. Every lookup is by the kitchen too.
protocol ShoppingListStore: Sendable {
    /// Adds `items` (of distinct keys) in one step. Where the list has an item of the same key, that item gains the new
    /// item's recipes (each name once, in order) and keeps everything else, its tick too: so adding one recipe twice
    /// changes nothing. All or nothing: ``ShoppingListAdding/full`` when the new keys would take the list past
    /// `capacity`.
    func add(_ items: [ShoppingListItem], for kitchen: Kitchen, capacity: Int) async throws -> ShoppingListAdding
    /// Every item of the kitchen (a list holds at most its capacity), oldest first, then by id.
    func items(of kitchen: Kitchen) async throws -> [ShoppingListItem]
    /// Ticks the item off or on; nil when the kitchen has no such item.
    func setChecked(_ id: UUID, _ checked: Bool, of kitchen: Kitchen) async throws -> ShoppingListItem?
    /// Removes those of `ids` the kitchen has; how many that was.
    func delete(_ ids: [UUID], of kitchen: Kitchen) async throws -> Int
    /// Empties the kitchen's list: by hand, and when its owner's account goes.
    func deleteAll(of kitchen: Kitchen) async throws
}
