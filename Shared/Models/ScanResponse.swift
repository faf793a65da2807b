import Foundation

/// What a scan returns to the client: the ingredients seen in the photo and quick recipes that use them, and how the
/// user's profile shaped them.
public struct ScanResponse: Codable, Hashable, Sendable {
    public var ingredients: [Ingredient]
    public var recipes: [Recipe]
    /// The profile the answer was made for, as it was when the scan started; absent when the user had none.
    public var appliedProfile: KitchenProfile?
    /// Recipes the model suggested that the allergen and diet guard kept from the user, and why.
    public var withheldRecipes: [WithheldRecipe]
    /// What the photos showed: `fridge` (ingredients and recipes), `dish` (``dish``) or `receipt` (``receipt``); the
    /// last two have no ingredients or recipes.
    public var mode: ScanMode
    /// A dish scan's answer; absent for a fridge scan, and for photos that show no dish.
    public var dish: DishAnswer?
    /// A plan's scan's answer: the plan's meals (docs/architecture.md, "Meal plans"); absent for every other scan,
    /// and a plan's has no ingredients or recipes.
    public var plan: MealPlanOutline?
    /// A receipt scan's answer (docs/architecture.md, "Receipt scans"); absent for every other scan.
    public var receipt: ReceiptAnswer?

    public init(
        ingredients: [Ingredient],
        recipes: [Recipe],
        appliedProfile: KitchenProfile? = nil,
        withheldRecipes: [WithheldRecipe] = [],
        mode: ScanMode = .fridge,
        dish: DishAnswer? = nil,
        plan: MealPlanOutline? = nil,
        receipt: ReceiptAnswer? = nil
    ) {
        self.ingredients = ingredients
        self.recipes = recipes
        self.appliedProfile = appliedProfile
        self.withheldRecipes = withheldRecipes
        self.mode = mode
        self.dish = dish
        self.plan = plan
        self.receipt = receipt
    }

    private enum CodingKeys: String, CodingKey {
        case ingredients, recipes, appliedProfile, withheldRecipes, mode, dish, plan, receipt
    }

    /// Answers recorded before profiles existed have neither `appliedProfile` nor `withheldRecipes`, nor `mode` and
    /// `dish`: they are fridge answers.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        ingredients = try container.decode([Ingredient].self, forKey: .ingredients)
        recipes = try container.decode([Recipe].self, forKey: .recipes)
        appliedProfile = try container.decodeIfPresent(KitchenProfile.self, forKey: .appliedProfile)
        withheldRecipes = try container.decodeIfPresent([WithheldRecipe].self, forKey: .withheldRecipes) ?? []
        mode = try container.decodeIfPresent(ScanMode.self, forKey: .mode) ?? .fridge
        dish = try container.decodeIfPresent(DishAnswer.self, forKey: .dish)
        plan = try container.decodeIfPresent(MealPlanOutline.self, forKey: .plan)
        receipt = try container.decodeIfPresent(ReceiptAnswer.self, forKey: .receipt)
    }

    /// Leaves `appliedProfile`, `dish`, `plan` and `receipt` out when there are none, as the API leaves out every optional object.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(ingredients, forKey: .ingredients)
        try container.encode(recipes, forKey: .recipes)
        try container.encodeIfPresent(appliedProfile, forKey: .appliedProfile)
        try container.encode(withheldRecipes, forKey: .withheldRecipes)
        try container.encode(mode, forKey: .mode)
        try container.encodeIfPresent(dish, forKey: .dish)
        try container.encodeIfPresent(plan, forKey: .plan)
        try container.encodeIfPresent(receipt, forKey: .receipt)
    }
}

/// A recipe the guard kept from the user: its name, and why in words a user understands ("It uses pesto, which
/// contains tree nuts.").
public struct WithheldRecipe: Codable, Hashable, Sendable {
    public var name: String
    public var reason: String
    /// For a household member's scan, the member ids whose allergies or diets the recipe breaks; absent otherwise.
    public var `for`: [UUID]?

    public init(name: String, reason: String, for members: [UUID]? = nil) {
        self.name = name
        self.reason = reason
        self.for = members
    }
}

/// A food item detected in the photo.
public struct Ingredient: Codable, Hashable, Sendable, Identifiable, EnglishNamed {
    public var id: UUID
    public var name: String
    /// One of the categories the model is asked for (Dairy, Protein, …); kept as text so new ones never break clients.
    public var category: String
    /// How sure the model is, from 0 to 1.
    public var confidence: Double
    /// Its plain English name ("tomatoes" for "Tomaten"), which the pantry's keys, the nutrition matcher and the guard
    /// read (``EnglishNamed``): in an answer written in another language than English; absent from an English one, whose
    /// `name` it would repeat.
    public var canonicalName: String?

