import Foundation
import KiwiFood
import KiwiModels
import Testing

@Suite("Recipe scaling and unit conversion")
struct RecipeScalerTests {
    @Test(
        "a scaled amount rounds to a step a cook can measure",
        arguments: [
            (Quantity(1, .cup), 1.5, Quantity(1.5, .cup)), (Quantity(0.75, .cup), 0.5, Quantity(1.0 / 3, .cup)),
            (Quantity(0.25, .cup), 0.5, Quantity(2, .tbsp)),
            (Quantity(1.0 / 3, .cup), 2.0, Quantity(2.0 / 3, .cup)), (Quantity(1, .tsp), 0.3, Quantity(0.25, .tsp)),
            (Quantity(0.25, .tsp), 0.5, Quantity(0.125, .tsp)), (Quantity(0.25, .tsp), 0.1, Quantity(0.125, .tsp)),
            (Quantity(1, .tbsp), 0.5, Quantity(1.5, .tsp)), (Quantity(2, .tbsp), 1.4, Quantity(2.75, .tbsp)),
            (Quantity(3, .piece), 0.5, Quantity(2, .piece)), (Quantity(1, .piece), 0.25, Quantity(1, .piece)),
            (Quantity(2, .clove), 1.3, Quantity(3, .clove)), (Quantity(1, .can), 1.5, Quantity(2, .can)),
            (Quantity(1, .pinch), 0.5, Quantity(1, .pinch)), (Quantity(7, .g), 0.5, Quantity(4, .g)),
            (Quantity(30, .g), 1.5, Quantity(45, .g)), (Quantity(250, .g), 1.5, Quantity(380, .g)),
            (Quantity(800, .ml), 1.5, Quantity(1.2, .l)), (Quantity(1, .g), 0.25, Quantity(1, .g)),
            (Quantity(6, .oz), 1.5, Quantity(9, .oz)), (Quantity(12, .oz), 2.0, Quantity(1.5, .lb)),
            (Quantity(1, .lb), 0.5, Quantity(8, .oz)),
        ]
    )
    func rounding(quantity: Quantity, factor: Double, expected: Quantity) {
        #expect(RecipeScaler.scale(quantity, by: factor, units: nil) == expected)
    }

    @Test(
        "metric turns cups, fluid ounces, ounces and pounds into millilitres and grams; spoons stay",
        arguments: [
            (Quantity(1, .cup), Quantity(240, .ml)), (Quantity(0.5, .cup), Quantity(120, .ml)), (Quantity(4, .fluidOunce), Quantity(120, .ml)),
            (Quantity(1, .oz), Quantity(30, .g)), (Quantity(1, .lb), Quantity(450, .g)), (Quantity(3, .lb), Quantity(1.36, .kg)),
            (Quantity(1, .tbsp), Quantity(1, .tbsp)), (Quantity(2, .g), Quantity(2, .g)),
        ]
    )
    func toMetric(quantity: Quantity, expected: Quantity) {
        #expect(RecipeScaler.scale(quantity, by: 1, units: .metric) == expected)
    }

    @Test(
        "US units turn grams into ounces or pounds and millilitres into spoons or cups by size",
        arguments: [
            (Quantity(100, .g), Quantity(3.5, .oz)), (Quantity(500, .g), Quantity(1, .lb)), (Quantity(1, .kg), Quantity(2.25, .lb)),
            (Quantity(10, .g), Quantity(0.25, .oz)), (Quantity(5, .ml), Quantity(1, .tsp)), (Quantity(30, .ml), Quantity(2, .tbsp)),
            (Quantity(250, .ml), Quantity(1, .cup)), (Quantity(1, .l), Quantity(4.25, .cup)), (Quantity(2, .piece), Quantity(2, .piece)),
        ]
    )
    func toUS(quantity: Quantity, expected: Quantity) {
        #expect(RecipeScaler.scale(quantity, by: 1, units: .us) == expected)
    }

