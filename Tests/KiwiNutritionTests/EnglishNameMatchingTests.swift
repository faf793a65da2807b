import Foundation
import KiwiModels
import KiwiNutrition
import Testing

/// Nutrition of a recipe in another language than English, found by its ingredients' plain English names
/// (docs/architecture.md, "Answers in the cook's language").
struct EnglishNameMatchingTests {
    let estimator = NutritionEstimator(matcher: matcher)

    func recipe(_ ingredients: [RecipeIngredient]) -> Recipe {
        Recipe(
            id: UUID(),
            name: "Spaghetti al pomodoro",
            summary: "Pasta with tomatoes.",
            cookTimeMinutes: 20,
            difficulty: .easy,
            ingredients: ingredients,
            steps: ["Cook."],
            makeItFasterTip: nil,
            servings: 2
        )
    }

    @Test("a German recipe's nutrition equals its English twin's, complete, and the figure worked out by hand")
    func germanRecipeEqualsItsEnglishTwin() throws {
        let german = recipe([
            RecipeIngredient(id: UUID(), name: "Nudeln", isDetected: true, substitution: nil, amount: 200, unit: .g, canonicalName: "spaghetti"),
            RecipeIngredient(id: UUID(), name: "Tomaten", isDetected: true, substitution: nil, amount: 400, unit: .g, canonicalName: "tomatoes"),
        ])
        let english = recipe([
            RecipeIngredient(id: UUID(), name: "spaghetti", isDetected: true, substitution: nil, amount: 200, unit: .g),
            RecipeIngredient(id: UUID(), name: "tomatoes", isDetected: true, substitution: nil, amount: 400, unit: .g),
        ])
        let inGerman = try #require(estimator.nutrition(of: german))
        let inEnglish = try #require(estimator.nutrition(of: english))
        #expect(inGerman.status == .complete)
        #expect(inGerman.perServing == inEnglish.perServing)
        #expect(inGerman.ingredients.map(\.name) == ["Nudeln", "Tomaten"])
        #expect(inGerman.ingredients.map(\.food) == ["Pasta, dry, enriched", "Tomatoes, red, ripe, raw, year round average"])
        // Per 100 g (FoodData Central SR Legacy): pasta 371 kcal, 13.04 g protein, 1.51 g fat, 3.2 g fibre, 6 mg sodium;
        // tomatoes 18 kcal, 0.88 g protein, 0.2 g fat, 1.2 g fibre, 5 mg sodium. 200 g and 400 g make two servings.
        #expect(inGerman.perServing.energyKcal.value == 407)  // (742 + 72) / 2
        #expect(inGerman.perServing.proteinG.value == 14.8)  // (26.08 + 3.52) / 2
        #expect(inGerman.perServing.fatG.value == 1.9)  // (3.02 + 0.8) / 2
        #expect(inGerman.perServing.fibreG.value == 5.6)  // (6.4 + 4.8) / 2
        #expect(inGerman.perServing.sodiumMg.value == 16)  // (12 + 20) / 2
    }

    @Test("without a plain English name, a name the table does not know is unmatched, as before")
    func germanNameAloneIsUnmatched() throws {
        let nutrition = try #require(
            estimator.nutrition(
                of: recipe([RecipeIngredient(id: UUID(), name: "Nudeln", isDetected: true, substitution: nil, amount: 200, unit: .g)])
            )
        )
        #expect(nutrition.unmatched == ["Nudeln"])
    }
}
