import Foundation
import KiwiFood
import KiwiModels

/// What became of adding items to a shopping list.
enum ShoppingListAdding: Sendable, Hashable {
    /// The items as they are now, in the order given; none for an item the pantry covers.
    case added([ShoppingListItem])
    /// The new items would take the list past its capacity: nothing was added.
    case full
}

/// The things users mean to buy (`/v1/shopping-list`). Real: ``PostgresShoppingListStore`` (the
/// `shopping_list_items` table); fake: `FakeShoppingListStore`. Every lookup is by the kitchen too.
protocol ShoppingListStore: Sendable {
    /// Adds `items` in one step. Where the list has an item of the same key, that item becomes
    /// ``ShoppingListItem/adding(_:)`` the new one: so adding one recipe twice changes nothing. `held` is what the
    /// pantry holds of some of the keys, in amounts comparable with the items' quantities: it is taken off an item
    /// new to the list, which is left out when it covers it (an item the list has took it off when it was added). All
    /// or nothing: ``ShoppingListAdding/full`` when the new keys would take the list past `capacity`.
    func add(_ items: [ShoppingListItem], holding held: [String: Quantity], for kitchen: Kitchen, capacity: Int) async throws -> ShoppingListAdding
    /// Every item of the kitchen (a list holds at most its capacity), oldest first, then by id.
    func items(of kitchen: Kitchen) async throws -> [ShoppingListItem]
    /// Ticks the item off or on; nil when the kitchen has no such item.
    func setChecked(_ id: UUID, _ checked: Bool, of kitchen: Kitchen) async throws -> ShoppingListItem?
    /// Removes those of `ids` the kitchen has; how many that was.
    func delete(_ ids: [UUID], of kitchen: Kitchen) async throws -> Int
    /// Empties the kitchen's list: by hand, and when its owner's account goes.
    func deleteAll(of kitchen: Kitchen) async throws
}

extension ShoppingListStore {
    /// Adds `items`, none of whose keys the pantry holds an amount of.
    func add(_ items: [ShoppingListItem], for kitchen: Kitchen, capacity: Int) async throws -> ShoppingListAdding {
        try await add(items, holding: [:], for: kitchen, capacity: capacity)
    }

    /// `items` added one after another to `found`, the list's items of their keys: one item per key, as the list will
    /// hold it (``ShoppingListItem/adding(_:)``), less what `held` says the pantry holds of a key new to the list, and
    /// none for a key the pantry covers. Both stores merge by it.
    static func merged(_ items: [ShoppingListItem], into found: [ShoppingListItem], holding held: [String: Quantity]) -> [ShoppingListItem] {
        var merged = found
        var index = Dictionary(uniqueKeysWithValues: found.enumerated().map { ($1.key, $0) })
        var covered: Set<String> = []
        for item in items where !covered.contains(item.key) {
            if let at = index[item.key] {
                merged[at] = merged[at].adding(item)
                continue
            }
            var first = item
            first.forRecipes = []
            first = first.adding(item)
            if let have = held[item.key] {
                guard let need = first.measure, let rest = ShoppingQuantity.remaining(need, after: have, key: item.key) else {
                    covered.insert(item.key)
                    continue
                }
                (first.quantity, first.unit) = (rest.amount, rest.unit)
            }
            index[item.key] = merged.count
            merged.append(first)
        }
        return merged
    }
}

extension ShoppingListItem {
    /// The item once `other`, of its key, is added to it: it gains the recipes of `other` it does not list, each once,
    /// in order, and their quantity (``ShoppingQuantity/sum(_:key:)``, rounded), which is unknown once either's is; an
    /// item typed by hand, for no recipe, takes the recipe's. A recipe it lists already adds nothing. Its name, section
    /// and tick stay.
    func adding(_ other: ShoppingListItem) -> ShoppingListItem {
        let new = other.forRecipes.reduce(into: [String]()) { names, name in
            if !forRecipes.contains(name), !names.contains(name) { names.append(name) }
        }
        guard !new.isEmpty else { return self }
        var added = self
        added.forRecipes += new
        let quantities = (forRecipes.isEmpty ? [other] : [self, other]).map(\.measure)
        let sum = quantities.contains(nil) ? nil : ShoppingQuantity.sum(quantities.compactMap { $0 }, key: key).map(RecipeScaler.rounded)
        (added.quantity, added.unit) = (sum?.amount, sum?.unit)
        return added
    }

    /// The item once `other`, of its key in a kitchen joining a household, is merged into it, as the stores' merge
    /// statements do it in SQL: it gains the recipes of `other` it does not list, and their quantity when both are in
    /// one unit; the quantity is unknown when they are not (a merge converts no units). An item typed by hand takes
    /// `other`'s.
    func mergingKitchens(_ other: ShoppingListItem) -> ShoppingListItem {
        var merged = self
        merged.forRecipes += other.forRecipes.filter { !forRecipes.contains($0) }
        guard !Set(other.forRecipes).isSubset(of: forRecipes) else { return merged }
        if forRecipes.isEmpty {
            (merged.quantity, merged.unit) = (other.quantity, other.unit)
        } else if let unit, unit == other.unit, let quantity, let more = other.quantity {
            merged.quantity = quantity + more
        } else {
            (merged.quantity, merged.unit) = (nil, nil)
        }
        return merged
    }

    /// Its quantity, when it has one.
    var measure: Quantity? {
        guard let quantity, let unit else { return nil }
        return Quantity(quantity, unit)
    }
}
