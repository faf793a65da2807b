import Foundation
import KiwiModels
import KiwiNutrition
import Testing

struct NutritionEstimatorTests {
    let estimator = NutritionEstimator(matcher: matcher)

    @Test("a recipe with an unmatched ingredient is partial and names it")
    func unmatchedIsPartial() {
        let nutrition = estimator.nutrition(
            of: [
                IngredientQuantity(name: "spaghetti", amount: 200, unit: .g),
                IngredientQuantity(name: "dragon's breath sauce", amount: 50, unit: .g),
            ],
            servings: 2
        )
        #expect(nutrition.status == .partial)
        #expect(nutrition.unmatched == ["dragon's breath sauce"])
        #expect(nutrition.perServing.energyKcal.status == .partial)
        #expect(nutrition.ingredients[1].food == nil)
    }

    @Test("an ingredient to taste cannot be weighed: the values are partial, naming it")
    func toTasteIsPartial() {
        let nutrition = estimator.nutrition(
            of: [IngredientQuantity(name: "spaghetti", amount: 200, unit: .g), IngredientQuantity(name: "salt", amount: nil, unit: .toTaste)],
            servings: 2
        )
        #expect(nutrition.status == .partial)
        #expect(nutrition.unmatched == ["salt"])
        #expect(nutrition.ingredients[1].food == "Salt, table")
        #expect(nutrition.ingredients[1].grams == nil)
    }

    @Test("weights of foods that report every nutrient give complete values: grams / 100 × per 100 g / servings")
    func completeFromWeights() throws {
        let nutrition = estimator.nutrition(of: [IngredientQuantity(name: "spaghetti", amount: 200, unit: .g)], servings: 2)
        let pasta = try #require(matcher.food(FoodReference("sr_legacy", "Pasta, dry, enriched")))
        #expect(nutrition.status == .complete)
        #expect(nutrition.perServing.energyKcal.value == (pasta[.energyKcal]!).rounded())
        #expect(nutrition.perServing.proteinG.value == (pasta[.proteinG]! * 10).rounded() / 10)
        #expect(nutrition.source == RecipeNutrition.estimatedFromFDC)
    }

    @Test("a piece weighed by a typical weight makes the values estimated and names the ingredient")
    func pieceIsEstimated() {
        let nutrition = estimator.nutrition(of: [IngredientQuantity(name: "onion", amount: 1, unit: .piece)], servings: 1)
        #expect(nutrition.status == .estimated)
        #expect(nutrition.estimated == ["onion"])
        #expect(nutrition.ingredients[0].estimated)
    }

    @Test("a nutrient the matched food lacks is partial while the others keep their status")
    func lackingNutrientIsPartial() {
        // Foundation's cheddar reports no fibre.
        let nutrition = estimator.nutrition(of: [IngredientQuantity(name: "cheddar", amount: 100, unit: .g)], servings: 1)
        #expect(nutrition.perServing.fibreG.status == .partial)
        #expect(nutrition.perServing.energyKcal.status == .complete)
        #expect(nutrition.status == .partial)
    }

    @Test("a recipe without servings, saved before quantities, gets no nutrition")
    func noServingsNoNutrition() {
        let recipe = Recipe(
            id: UUID(),
            name: "Toast",
            summary: "Toast.",
            cookTimeMinutes: 5,
            difficulty: .easy,
            ingredients: [RecipeIngredient(id: UUID(), name: "bread", isDetected: true, substitution: nil)],
            steps: ["Toast it."],
            makeItFasterTip: nil
        )
        #expect(estimator.nutrition(of: recipe) == nil)
    }
}
