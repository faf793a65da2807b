import Foundation

/// A recipe the user kept out of one of their scans (`/v1/recipes`): kept until they delete it, long after the scan
/// itself has expired.
public struct SavedRecipe: Codable, Hashable, Sendable {
    public var id: UUID
    /// The scan it was saved from; that scan may be gone by now.
    public var scanId: UUID
    public var savedAt: Date
    /// The recipe exactly as the scan answered it.
    public var recipe: Recipe
    /// The scan's detected ingredients that the recipe uses.
    public var detectedIngredients: [Ingredient]
    /// The user's own note; `null` on the wire when there is none.
    public var note: String?
    /// The user's rating, 1 to 5; `null` on the wire when unrated.
    public var rating: Int?
    /// Where the recipe breaks the user's profile as it is when the recipe is shown; empty when it fits. Worked out on
    /// every read, never stored: the profile may have changed since the recipe was saved.
    public var conflicts: [RecipeConflict]

    public init(
        id: UUID,
        scanId: UUID,
        savedAt: Date,
        recipe: Recipe,
        detectedIngredients: [Ingredient],
        note: String?,
        rating: Int?,
        conflicts: [RecipeConflict] = []
    ) {
        self.id = id
        self.scanId = scanId
        self.savedAt = savedAt
        self.recipe = recipe
        self.detectedIngredients = detectedIngredients
        self.note = note
        self.rating = rating
        self.conflicts = conflicts
    }

    private enum CodingKeys: String, CodingKey {
        case id, scanId, savedAt, recipe, detectedIngredients, note, rating, conflicts
    }

    /// Reads `conflicts` as none when it is missing: an answer of the release before it had none.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(UUID.self, forKey: .id)
        scanId = try container.decode(UUID.self, forKey: .scanId)
        savedAt = try container.decode(Date.self, forKey: .savedAt)
        recipe = try container.decode(Recipe.self, forKey: .recipe)
        detectedIngredients = try container.decode([Ingredient].self, forKey: .detectedIngredients)
        note = try container.decodeIfPresent(String.self, forKey: .note)
        rating = try container.decodeIfPresent(Int.self, forKey: .rating)
        conflicts = try container.decodeIfPresent([RecipeConflict].self, forKey: .conflicts) ?? []
    }

    /// Writes `note` and `rating` as explicit `null`s rather than leaving them out: the contract lists every field.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(scanId, forKey: .scanId)
        try container.encode(savedAt, forKey: .savedAt)
        try container.encode(recipe, forKey: .recipe)
        try container.encode(detectedIngredients, forKey: .detectedIngredients)
        try container.encode(note, forKey: .note)
        try container.encode(rating, forKey: .rating)
        try container.encode(conflicts, forKey: .conflicts)
    }
}

/// One page of `GET /v1/recipes`, newest first.
public struct SavedRecipeList: Codable, Hashable, Sendable {
    public var recipes: [SavedRecipe]
    /// Pass it as `cursor` for the next page; absent on the last page.
    public var nextCursor: String?

    public init(recipes: [SavedRecipe], nextCursor: String?) {
        self.recipes = recipes
        self.nextCursor = nextCursor
    }
}

/// The body of `POST /v1/recipes`: which recipe of which scan to keep.
public struct SaveRecipeRequest: Codable, Hashable, Sendable {
    public var scanId: UUID
    public var recipeId: UUID

    public init(scanId: UUID, recipeId: UUID) {
        self.scanId = scanId
        self.recipeId = recipeId
    }
}

/// A saved recipe's public page, as `POST /v1/recipes/{id}/share` answers it.
public struct RecipeShareLink: Codable, Hashable, Sendable {
    /// The page anyone with the link can open: `PUBLIC_BASE_URL` + `/r/{token}`.
    public var url: URL
    public var sharedAt: Date

    public init(url: URL, sharedAt: Date) {
        self.url = url
        self.sharedAt = sharedAt
    }
}
