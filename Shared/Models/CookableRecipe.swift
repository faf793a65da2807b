import Foundation

/// A saved recipe as `GET /v1/recipes?cookable=true` answers it: every member of ``SavedRecipe`` at the top level,
/// under the same names, plus `cookable`. So a client that reads the list as ``SavedRecipeList`` still reads it (the
/// iOS contract grows by additions only).
public struct CookableRecipe: Codable, Hashable, Sendable {
    public var saved: SavedRecipe
    /// How much of it the pantry covers.
    public var cookable: RecipeCoverage

    public init(saved: SavedRecipe, cookable: RecipeCoverage) {
        self.saved = saved
        self.cookable = cookable
    }

    private enum CodingKeys: String, CodingKey {
        case cookable
    }

    public init(from decoder: any Decoder) throws {
        saved = try SavedRecipe(from: decoder)
        cookable = try decoder.container(keyedBy: CodingKeys.self).decode(RecipeCoverage.self, forKey: .cookable)
    }

    /// The saved recipe's members, then `cookable`, in one object.
    public func encode(to encoder: any Encoder) throws {
        try saved.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(cookable, forKey: .cookable)
    }
}

/// How much of a recipe the pantry covers (docs/architecture.md, "The pantry and the shopping list").
public struct RecipeCoverage: Codable, Hashable, Sendable {
    /// The share of the recipe's ingredients, staples not counted, that the pantry has: 0 to 1; 1 when only staples
    /// are left.
    public var coverage: Double
    /// The counted ingredients the pantry lacks, in the recipe's order.
    public var missing: [MissingIngredient]
    /// The names of the pantry's use-soon items (use soon by today + 3 days) that the recipe uses, soonest first.
    public var usesSoon: [String]

    public init(coverage: Double, missing: [MissingIngredient], usesSoon: [String]) {
        self.coverage = coverage
        self.missing = missing
        self.usesSoon = usesSoon
    }
}

/// An ingredient of a recipe that the pantry lacks, with what the recipe says to use instead.
public struct MissingIngredient: Codable, Hashable, Sendable {
    /// The name as the recipe gives it.
    public var name: String
    /// The recipe's own substitution; `null` on the wire when it offers none.
    public var substitution: String?

    public init(name: String, substitution: String?) {
        self.name = name
        self.substitution = substitution
    }

    /// Writes `substitution` as an explicit `null` rather than leaving it out: the contract lists every field.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(substitution, forKey: .substitution)
    }
}

/// A page of `GET /v1/recipes?cookable=true`: the recipes the pantry covers most first.
public struct CookableRecipeList: Codable, Hashable, Sendable {
    public var recipes: [CookableRecipe]
    /// Pass it as `cursor` for the next page; absent on the last page.
    public var nextCursor: String?

    public init(recipes: [CookableRecipe], nextCursor: String?) {
        self.recipes = recipes
        self.nextCursor = nextCursor
    }
}
