import Foundation
import KiwiDietGuard
import KiwiModels
import Testing

/// The guard's second opinion: the allergens the model declares for each recipe, judged beside the lexicon, and the
/// label clients receive.
@Suite("Declared allergens in the guard")
struct DeclaredAllergensGuardTests {
    let dietGuard = DietGuard()

    /// A recipe whose text names nothing of any group unless the test says, declaring `allergens`.
    func recipe(
        _ name: String = "Tomato salad",
        ingredients: [(String, String?)] = [("tomatoes", nil), ("olive oil", nil)],
        steps: [String] = ["Slice and dress."],
        tip: String? = nil,
        allergens: [KitchenProfile.Allergen]
    ) -> Recipe {
        Recipe.fixture(name, ingredients: ingredients, steps: steps, tip: tip, allergens: allergens)
    }

    func guarded(_ recipe: Recipe, for profile: KitchenProfile) -> ScanResponse {
        let answer = ScanResponse(ingredients: [], recipes: [recipe])
        return dietGuard.enforce(dietGuard.findings(in: answer, for: profile), on: answer)
    }

    @Test("a recipe whose declared allergens name the profile's allergy is withheld, though the lexicon finds nothing in it")
    func declarationAloneWithholds() {
        let salad = recipe(allergens: [.fish])
        var undeclared = salad
        undeclared.allergens = nil
        #expect(dietGuard.allergens(of: undeclared).isEmpty, "the lexicon alone finds nothing")
        let shown = guarded(salad, for: KitchenProfile(allergies: [.fish]))
        #expect(shown.recipes.isEmpty)
        #expect(shown.withheldRecipes == [WithheldRecipe(name: "Tomato salad", reason: "It contains fish.")])
    }

    @Test("a recipe the lexicon flags is withheld though the model declares no allergens")
    func lexiconAloneWithholds() {
        let pesto = recipe("Pasta with pesto", ingredients: [("spaghetti", nil), ("basil pesto", nil)], allergens: [])
        let shown = guarded(pesto, for: KitchenProfile(allergies: [.treeNuts]))
        #expect(shown.recipes.isEmpty)
        #expect(shown.withheldRecipes == [WithheldRecipe(name: "Pasta with pesto", reason: "It uses basil pesto, which contains tree nuts.")])
    }

    @Test("a declared allergen breaks a diet that excludes its group: milk is not vegan")
    func declarationBreaksDiet() {
        let shown = guarded(recipe(allergens: [.milk]), for: KitchenProfile(diets: [.vegan]))
        #expect(shown.withheldRecipes == [WithheldRecipe(name: "Tomato salad", reason: "It contains milk, which is not vegan.")])
    }

    @Test("a declared allergen breaks only the diets the lexicon says exclude its group: fish is not vegetarian, but is pescatarian")
    func declarationFollowsLexiconDiets() {
        #expect(guarded(recipe(allergens: [.fish]), for: KitchenProfile(diets: [.vegetarian])).recipes.isEmpty)
        #expect(guarded(recipe(allergens: [.fish]), for: KitchenProfile(diets: [.pescatarian])).recipes.count == 1)
    }

    @Test("a declared allergen the profile does not exclude keeps the recipe")
    func otherDeclarationKeeps() {
        #expect(
            dietGuard.findings(in: ScanResponse(ingredients: [], recipes: [recipe(allergens: [.mustard])]), for: KitchenProfile(allergies: [.fish]))
                .isEmpty
        )
    }

    @Test("the repair tells the model which declared allergen broke which allergy")
    func repairNamesDeclaration() {
        let answer = ScanResponse(ingredients: [], recipes: [recipe(allergens: [.fish])])
        let problem = dietGuard.repairProblem(dietGuard.findings(in: answer, for: KitchenProfile(allergies: [.fish])))
        #expect(problem.hasPrefix(#"recipe 1 ("Tomato salad") declares fish among its allergens, and the household is allergic to fish"#))
    }

    @Test("a declared group the recipe's text also names is reported once, where the text names it")
    func declarationAndTextReportedOnce() throws {
        let pesto = recipe("Pasta with pesto", ingredients: [("spaghetti", nil), ("basil pesto", nil)], allergens: [.treeNuts])
        let finding = try #require(
            dietGuard.findings(in: ScanResponse(ingredients: [], recipes: [pesto]), for: KitchenProfile(allergies: [.treeNuts])).first
        )
        #expect(finding.violations.map(\.place) == ["its name", "ingredient 2"])
    }

    @Test("a recipe's allergens for clients are the model's declaration and the lexicon's findings together, in order of their ids")
    func labelIsUnion() {
        let salad = recipe(steps: ["Slice the tomatoes.", "Dress with oil and a dash of fish sauce."], allergens: [.mustard])
        #expect(dietGuard.allergens(of: salad) == [.fish, .mustard])
    }

    @Test("advice does not label a recipe: a substitution or a tip naming an allergen is not in the dish")
    func adviceDoesNotLabel() {
        let salad = recipe(ingredients: [("tomatoes", nil), ("olive oil", "sesame oil")], tip: "Use a peanut dressing.", allergens: [])
        #expect(dietGuard.allergens(of: salad).isEmpty)
    }

    @Test("labelling gives every recipe its allergens, the dish's recipe included, whatever the profile")
    func labelsEveryRecipe() {
        let dishRecipe = DishRecipe(
            id: UUID(),
            name: "Shakshuka",
            summary: "Eggs in tomato sauce.",
            cookTimeMinutes: 30,
            difficulty: .easy,
            servings: 2,
            ingredients: [QuantifiedIngredient(id: UUID(), name: "eggs", quantity: "4")],
            steps: ["Poach the eggs."],
            makeItFasterTip: nil,
            allergens: []
        )
        let dish = DishAnswer(id: UUID(), name: "Shakshuka", cuisine: "Middle Eastern", confidence: 0.9, recipe: dishRecipe)
        let labelled = dietGuard.labelled(ScanResponse(ingredients: [], recipes: [recipe(allergens: [.celery])], mode: .dish, dish: dish))
        #expect(labelled.recipes.map(\.allergens) == [[.celery]])
        #expect(labelled.dish?.recipe?.allergens == [.eggs])
    }
}
