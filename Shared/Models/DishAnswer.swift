import Foundation

/// What a dish scan (`mode=dish`) found: the cooked dish in the photo and one detailed recipe to cook it at home.
public struct DishAnswer: Codable, Hashable, Sendable, Identifiable {
    /// Assigned by the server, never by the model.
    public var id: UUID
    /// What the dish is called ("Shakshuka").
    public var name: String
    /// Where it comes from ("Middle Eastern").
    public var cuisine: String
    /// How sure the model is that it named the dish right, from 0 to 1.
    public var confidence: Double
    /// The recipe; absent when it broke the user's allergies or diets and was withheld (`withheldRecipes` says why).
    public var recipe: DishRecipe?

    public init(id: UUID, name: String, cuisine: String, confidence: Double, recipe: DishRecipe?) {
        self.id = id
        self.name = name
        self.cuisine = cuisine
        self.confidence = confidence
        self.recipe = recipe
    }
}

/// How much effort a dish's recipe takes: a cooked dish may be harder than a quick fridge recipe.
public enum DishDifficulty: String, Codable, Hashable, Sendable, CaseIterable {
    case easy
    case medium
    case hard
}

/// A detailed recipe for a dish: ingredients with quantities and 5 to 20 steps.
public struct DishRecipe: Codable, Hashable, Sendable, Identifiable {
    public var id: UUID
    public var name: String
    public var summary: String
    public var cookTimeMinutes: Int
    public var difficulty: DishDifficulty
    public var servings: Int
    public var ingredients: [QuantifiedIngredient]
    public var steps: [String]
    /// A way to save time; `null` on the wire when the model has none.
    public var makeItFasterTip: String?
    /// The allergen groups it contains, as for a fridge recipe (``Recipe/allergens``).
    public var allergens: [KitchenProfile.Allergen]?
    /// One per step, in order, as for a fridge recipe (``Recipe/stepDetails``).
    public var stepDetails: [StepDetail]?
    /// Per serving, as for a fridge recipe (``Recipe/nutrition``).
    public var nutrition: RecipeNutrition?
    /// At the reader's kitchen's prices, as for a fridge recipe (``Recipe/cost``).
    public var cost: RecipeCost?
    /// The language its text is written in, as for a fridge recipe (``Recipe/language``).
    public var language: AnswerLanguage?

    public init(
        id: UUID,
        name: String,
        summary: String,
        cookTimeMinutes: Int,
        difficulty: DishDifficulty,
        servings: Int,
        ingredients: [QuantifiedIngredient],
        steps: [String],
        makeItFasterTip: String?,
        allergens: [KitchenProfile.Allergen]? = nil,
        stepDetails: [StepDetail]? = nil,
        nutrition: RecipeNutrition? = nil,
        cost: RecipeCost? = nil,
        language: AnswerLanguage? = nil
    ) {
        self.id = id
        self.name = name
        self.summary = summary
        self.cookTimeMinutes = cookTimeMinutes
        self.difficulty = difficulty
        self.servings = servings
        self.ingredients = ingredients
        self.steps = steps
        self.makeItFasterTip = makeItFasterTip
        self.allergens = allergens
        self.stepDetails = stepDetails
        self.nutrition = nutrition
        self.cost = cost
        self.language = language
    }

    /// Writes `makeItFasterTip` as an explicit `null` rather than leaving it out: the contract lists every field;
    /// `allergens`, `stepDetails`, `nutrition`, `cost` and `language` are left out when absent.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(summary, forKey: .summary)
        try container.encode(cookTimeMinutes, forKey: .cookTimeMinutes)
        try container.encode(difficulty, forKey: .difficulty)
        try container.encode(servings, forKey: .servings)
        try container.encode(ingredients, forKey: .ingredients)
        try container.encode(steps, forKey: .steps)
        try container.encode(makeItFasterTip, forKey: .makeItFasterTip)
        try container.encodeIfPresent(allergens, forKey: .allergens)
        try container.encodeIfPresent(stepDetails, forKey: .stepDetails)
        try container.encodeIfPresent(nutrition, forKey: .nutrition)
        try container.encodeIfPresent(cost, forKey: .cost)
        try container.encodeIfPresent(language, forKey: .language)
    }
}

/// An ingredient of a dish's recipe and how much of it ("200 g", "2 tbsp", "a pinch").
public struct QuantifiedIngredient: Codable, Hashable, Sendable, Identifiable, EnglishNamed {
    public var id: UUID
    public var name: String
    /// The amount as text, as the model wrote it; kept for clients that read it.
    public var quantity: String
    /// The same amount as a number and a unit, as a fridge recipe's ingredient has it (``RecipeIngredient/amount``);
    /// absent from older answers.
    public var amount: Double?
    public var unit: QuantityUnit?
    /// Its plain English name ("tomatoes" for "Tomaten"), which the pantry's keys, the nutrition matcher and the guard
    /// read (``EnglishNamed``): in an answer written in another language than English; absent from an English one, whose
    /// `name` it would repeat.
    public var canonicalName: String?

    public init(id: UUID, name: String, quantity: String, amount: Double? = nil, unit: QuantityUnit? = nil, canonicalName: String? = nil) {
        self.id = id
        self.name = name
        self.quantity = quantity
        self.amount = amount
        self.unit = unit
        self.canonicalName = canonicalName
    }

    /// `amount`, `unit` and `canonicalName`, added later, are left out when absent.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(quantity, forKey: .quantity)
        try container.encodeIfPresent(amount, forKey: .amount)
        try container.encodeIfPresent(unit, forKey: .unit)
        try container.encodeIfPresent(canonicalName, forKey: .canonicalName)
    }
}
