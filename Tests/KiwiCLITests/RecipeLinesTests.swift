import ArgumentParser
import Foundation
import KiwiAPIClient
import KiwiModels
import KiwiTestSupport
import Testing

@testable import KiwiCLI

/// Recipes in the shapes the CLI prints, made with the server's models and decoded as the API client decodes them.
enum CookingRecipes {
    static let id = UUID(uuidString: "6f1c2a7e-0b4d-4c55-9a0e-3d2f1e8b7c61")!

    static func nutrient(_ value: Double, _ status: NutritionStatus = .partial) -> NutrientAmount {
        NutrientAmount(value: value, status: status)
    }

    /// A tomato pasta for 2: amounts, salt to taste, a 10-minute simmer, and nutrition partial for the salt.
    static let pasta = Recipe(
        id: id,
        name: "Tomato pasta",
        summary: "Spaghetti in a quick tomato sauce.",
        cookTimeMinutes: 25,
        difficulty: .easy,
        ingredients: [
            RecipeIngredient(id: id, name: "spaghetti", isDetected: true, substitution: nil, amount: 200, unit: .g),
            RecipeIngredient(id: id, name: "tomatoes", isDetected: true, substitution: nil, amount: 3, unit: nil),
            RecipeIngredient(id: id, name: "olive oil", isDetected: false, substitution: "butter", amount: 1.5, unit: .tbsp),
            RecipeIngredient(id: id, name: "salt", isDetected: false, substitution: nil, amount: nil, unit: .toTaste),
        ],
        steps: ["Boil the spaghetti.", "Chop the tomatoes.", "Simmer the tomatoes in the oil.", "Toss with the spaghetti."],
        makeItFasterTip: nil,
        servings: 2,
        stepDetails: [
            StepDetail(durationMinutes: 9), StepDetail(durationMinutes: nil), StepDetail(durationMinutes: 10), StepDetail(durationMinutes: nil),
        ],
        nutrition: RecipeNutrition(
            servings: 2,
            status: .partial,
            perServing: NutrientValues(
                energyKcal: nutrient(512.4),
                proteinG: nutrient(14.2),
                fatG: nutrient(11.5),
                saturatedFatG: nutrient(1.6),
                carbohydrateG: nutrient(86.25),
                sugarsG: nutrient(8.0),
                fibreG: nutrient(5.3),
                sodiumMg: nutrient(12.6)
            ),
            unmatched: ["salt"],
            estimated: [],
            ingredients: []
        )
    )

    /// `recipe` as the API client decodes it.
    static func decoded(_ recipe: Recipe) throws -> Components.Schemas.Recipe {
        try JSONDecoder.iso8601.decode(Components.Schemas.Recipe.self, from: KiwiJSON.encoder().encode(recipe))
    }

    /// `pasta` as a recipe answered before Kiwi wrote quantities: no servings, amounts, timers or nutrition.
    static var olderPasta: Recipe {
        var recipe = pasta
        recipe.servings = nil
        recipe.stepDetails = nil
        recipe.nutrition = nil
        for index in recipe.ingredients.indices {
            recipe.ingredients[index].amount = nil
            recipe.ingredients[index].unit = nil
        }
        return recipe
    }
}

@Suite("Printing a recipe's amounts, timers and nutrition")
struct RecipeLinesTests {
    @Test("a nutrient is written to one decimal without a trailing zero", arguments: [(2.0, "2"), (0.3, "0.3"), (12.46, "12.5"), (86.25, "86.3")])
    func nutrientText(value: Double, text: String) {
        #expect(RecipeLines.decimal(value) == text)
    }

