import Foundation
import KiwiModels
import Testing

@testable import KiwiGateway

/// What a recipe with quantities, step times and nutrition looks like in its JSON-LD, its text and its share page.
@Suite("Recipe export with quantities and nutrition")
struct RecipeQuantitiesExportTests {
    static func value(_ value: Double, _ status: NutritionStatus = .estimated) -> NutrientAmount {
        NutrientAmount(value: value, status: status)
    }

    static let nutrition = RecipeNutrition(
        servings: 2,
        status: .partial,
        perServing: NutrientValues(
            energyKcal: value(412),
            proteinG: value(20),
            fatG: value(12.5),
            saturatedFatG: value(4.04),
            carbohydrateG: value(55.25),
            sugarsG: value(6),
            fibreG: value(2.1),
            sodiumMg: value(600, .partial)
        ),
        unmatched: ["salt"],
        estimated: ["eggs"],
        ingredients: []
    )

    static let saved = RecipeExportTests.saved(RecipeScalingRouterTests.pancakes)

    @Test("the JSON-LD has the yield, ingredient lines with amounts, a timeRequired on timed steps and NutritionInformation")
    func jsonLD() throws {
        let document = try #require(try JSONSerialization.jsonObject(with: RecipeExport.jsonLD(Self.saved)) as? [String: Any])
        #expect(document["@type"] as? String == "Recipe")
        #expect(document["recipeYield"] as? String == "2 servings")
        #expect(document["recipeIngredient"] as? [String] == ["2 eggs", "150 g flour", "1 cup milk", "salt, to taste"])
        let steps = try #require(document["recipeInstructions"] as? [[String: Any]])
        #expect(steps.map { $0["@type"] as? String } == ["HowToStep", "HowToStep", "HowToStep"])
        #expect(steps.map { $0["timeRequired"] as? String } == [nil, "PT10M", nil])
        let nutrition = try #require(document["nutrition"] as? [String: Any])
        #expect(nutrition["@type"] as? String == "NutritionInformation")
        #expect(nutrition["servingSize"] as? String == "1 serving")
        #expect(nutrition["calories"] as? String == "412 kcal")
        #expect(nutrition["proteinContent"] as? String == "20 g")
        #expect(nutrition["fatContent"] as? String == "12.5 g")
        #expect(nutrition["saturatedFatContent"] as? String == "4 g")
        #expect(nutrition["carbohydrateContent"] as? String == "55.3 g")
        #expect(nutrition["sugarContent"] as? String == "6 g")
        #expect(nutrition["fiberContent"] as? String == "2.1 g")
        #expect(nutrition["sodiumContent"] as? String == "600 mg")
        let description = try #require(nutrition["description"] as? String)
        #expect(description.contains("estimated from USDA FoodData Central"))
        #expect(description.contains("Not counted: salt."))
    }

    @Test("a recipe saved before quantities has no yield, no nutrition and no step times in its JSON-LD")
    func olderJSONLD() throws {
        let document = try #require(try JSONSerialization.jsonObject(with: RecipeExport.jsonLD(RecipeExportTests.saved())) as? [String: Any])
        #expect(document["recipeYield"] == nil)
        #expect(document["nutrition"] == nil)
        let steps = try #require(document["recipeInstructions"] as? [[String: Any]])
        #expect(steps.allSatisfy { $0["timeRequired"] == nil })
    }

    @Test("the share text has the servings, the amounts, the step times and the nutrition with its source and caveats")
    func plainText() {
        #expect(
            RecipeExport.plainText(Self.saved) == """
                Pancakes
                Serves 2 · Ready in 20 min · easy

                Fluffy pancakes.

                Ingredients
                - 2 eggs
                - 150 g flour
                - 1 cup milk
                - salt, to taste

                Steps
                1. Whisk everything.
                2. Rest the batter. (10 min)
                3. Fry.

                Nutrition per serving, estimated from USDA FoodData Central
                energy 412 kcal · protein 20 g · fat 12.5 g · saturated fat 4 g · carbohydrate 55.3 g · sugars 6 g · fibre 2.1 g · sodium 600 mg
                Not counted: salt. Weighed from a typical portion: eggs.

                """
        )
    }

    @Test("the share page shows the servings, amounts, step times and a nutrition table saying it is estimated from FDC")
    func sharePage() throws {
        let html = try RecipeSharePage.html(SharedRecipe(recipe: Self.saved, share: RecipeShare(token: "t", sharedAt: Date())))
        for text in [
            "<p class=\"meta\">Serves 2 · Ready in 20 min · easy</p>", "<li>150 g flour <span class=\"missing\">(missing)</span></li>",
            "<li>Rest the batter. <span class=\"time\">(10 min)</span></li>", "<th scope=\"row\">Energy</th><td>412 kcal</td>",
            "<th scope=\"row\">Sodium</th><td>at least 600 mg</td>",
            "<caption>Per serving, estimated from USDA FoodData Central. Not counted: salt. Weighed from a typical portion: eggs.</caption>",
        ] {
            #expect(html.contains(text), "missing: \(text)")
        }
    }

    @Test("step times read in hours and minutes", arguments: [(45, "45 min"), (60, "1 h"), (90, "1 h 30 min")])
    func stepTimes(minutes: Int, text: String) {
        #expect(RecipeExport.minutesText(minutes) == text)
    }
}
