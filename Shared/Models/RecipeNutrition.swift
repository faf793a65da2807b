import Foundation

/// A recipe's nutrition per serving, estimated from USDA FoodData Central foods matched to its ingredients and their
/// quantities (docs/architecture.md, "Quantities, scaling and nutrition"). Never a measurement: ``source`` says so on
/// every value a client shows.
public struct RecipeNutrition: Codable, Hashable, Sendable {
    /// What every client must show beside the values.
    public static let estimatedFromFDC = "estimated from USDA FoodData Central"

    /// Always ``estimatedFromFDC``.
    public var source: String
    /// How many servings the recipe's quantities make; the values are for one of them.
    public var servings: Int
    /// How far the values can be trusted, the least of ``perServing``'s.
    public var status: NutritionStatus
    public var perServing: NutrientValues
    /// The ingredients no food was found for, by name: the values leave them out (`partial`).
    public var unmatched: [String]
    /// The ingredients weighed with a default portion or an assumed density (`estimated`).
    public var estimated: [String]
    /// What each ingredient was matched to and counted as, in the recipe's order.
    public var ingredients: [IngredientNutritionMatch]

    public init(
        servings: Int,
        status: NutritionStatus,
        perServing: NutrientValues,
        unmatched: [String],
        estimated: [String],
        ingredients: [IngredientNutritionMatch]
    ) {
        self.source = Self.estimatedFromFDC
        self.servings = servings
        self.status = status
        self.perServing = perServing
        self.unmatched = unmatched
        self.estimated = estimated
        self.ingredients = ingredients
    }
}

/// How a nutrition value was reached, from best to worst.
public enum NutritionStatus: String, Codable, Hashable, Sendable, CaseIterable, Comparable {
    /// Every ingredient was matched and weighed from its stated quantity.
    case complete
    /// Every ingredient was matched, but some were weighed with a default portion or an assumed density.
    case estimated
    /// Some ingredients were not matched, or their food lacks this nutrient: the value is a lower bound.
    case partial

    public static func < (lhs: Self, rhs: Self) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// One nutrient's value per serving and how it was reached.
public struct NutrientAmount: Codable, Hashable, Sendable {
    public var value: Double
    public var status: NutritionStatus

    public init(value: Double, status: NutritionStatus) {
        self.value = value
        self.status = status
    }
}

/// The nutrients Kiwi reports: those of a food label (EU and US), in the units of FoodData Central.
public struct NutrientValues: Codable, Hashable, Sendable {
    public var energyKcal: NutrientAmount
    public var proteinG: NutrientAmount
    public var fatG: NutrientAmount
    public var saturatedFatG: NutrientAmount
    public var carbohydrateG: NutrientAmount
    public var sugarsG: NutrientAmount
    public var fibreG: NutrientAmount
    public var sodiumMg: NutrientAmount

    public init(
        energyKcal: NutrientAmount,
        proteinG: NutrientAmount,
        fatG: NutrientAmount,
        saturatedFatG: NutrientAmount,
        carbohydrateG: NutrientAmount,
        sugarsG: NutrientAmount,
        fibreG: NutrientAmount,
        sodiumMg: NutrientAmount
    ) {
        self.energyKcal = energyKcal
        self.proteinG = proteinG
        self.fatG = fatG
        self.saturatedFatG = saturatedFatG
        self.carbohydrateG = carbohydrateG
        self.sugarsG = sugarsG
        self.fibreG = fibreG
        self.sodiumMg = sodiumMg
    }
}

/// What one recipe ingredient was matched to in FoodData Central and how much of it was counted.
public struct IngredientNutritionMatch: Codable, Hashable, Sendable {
    /// The recipe ingredient's name.
    public var name: String
    /// The matched food's description in FoodData Central ("Onions, raw"); absent when nothing matched.
    public var food: String?
    /// The FoodData Central dataset of ``food``: `foundation`, `sr_legacy` or `survey_fndds`.
    public var dataset: String?
    /// How sure the match is, from 0 to 1; absent when nothing matched.
    public var confidence: Double?
    /// The grams of the whole recipe counted; absent when the ingredient could not be weighed.
    public var grams: Double?
    /// Whether ``grams`` came from a default portion or an assumed density rather than the stated quantity.
    public var estimated: Bool

    public init(name: String, food: String?, dataset: String?, confidence: Double?, grams: Double?, estimated: Bool) {
        self.name = name
        self.food = food
        self.dataset = dataset
        self.confidence = confidence
        self.grams = grams
        self.estimated = estimated
    }
}

/// What a recipe step adds beside its text, in the same order as the steps.
public struct StepDetail: Codable, Hashable, Sendable {
    /// How long the step takes when it waits on something (simmer, bake, rest); `null` on the wire for a step without one.
    public var durationMinutes: Int?

    public init(durationMinutes: Int?) {
        self.durationMinutes = durationMinutes
    }

    /// Writes `durationMinutes` as an explicit `null`: the contract lists every field.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(durationMinutes, forKey: .durationMinutes)
    }
}
