import Foundation

/// One thing to buy (`/v1/shopping-list`): an ingredient a recipe needs that the pantry lacks, or one the person
/// typed. Items of one normalised name are one item, however many recipes need it.
public struct ShoppingListItem: Codable, Hashable, Sendable, Identifiable {
    public var id: UUID
    public var name: String
    /// The normalised name, as a pantry item's `key`; unique in a list.
    public var key: String
    /// The store section it is listed under, one of the pantry's categories.
    public var section: String
    /// Ticked off in the shop.
    public var checked: Bool
    /// The names of the recipes that need it, each once, in the order they were added.
    public var forRecipes: [String]
    public var addedAt: Date
    /// How much to buy, in ``unit``: what its recipes need, summed, less what the pantry held as each was added;
    /// absent when unknown (typed by hand, or amounts that do not add up).
    public var quantity: Double?
    public var unit: QuantityUnit?

    public init(
        id: UUID,
        name: String,
        key: String,
        section: String,
        checked: Bool,
        forRecipes: [String],
        addedAt: Date,
        quantity: Double? = nil,
        unit: QuantityUnit? = nil
    ) {
        self.id = id
        self.name = name
        self.key = key
        self.section = section
        self.checked = checked
        self.forRecipes = forRecipes
        self.addedAt = addedAt
        self.quantity = quantity
        self.unit = unit
    }
}

/// `GET /v1/shopping-list`: the items grouped by store section, sections in the order a shop is walked.
public struct ShoppingList: Codable, Hashable, Sendable {
    public var sections: [ShoppingListSection]
    /// What the items not yet ticked off cost at the pantry's prices; absent when none of them has a price.
    public var estimatedCost: ShoppingListCost?

    public init(sections: [ShoppingListSection], estimatedCost: ShoppingListCost? = nil) {
        self.sections = sections
        self.estimatedCost = estimatedCost
    }
}

public struct ShoppingListSection: Codable, Hashable, Sendable {
    /// The section's name, one of the pantry's categories.
    public var name: String
    public var items: [ShoppingListItem]

    public init(name: String, items: [ShoppingListItem]) {
        self.name = name
        self.items = items
    }
}

/// What `POST /v1/shopping-list/items` did: the items it added or added a recipe to, and the whole list after it.
public struct ShoppingListAddition: Codable, Hashable, Sendable {
    public var added: [ShoppingListItem]
    public var list: ShoppingList
    /// Where the recipe added breaks the person's profile as it is now; empty for an item added by hand.
    public var conflicts: [RecipeConflict]

    public init(added: [ShoppingListItem], list: ShoppingList, conflicts: [RecipeConflict] = []) {
        self.added = added
        self.list = list
        self.conflicts = conflicts
    }

    private enum CodingKeys: String, CodingKey {
        case added, list, conflicts
    }

    /// Reads `conflicts` as none when it is missing: an answer of the release before it had none.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        added = try container.decode([ShoppingListItem].self, forKey: .added)
        list = try container.decode(ShoppingList.self, forKey: .list)
        conflicts = try container.decodeIfPresent([RecipeConflict].self, forKey: .conflicts) ?? []
    }
}