    @Test("an ingredient reads as a shopping line: amount and unit first, a count bare, to taste after the name, no amount the bare name")
    func ingredientText() {
        #expect(RecipeLines.ingredient("spaghetti", amount: 200, unit: .g) == "200 g spaghetti")
        #expect(RecipeLines.ingredient("eggs", amount: 2, unit: nil) == "2 eggs")
        #expect(RecipeLines.ingredient("eggs", amount: 4, unit: .piece) == "4 eggs")
        #expect(RecipeLines.ingredient("milk", amount: 8, unit: .flOz) == "8 fl oz milk")
        #expect(RecipeLines.ingredient("salt", amount: nil, unit: .toTaste) == "salt, to taste")
        #expect(RecipeLines.ingredient("basil", amount: nil, unit: nil) == "basil")
    }

    @Test("a recipe with quantities shows its servings, amounts, step timers and nutrition per serving with its source and what it leaves out")
    func recipeWithQuantities() throws {
        let lines = ScanPrinter.recipeLines(try CookingRecipes.decoded(CookingRecipes.pasta), number: 1)
        #expect(
            lines == [
                "",
                "[1] Tomato pasta — 25 min, easy, serves 2",
                "  Spaghetti in a quick tomato sauce.",
                "  - 200 g spaghetti",
                "  - 3 tomatoes",
                "  - 1 ½ tbsp olive oil (not in the photo; or use butter)",
                "  - salt, to taste (not in the photo)",
                "  1. Boil the spaghetti. [timer: 9 min]",
                "  2. Chop the tomatoes.",
                "  3. Simmer the tomatoes in the oil. [timer: 10 min]",
                "  4. Toss with the spaghetti.",
                "  Per serving (of 2), estimated from USDA FoodData Central, incomplete: 512 kcal, protein 14.2 g, fat 11.5 g (saturated 1.6 g), "
                    + "carbohydrate 86.3 g (sugars 8 g), fibre 5.3 g, sodium 13 mg",
                "  Not counted: salt",
            ]
        )
    }

    @Test("a recipe's cost reads in all and a serving, with what it leaves out for want of a price")
    func costText() throws {
        let cost = try JSONDecoder().decode(
            Components.Schemas.RecipeCost.self,
            from: Data(
                #"{"currency": "EUR", "total": 0.7, "perServing": 0.35, "servings": 2, "status": "partial", "unpriced": [{"name": "flour", "reason": "no_price"}, {"name": "milk", "reason": "other_currency"}]}"#
                    .utf8
            )
        )
        #expect(RecipeLines.cost(cost) == ["  Costs about 0.70 EUR, 0.35 EUR a serving, without flour, milk"])
    }

    @Test("a recipe answered before quantities prints as it always did")
    func olderRecipe() throws {
        let lines = ScanPrinter.recipeLines(try CookingRecipes.decoded(CookingRecipes.olderPasta), number: 2)
        #expect(lines[1] == "[2] Tomato pasta — 25 min, easy")
        #expect(lines[3...6] == ["  - spaghetti", "  - tomatoes", "  - olive oil (not in the photo; or use butter)", "  - salt (not in the photo)"])
        #expect(lines.last == "  4. Toss with the spaghetti.")
    }

    @Test("a timer of an hour or more is written in hours and minutes", arguments: [(45, "45 min"), (60, "1 h"), (90, "1 h 30 min")])
    func durationText(minutes: Int, text: String) {
        #expect(RecipeLines.duration(minutes: minutes) == text)
    }

    @Test("--servings outside 1–24 is a usage error, before anything is sent", arguments: ["0", "25", "-1"])
    func servingsOutOfRange(servings: String) {
        #expect(throws: (any Error).self) { try RecipeCommand.Show.parse([CookingRecipes.id.uuidString, "--servings", servings]) }
    }

    @Test("--servings and --units become the gateway's query")
    func scalingQuery() throws {
        let show = try RecipeCommand.Show.parse([CookingRecipes.id.uuidString, "--servings", "4", "--units", "us"])
        #expect(show.scaling.query == .init(servings: 4, units: .us))
        #expect(try RecipeCommand.Show.parse([CookingRecipes.id.uuidString]).scaling.query == .init())
    }
}
