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

    @Test("a recipe changed after it was shown is labelled for what it says now")
    func changedRecipeIsLabelledAgain() throws {
        let labels = RecipeLabels()
        var recipe = try PipelineFixtures.validAnswer([salad]).response.recipes[0]
        #expect(labels.labelled(recipe).allergens == [])

        recipe.steps.append("Scatter crumbled walnuts over it.")

        #expect(labels.labelled(recipe).allergens == [.treeNuts])
    }
}
