import Foundation
import KiwiModels
import Testing

@testable import KiwiScanWorker

@Suite("What a streaming scan's client is shown, attempt after attempt")
struct ShownAnswerTests {
    let basil = [Ingredient(id: UUID(), name: "basil", category: "Vegetable", confidence: 0.9)]
    let leeks = [Ingredient(id: UUID(), name: "leeks", category: "Vegetable", confidence: 0.8)]
    let salad = Recipe.sample("Tomato salad")
    let pasta = Recipe.sample("Lemon pasta")
    let soup = Recipe.sample("Leek soup")

    @Test("a first attempt shows its ingredients, then each recipe, as each is accepted")
    func firstAttemptShowsEach() {
        var answer = ShownAnswer()
        answer.beginAttempt()
        #expect(answer.accept(ingredients: basil) == [.ingredients(basil)])
        #expect(answer.accept(recipe: salad) == [.recipe(index: 0, salad)])
        #expect(answer.accept(recipe: pasta) == [.recipe(index: 1, pasta)])
        #expect(answer.shown == [.ingredients(basil), .recipe(index: 0, salad), .recipe(index: 1, pasta)])
    }

    @Test("a retry, or a redelivered job, that writes what was shown confirms it silently, and shows what it adds")
    func retryConfirms() {
        var answer = ShownAnswer(shown: [.ingredients(basil), .recipe(index: 0, salad)])
        answer.beginAttempt()
        #expect(answer.accept(ingredients: basil) == [])
        #expect(answer.accept(recipe: salad) == [])
        #expect(answer.accept(recipe: pasta) == [.recipe(index: 1, pasta)])
    }

    @Test("a retry that differs from what was shown restarts, sends its elements so far again, then goes on")
    func retryDiffersRestarts() {
        var answer = ShownAnswer(shown: [.ingredients(basil), .recipe(index: 0, salad), .recipe(index: 1, soup)])
        answer.beginAttempt()
        #expect(answer.accept(ingredients: basil) == [])
        #expect(answer.accept(recipe: salad) == [])
        #expect(answer.accept(recipe: pasta) == [.restart, .ingredients(basil), .recipe(index: 0, salad), .recipe(index: 1, pasta)])
        #expect(answer.accept(recipe: soup) == [.recipe(index: 2, soup)])
        #expect(answer.shown.count == 4)
    }

    @Test("an attempt whose ingredients differ from those shown restarts at once")
    func ingredientsDifferRestart() {
        var answer = ShownAnswer(shown: [.ingredients(basil), .recipe(index: 0, salad)])
        answer.beginAttempt()
        #expect(answer.accept(ingredients: leeks) == [.restart, .ingredients(leeks)])
        #expect(answer.accept(recipe: soup) == [.recipe(index: 0, soup)])
    }

    @Test("a recipe before the attempt's ingredients is not shown: it was guarded with none")
    func recipeBeforeIngredients() {
        var answer = ShownAnswer()
        answer.beginAttempt()
        #expect(answer.accept(recipe: salad) == [])
        #expect(answer.shown.isEmpty)
    }
}

extension Recipe {
    /// A recipe named `name`, with one ingredient and one step.
    static func sample(_ name: String) -> Recipe {
        Recipe(
            id: UUID(),
            name: name,
            summary: "A quick dish.",
            cookTimeMinutes: 15,
            difficulty: .easy,
            ingredients: [RecipeIngredient(id: UUID(), name: "tomatoes", isDetected: true, substitution: nil)],
            steps: ["Cook everything together."],
            makeItFasterTip: nil
        )
    }
}
