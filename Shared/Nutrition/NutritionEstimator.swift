import Foundation
import KiwiDietGuard
import KiwiFood
import KiwiModels

/// One ingredient as the estimate reads it: its name and quantity for the whole recipe. It is matched by its plain
/// English name (``EnglishNamed``) and named by its name in what the estimate lists.
public struct IngredientQuantity: Sendable, Hashable, EnglishNamed {
    public var name: String
    public var amount: Double?
    public var unit: QuantityUnit?
    public var canonicalName: String?

    public init(name: String, amount: Double?, unit: QuantityUnit?, canonicalName: String? = nil) {
        self.name = name
        self.amount = amount
        self.unit = unit
        self.canonicalName = canonicalName
    }

    /// One of a recipe's ingredients, fridge or dish.
    init(_ ingredient: some EnglishNamed, amount: Double?, unit: QuantityUnit?) {
        self.init(name: ingredient.name, amount: amount, unit: unit, canonicalName: ingredient.canonicalName)
    }
}

/// A recipe's nutrition per serving from its quantities (docs/architecture.md, "Quantities, scaling and nutrition"):
/// each ingredient matched to a food (``FoodMatcher``) and weighed (``QuantityWeighing``); the values are
/// Σ grams / 100 × the food's value per 100 g / servings, rounded to one decimal (energy to the whole kcal).
/// An ingredient that cannot be matched or weighed is left out and named in `unmatched` ("salt, to taste" too: honest
/// over pretty). Per nutrient, the status is `partial` when an ingredient is left out or a counted food lacks the
/// nutrient, else `estimated` when a weight was estimated or a food stands in for the state named (a cooking yield, or
/// the nearest state: ``FoodMatch/isEstimate``), else `complete`; the recipe's status is the worst of them.
public struct NutritionEstimator: Sendable {
    public let matcher: FoodMatcher

    public init(matcher: FoodMatcher) {
        self.matcher = matcher
    }

    public init(_ table: FoodTable) {
        self.init(matcher: FoodMatcher(table))
    }

    /// A fridge recipe's nutrition; nil for a recipe without `servings` (one saved before Kiwi wrote quantities).
    public func nutrition(of recipe: Recipe) -> RecipeNutrition? {
        guard let servings = recipe.servings else { return nil }
        return nutrition(of: recipe.ingredients.map { IngredientQuantity($0, amount: $0.amount, unit: $0.unit) }, servings: servings)
    }

    /// A dish recipe's nutrition; nil when no ingredient has a unit, an answer from before dish ingredients had
    /// amounts, whose quantities are text only.
    public func nutrition(of recipe: DishRecipe) -> RecipeNutrition? {
        guard recipe.ingredients.contains(where: { $0.unit != nil }) else { return nil }
        return nutrition(
            of: recipe.ingredients.map { IngredientQuantity($0, amount: $0.amount, unit: $0.unit) },
            servings: recipe.servings
        )
    }

    /// The nutrition per serving of `ingredients`, which together make `servings` servings.
    public func nutrition(of ingredients: [IngredientQuantity], servings: Int) -> RecipeNutrition {
        var totals = [Double](repeating: 0, count: Nutrient.allCases.count)
        var lacking = Set<Nutrient>()
        var matches: [IngredientNutritionMatch] = []
        var unmatched: [String] = []
        var estimated: [String] = []
        for ingredient in ingredients {
            let match = matcher.match(ingredient.englishName)
            let weighing = QuantityWeighing.weight(
                of: ingredient.amount,
                ingredient.unit,
                key: match?.key ?? IngredientKey.of(ingredient.englishName),
                defaultPortionGrams: match?.food.portionGrams
            )
            matches.append(
                IngredientNutritionMatch(
                    name: ingredient.name,
                    food: match?.food.description,
                    dataset: match?.food.dataset,
                    confidence: match?.confidence,
                    grams: weighing.map { Self.rounded($0.grams, decimals: 1) },
                    estimated: weighing?.isEstimated ?? false
                )
            )
            guard let match, let weighing else {
                unmatched.append(ingredient.name)
                continue
            }
            // A volume of a cooked food is weighed by its raw density, which cooking changes: an estimate.
            let cookedByVolume = ingredient.unit.map { UnitSizes.millilitres[$0] != nil } == true && match.isCooked
            if weighing.isEstimated || match.isEstimate || cookedByVolume { estimated.append(ingredient.name) }
            // A cooked weight of a food the table has raw only is the raw weight it was cooked from.
            let grams = weighing.grams / (match.cookingYield?.factor ?? 1)
            for nutrient in Nutrient.allCases {
                if let value = match.food[nutrient] {
                    totals[nutrient.rawValue] += grams / 100 * value
                } else {
                    lacking.insert(nutrient)
                }
            }
        }
        let servings = max(servings, 1)
        func amount(_ nutrient: Nutrient) -> NutrientAmount {
            let status: NutritionStatus =
                if !unmatched.isEmpty || lacking.contains(nutrient) { .partial } else if !estimated.isEmpty { .estimated } else { .complete }
            let perServing = totals[nutrient.rawValue] / Double(servings)
            return NutrientAmount(value: Self.rounded(perServing, decimals: nutrient == .energyKcal ? 0 : 1), status: status)
        }
        let values = NutrientValues(
            energyKcal: amount(.energyKcal),
            proteinG: amount(.proteinG),
            fatG: amount(.fatG),
            saturatedFatG: amount(.saturatedFatG),
            carbohydrateG: amount(.carbohydrateG),
            sugarsG: amount(.sugarsG),
            fibreG: amount(.fibreG),
            sodiumMg: amount(.sodiumMg)
        )
        return RecipeNutrition(
            servings: servings,
            status: Nutrient.allCases.map { values[$0].status }.max() ?? .complete,
            perServing: values,
            unmatched: unmatched,
            estimated: estimated,
            ingredients: matches
        )
    }

    private static func rounded(_ value: Double, decimals: Int) -> Double {
        let scale = pow(10, Double(decimals))
        return (value * scale).rounded() / scale
    }
}

extension NutrientValues {
    /// The amount of `nutrient`.
    public subscript(nutrient: Nutrient) -> NutrientAmount {
        switch nutrient {
        case .energyKcal: energyKcal
        case .proteinG: proteinG
        case .fatG: fatG
        case .saturatedFatG: saturatedFatG
        case .carbohydrateG: carbohydrateG
        case .sugarsG: sugarsG
        case .fibreG: fibreG
        case .sodiumMg: sodiumMg
        }
    }
}
