import Foundation
import KiwiModels
import KiwiNutrition
import Testing

/// Recipes whose nutrition per serving was computed by hand from named rows of the nutrition table
/// (Fixtures/reference-recipes.json, which says how), to hold the estimator against.
struct ReferenceRecipes: Decodable {
    struct Ingredient: Decodable {
        struct Row: Decodable {
            var dataset: String
            var description: String
        }

        var name: String
        var amount: Double
        var unit: QuantityUnit
        var grams: Double
        var food: Row
    }

    struct Recipe: Decodable {
        var name: String
        var servings: Int
        var ingredients: [Ingredient]
        var reference: [String: Double]
    }

    var recipes: [Recipe]

    static let fixture: ReferenceRecipes = {
        let url = Bundle.module.url(forResource: "Fixtures/reference-recipes", withExtension: "json")!
        return try! JSONDecoder().decode(ReferenceRecipes.self, from: Data(contentsOf: url))
    }()
}

/// The names the fixture gives the nutrients: ``NutrientValues``'s coding keys.
let nutrientNames: [Nutrient: String] = [
    .energyKcal: "energyKcal", .proteinG: "proteinG", .fatG: "fatG", .saturatedFatG: "saturatedFatG",
    .carbohydrateG: "carbohydrateG", .sugarsG: "sugarsG", .fibreG: "fibreG", .sodiumMg: "sodiumMg",
]

/// How far the estimate may be from the hand-computed reference, per serving: 10 % of the reference or, for a small
/// value, an absolute allowance (25 kcal, 2 g, 0.5 g of saturated fat or fibre, 60 mg of sodium), whichever is larger.
/// docs/measurements/2026-11-27-nutrition.md reports the errors measured.
let allowance: [Nutrient: Double] = [
    .energyKcal: 25, .proteinG: 2, .fatG: 2, .saturatedFatG: 0.5, .carbohydrateG: 2, .sugarsG: 2, .fibreG: 0.5, .sodiumMg: 60,
]
let relativeBound = 0.10

struct AccuracyTests {
    let estimator = NutritionEstimator(matcher: matcher)

    @Test("the fixture holds at least 20 recipes, each reference the sum of its named rows")
    func referencesAreTheirRows() throws {
        let recipes = ReferenceRecipes.fixture.recipes
        #expect(recipes.count >= 20)
        for recipe in recipes {
            for nutrient in Nutrient.allCases {
                var total = 0.0
                for ingredient in recipe.ingredients {
                    let food = try #require(matcher.food(FoodReference(ingredient.food.dataset, ingredient.food.description)))
                    total += ingredient.grams / 100 * (food[nutrient] ?? 0)
                }
                let reference = try #require(recipe.reference[nutrientNames[nutrient]!])
                #expect(abs(total / Double(recipe.servings) - reference) < 0.01, "\(recipe.name): \(nutrient)")
            }
        }
    }

    @Test("every reference recipe's estimate is within the bound of its hand-computed values")
    func withinBound() {
        for recipe in ReferenceRecipes.fixture.recipes {
            let nutrition = estimator.nutrition(
                of: recipe.ingredients.map { IngredientQuantity(name: $0.name, amount: $0.amount, unit: $0.unit) },
                servings: recipe.servings
            )
            #expect(nutrition.unmatched.isEmpty, "\(recipe.name)")
            for nutrient in Nutrient.allCases {
                let reference = recipe.reference[nutrientNames[nutrient]!] ?? 0
                let error = abs(nutrition.perServing[nutrient].value - reference)
                #expect(error <= max(relativeBound * reference, allowance[nutrient]!), "\(recipe.name): \(nutrient) \(error)")
            }
        }
    }
}
