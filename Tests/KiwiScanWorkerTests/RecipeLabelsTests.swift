import Foundation
import KiwiDietGuard
import KiwiModels
import KiwiTestSupport
import Testing

@testable import KiwiScanWorker

@Suite("Labelling a scan's recipes once")
struct RecipeLabelsTests {
    let pesto = ModelAnswers.Dish("Pasta with pesto", ingredients: ["spaghetti", "basil pesto"])
    let salad = ModelAnswers.Dish("Tomato salad", ingredients: ["tomatoes", "olive oil"])

    @Test("an answer whose recipes were labelled as they were shown is labelled as the guard labels it")
    func answerAfterShownRecipesIsLabelledAsTheGuardLabelsIt() throws {
        let answer = try PipelineFixtures.validAnswer([pesto, salad]).response
        let labels = RecipeLabels()
        let shown = answer.recipes.map { labels.labelled($0) }

        let labelled = labels.labelled(answer)

        #expect(labelled == DietGuard().labelled(answer))
        #expect(labelled.recipes == shown)
    }

    @Test("a recipe the model wrote again, changed, is labelled for what it says now")
    func rewrittenRecipeIsLabelledAgain() throws {
        let labels = RecipeLabels()
        let seed = UUID()
        let first = try PipelineFixtures.validAnswer([salad], idSeed: seed).response.recipes[0]
        #expect(labels.labelled(first).allergens == [])

        let withWalnuts = ModelAnswers.Dish("Tomato salad", ingredients: ["tomatoes", "olive oil", "walnuts"])
        let rewritten = try PipelineFixtures.validAnswer([withWalnuts], idSeed: seed).response.recipes[0]

        #expect(labels.labelled(rewritten).allergens == [.treeNuts])
    }

    @Test("a benchmark leg without labels leaves every recipe's allergens as the model declared them")
    func withoutAllergenLabelsTheModelsDeclarationStays() throws {
        let answer = try PipelineFixtures.validAnswer([pesto, salad]).response
        let labels = RecipeLabels(allergens: false)

        #expect(answer.recipes.map { labels.labelled($0) } == answer.recipes)
        #expect(labels.labelled(answer) == answer)
    }
}
