import Foundation
import KiwiDatabase
import KiwiDevelopment
import KiwiModels
import KiwiNutrition
import KiwiScans
import KiwiStrictJSON
import Testing

@testable import KiwiLLMStub
@testable import KiwiScanWorker

/// The estimator the worker builds from the `foods` table, here from the committed table it is loaded from.
let nutritionEstimator = NutritionEstimator(try! FoodTable(tsv: KiwiSchema.foodTable))

/// A stub fridge answer written with servings and quantities, as the prompt asks for.
let quantifiedAnswer = FridgeAnswers.answer(forDigest: [UInt8](repeating: 0, count: 32)).serialized()

/// Whether every recipe of `response` carries the nutrition of its own servings, estimated from FoodData Central.
func everyRecipeHasNutrition(_ response: ScanResponse) -> Bool {
    !response.recipes.isEmpty
        && response.recipes.allSatisfy { recipe in
            recipe.servings != nil && recipe.nutrition?.servings == recipe.servings
                && recipe.nutrition?.source == RecipeNutrition.estimatedFromFDC
                && recipe.nutrition?.ingredients.count == recipe.ingredients.count
        }
}

extension StreamedAnsweringTests {
    @Test("each streamed recipe is shown with its nutrition, as the result has it")
    func streamedRecipesHaveNutrition() async throws {
        let scan = try await scan(StubBehaviour(answers: [quantifiedAnswer]), labels: RecipeLabels(nutrition: nutritionEstimator))
        let response = try scan.response
        #expect(everyRecipeHasNutrition(response))
        #expect(scan.partials == elements(of: response))
    }

    @Test("a whole answer, not streamed, has each recipe's nutrition")
    func wholeAnswerHasNutrition() async throws {
        let scan = try await scan(StubBehaviour(answers: [quantifiedAnswer]), stream: false, labels: RecipeLabels(nutrition: nutritionEstimator))
        #expect(everyRecipeHasNutrition(try scan.response))
    }
}

@Suite("Scan worker: nutrition", .timeLimit(.minutes(2)))
struct NutritionWorkerTests {
    @Test("the worker reads the foods from PostgreSQL and every recipe of its result has its nutrition")
    func resultHasNutrition() async throws {
        let result = try await WorkerRig.run(behaviour: StubBehaviour(answers: [quantifiedAnswer])) { rig in
            try await rig.scan(SyntheticJPEG.make(size: 16 * 1024, seed: 71))
        }
        guard case .ok(let response) = result else {
            Issue.record("expected a response, got \(result)")
            return
        }
        #expect(everyRecipeHasNutrition(response))
    }

    @Test("a recipe without servings, from an answer written before quantities, gets no nutrition")
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
        #expect(RecipeLabels(nutrition: nutritionEstimator).labelled(recipe).nutrition == nil)
    }

    @Test("a dish recipe written with amounts gets its nutrition; one with text quantities only does not")
    func dishRecipe() {
        func dish(_ ingredients: [QuantifiedIngredient]) -> ScanResponse {
            let recipe = DishRecipe(
                id: UUID(),
                name: "Omelette",
                summary: "Eggs.",
                cookTimeMinutes: 10,
                difficulty: .easy,
                servings: 1,
                ingredients: ingredients,
                steps: ["Cook."],
                makeItFasterTip: nil
            )
            return ScanResponse(
                ingredients: [],
                recipes: [],
                mode: .dish,
                dish: DishAnswer(id: UUID(), name: "Omelette", cuisine: "French", confidence: 0.9, recipe: recipe)
            )
        }
        let labels = RecipeLabels(nutrition: nutritionEstimator)
        let quantified = labels.labelled(dish([QuantifiedIngredient(id: UUID(), name: "eggs", quantity: "3", amount: 3, unit: .piece)]))
        #expect(quantified.dish?.recipe?.nutrition?.servings == 1)
        let older = labels.labelled(dish([QuantifiedIngredient(id: UUID(), name: "eggs", quantity: "3")]))
        #expect(older.dish?.recipe?.nutrition == nil)
    }
}
