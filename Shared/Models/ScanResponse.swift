import Foundation

/// What a scan returns to the client: the ingredients seen in the photo and quick recipes that use them.
public struct ScanResponse: Codable, Hashable, Sendable {
    public var ingredients: [Ingredient]
    public var recipes: [Recipe]

    public init(ingredients: [Ingredient], recipes: [Recipe]) {
        self.ingredients = ingredients
        self.recipes = recipes
    }
}

/// A food item detected in the photo.
public struct Ingredient: Codable, Hashable, Sendable, Identifiable {
    public var id: UUID
    public var name: String
    /// One of the categories the model is asked for (Dairy, Protein, …); kept as text so new ones never break clients.
    public var category: String
    /// How sure the model is, from 0 to 1.
    public var confidence: Double

    public init(id: UUID, name: String, category: String, confidence: Double) {
        self.id = id
        self.name = name
        self.category = category
        self.confidence = confidence
    }
}

/// How much effort a recipe takes.
public enum Difficulty: String, Codable, Hashable, Sendable, CaseIterable {
    case easy
    case medium
}

/// A quick recipe built mostly from the detected ingredients.
public struct Recipe: Codable, Hashable, Sendable, Identifiable {
    public var id: UUID
    public var name: String
    public var summary: String
    public var cookTimeMinutes: Int
    public var difficulty: Difficulty
    public var ingredients: [RecipeIngredient]
    public var steps: [String]
    /// A way to save time; `null` on the wire when the model has none.
    public var makeItFasterTip: String?

    public init(
        id: UUID,
        name: String,
        summary: String,
        cookTimeMinutes: Int,
        difficulty: Difficulty,
        ingredients: [RecipeIngredient],
        steps: [String],
        makeItFasterTip: String?
    ) {
        self.id = id
        self.name = name
        self.summary = summary
        self.cookTimeMinutes = cookTimeMinutes
        self.difficulty = difficulty
        self.ingredients = ingredients
        self.steps = steps
        self.makeItFasterTip = makeItFasterTip
    }

    /// Writes `makeItFasterTip` as an explicit `null` rather than leaving it out: the contract lists every field.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(summary, forKey: .summary)
        try container.encode(cookTimeMinutes, forKey: .cookTimeMinutes)
        try container.encode(difficulty, forKey: .difficulty)
        try container.encode(ingredients, forKey: .ingredients)
        try container.encode(steps, forKey: .steps)
        try container.encode(makeItFasterTip, forKey: .makeItFasterTip)
    }
}

/// An ingredient a recipe needs, whether it was seen in the photo, and what to use instead if it was not.
public struct RecipeIngredient: Codable, Hashable, Sendable, Identifiable {
    public var id: UUID
    public var name: String
    public var isDetected: Bool
    /// A replacement for a missing ingredient; `null` on the wire when there is none.
    public var substitution: String?

    public init(id: UUID, name: String, isDetected: Bool, substitution: String?) {
        self.id = id
        self.name = name
        self.isDetected = isDetected
        self.substitution = substitution
    }

    /// Writes `substitution` as an explicit `null` rather than leaving it out: the contract lists every field.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(isDetected, forKey: .isDetected)
        try container.encode(substitution, forKey: .substitution)
    }
}