    @Test("an amount neither scaled nor converted stays exactly as written")
    func untouchedAmount() {
        #expect(RecipeScaler.scale(Quantity(0.3, .cup), by: 1, units: .us) == Quantity(0.3, .cup))
    }

    static let recipe = Recipe(
        id: UUID(),
        name: "Omelette",
        summary: "Eggs and spinach.",
        cookTimeMinutes: 10,
        difficulty: .easy,
        ingredients: [
            RecipeIngredient(id: UUID(), name: "eggs", isDetected: true, substitution: nil, amount: 3, unit: .piece),
            RecipeIngredient(id: UUID(), name: "milk", isDetected: true, substitution: nil, amount: 0.25, unit: .cup),
            RecipeIngredient(id: UUID(), name: "salt", isDetected: false, substitution: nil, amount: nil, unit: .toTaste),
        ],
        steps: ["Whisk.", "Cook."],
        makeItFasterTip: nil,
        servings: 2,
        stepDetails: [StepDetail(durationMinutes: nil), StepDetail(durationMinutes: 3)]
    )

    @Test("a recipe scales every amount to the new servings, leaving to taste alone")
    func scalesRecipe() throws {
        let scaled = try #require(RecipeScaler.scale(Self.recipe, to: 4, units: nil))
        #expect(scaled.servings == 4)
        #expect(scaled.ingredients.map(\.amount) == [6, 0.5, nil])
        #expect(scaled.ingredients.map(\.unit) == [.piece, .cup, .toTaste])
        #expect(scaled.stepDetails == Self.recipe.stepDetails)
    }

    @Test("nutrition per serving stays; it counts the new servings")
    func nutritionServings() throws {
        var recipe = Self.recipe
        let values = NutrientAmount(value: 10, status: .complete)
        let perServing = NutrientValues(
            energyKcal: values,
            proteinG: values,
            fatG: values,
            saturatedFatG: values,
            carbohydrateG: values,
            sugarsG: values,
            fibreG: values,
            sodiumMg: values
        )
        recipe.nutrition = RecipeNutrition(servings: 2, status: .complete, perServing: perServing, unmatched: [], estimated: [], ingredients: [])
        let scaled = try #require(RecipeScaler.scale(recipe, to: 6, units: .us))
        #expect(scaled.nutrition?.servings == 6)
        #expect(scaled.nutrition?.perServing == perServing)
    }

    @Test("a recipe without servings cannot be scaled")
    func unscalable() {
        var recipe = Self.recipe
        recipe.servings = nil
        #expect(RecipeScaler.scale(recipe, to: 4, units: nil) == nil)
    }

    @Test(
        "a quantity reads as a cook writes it",
        arguments: [
            (1.5, QuantityUnit.cup, "1 ½ cups"), (0.125, .tsp, "⅛ tsp"), (1, .cup, "1 cup"), (2.0 / 3, .cup, "⅔ cup"),
            (2, .piece, "2"), (2, .clove, "2 cloves"), (1, .pinch, "1 pinch"), (2, .bunch, "2 bunches"), (250, .g, "250 g"),
            (1.25, .kg, "1.25 kg"), (0.3, .cup, "0.3 cup"), (3.5, .oz, "3 ½ oz"), (1.2, .l, "1.2 l"), (12, .fluidOunce, "12 fl oz"),
        ]
    )
    func quantityText(amount: Double, unit: QuantityUnit, text: String) {
        #expect(QuantityText.of(amount, unit) == text)
    }

    @Test("an ingredient line puts the quantity before the name; to taste after it; no quantity, the name alone")
    func ingredientLines() {
        #expect(Self.recipe.ingredients.map(QuantityText.line) == ["3 eggs", "¼ cup milk", "salt, to taste"])
        #expect(QuantityText.line(RecipeIngredient(id: UUID(), name: "basil", isDetected: true, substitution: nil)) == "basil")
    }
}