    public init(id: UUID, name: String, category: String, confidence: Double, canonicalName: String? = nil) {
        self.id = id
        self.name = name
        self.category = category
        self.confidence = confidence
        self.canonicalName = canonicalName
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
    /// The allergen groups it contains, by id in alphabetical order: in a model's answer what the model declares; in a
    /// response, what the model declares together with what the allergen guard finds in the recipe. Absent from
    /// recipes answered before allergens were declared: unknown, not none.
    public var allergens: [KitchenProfile.Allergen]?
    /// How many people the ingredients' amounts feed. Absent from recipes answered before quantities were asked for,
    /// which cannot be scaled or counted.
    public var servings: Int?
    /// One per step, in order, when the answer has them (absent from older answers).
    public var stepDetails: [StepDetail]?
    /// Per serving, estimated by the server from FoodData Central; absent when the recipe has no quantities.
    public var nutrition: RecipeNutrition?
    /// For a pantry scan's recipe, the pantry items it uses up (their ids, as `GET /v1/pantry` lists them); absent from
    /// any other scan's.
    public var usesUp: [UUID]?
    /// What it costs at the reader's kitchen's prices, counted whenever it is read, in an answer, the recipe box or a
    /// plan (docs/architecture.md, "What a recipe costs"); absent when nothing in it has a price, and never stored.
    public var cost: RecipeCost?
    /// The language its text is written in (docs/architecture.md, "Answers in the cook's language"), which the guard
    /// reads it in whenever it is checked again; absent from a recipe in English.
    public var language: AnswerLanguage?

    public init(
        id: UUID,
        name: String,
        summary: String,
        cookTimeMinutes: Int,
        difficulty: Difficulty,
        ingredients: [RecipeIngredient],
        steps: [String],
        makeItFasterTip: String?,
        allergens: [KitchenProfile.Allergen]? = nil,
        servings: Int? = nil,
        stepDetails: [StepDetail]? = nil,
        nutrition: RecipeNutrition? = nil,
        usesUp: [UUID]? = nil,
        cost: RecipeCost? = nil,
        language: AnswerLanguage? = nil
    ) {
        self.id = id
        self.name = name
        self.summary = summary
        self.cookTimeMinutes = cookTimeMinutes
        self.difficulty = difficulty
        self.ingredients = ingredients
        self.steps = steps
        self.makeItFasterTip = makeItFasterTip
        self.allergens = allergens
        self.servings = servings
        self.stepDetails = stepDetails
        self.nutrition = nutrition
        self.usesUp = usesUp
        self.cost = cost
        self.language = language
    }

    /// Writes `makeItFasterTip` as an explicit `null` rather than leaving it out: the contract lists every field.
    /// `allergens`, `servings`, `stepDetails`, `nutrition`, `usesUp`, `cost` and `language` are left out when absent, as the API leaves out every
    /// member added later that a recipe lacks.
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
        try container.encodeIfPresent(allergens, forKey: .allergens)
        try container.encodeIfPresent(servings, forKey: .servings)
        try container.encodeIfPresent(stepDetails, forKey: .stepDetails)
        try container.encodeIfPresent(nutrition, forKey: .nutrition)
        // In lower case, as `GET /v1/pantry` writes the ids (``UUID`` in an array would be written in upper case).
        try container.encodeIfPresent(usesUp?.map { $0.uuidString.lowercased() }, forKey: .usesUp)
        try container.encodeIfPresent(cost, forKey: .cost)
        try container.encodeIfPresent(language, forKey: .language)
    }
}

/// An ingredient a recipe needs, whether it was seen in the photo, and what to use instead if it was not.
public struct RecipeIngredient: Codable, Hashable, Sendable, Identifiable, EnglishNamed {
    public var id: UUID
    public var name: String
    public var isDetected: Bool
    /// A replacement for a missing ingredient; `null` on the wire when there is none.
    public var substitution: String?
    /// How much of it, in ``unit``, for the recipe's `servings`; absent for an amount the cook judges (`to taste`)
    /// and from recipes answered before quantities were asked for.
    public var amount: Double?
    public var unit: QuantityUnit?
    /// Its plain English name ("tomatoes" for "Tomaten"), which the pantry's keys, the nutrition matcher and the guard
    /// read (``EnglishNamed``): in an answer written in another language than English; absent from an English one, whose
    /// `name` it would repeat.
    public var canonicalName: String?

    public init(
        id: UUID,
        name: String,
        isDetected: Bool,
        substitution: String?,
        amount: Double? = nil,
        unit: QuantityUnit? = nil,
        canonicalName: String? = nil
    ) {
        self.id = id
        self.name = name
        self.isDetected = isDetected
        self.substitution = substitution
        self.amount = amount
        self.unit = unit
        self.canonicalName = canonicalName
    }

    /// Writes `substitution` as an explicit `null` rather than leaving it out: the contract lists every field.
    /// `amount`, `unit` and `canonicalName`, added later, are left out when absent.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(isDetected, forKey: .isDetected)
        try container.encode(substitution, forKey: .substitution)
        try container.encodeIfPresent(amount, forKey: .amount)
        try container.encodeIfPresent(unit, forKey: .unit)
        try container.encodeIfPresent(canonicalName, forKey: .canonicalName)
    }
}

/// Food an answer names in its language and, when that is not English, in plain English too: what Kiwi matches food
/// by, so that a German pantry and an English one key the same food alike and nutrition is found in every language.
public protocol EnglishNamed {
    var name: String { get }
    var canonicalName: String? { get }
}

extension EnglishNamed {
    /// The name the pantry's keys, the nutrition matcher and the guard read: the plain English one, or the name itself
    /// in an answer that gave none (an English answer, or one from before answers came in other languages).
    public var englishName: String { canonicalName ?? name }
}
