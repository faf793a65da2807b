import KiwiModels
import KiwiNutrition
import Testing

/// The state a recipe names picks the row of the food in that state (docs/architecture.md, "Quantities, scaling and
/// nutrition"): cooked is not raw, unsalted is not salted.
@Suite("Nutrition: food states")
struct FoodStateMatchingTests {
    let estimator = NutritionEstimator(matcher: matcher)

    @Test(
        "a state the name says picks the row of the food in that state",
        arguments: [
            ("cooked rice", "Rice, white, short-grain, cooked, unenriched"),
            ("leftover cooked spaghetti", "Pasta, cooked, enriched, without added salt"),
            ("unsalted butter", "Butter, without salt"),
            ("salted butter", "Butter, salted"),
            ("4 poached eggs", "Egg, whole, cooked, poached"),
            ("hard-boiled eggs", "Egg, whole, cooked, hard-boiled"),
            ("cooked spinach", "Spinach, cooked, boiled, drained, with salt"),
            ("boiled beetroot", "Beets, cooked, boiled, drained"),
        ]
    )
    func stateRow(name: String, food: String) throws {
        let match = try #require(matcher.match(name))
        #expect(match.food.description == food)
        #expect(!match.isEstimate)
    }

    @Test("British names and brands are read as the table's words")
    func regionalNames() {
        #expect(matcher.match("double cream")?.food.description == "Cream, fluid, heavy whipping")
        #expect(matcher.match("Greek yoghurt")?.food.description == "Yogurt, Greek, plain, whole milk")
        #expect(matcher.match("Hellmann's mayonnaise")?.food.description == "Salad dressing, mayonnaise, regular")
        #expect(matcher.match("2% milk")?.food.description == "Milk, reduced fat (2%)")
    }

    @Test("where several phrases start at one word, the longest is read: semi-skimmed milk is not skimmed milk")
    func longestPhrase() {
        #expect(matcher.match("semi-skimmed milk")?.food.description == "Milk, reduced fat (2%)")
        #expect(matcher.match("skimmed milk")?.food.description == "Milk, fat free (skim)")
    }

    @Test("baked beans are a food, not beans that were baked")
    func foodNamedByAState() {
        #expect(matcher.match("Heinz baked beans")?.food.description == "Beans, baked, canned, plain or vegetarian")
    }

    @Test("a food whose head is none of the name's words is no match: half-and-half is not pecan halves")
    func headMustBeNamed() {
        #expect(matcher.match("half-and-half")?.food.description == "Cream, fluid, half and half")
        #expect(matcher.match("halves") == nil)
    }

    @Test("a cooked food the table has raw only is weighed as its raw food through a cited yield, and is estimated")
    func cookingYield() throws {
        let match = try #require(matcher.match("grilled ribeye steak"))
        #expect(match.food.description == "Beef, ribeye, steak, boneless, choice, raw")
        let yield = try #require(match.cookingYield)
        #expect(abs(yield.factor - 0.822) < 1e-9)
        #expect(yield.source.contains("Table of Cooking Yields"))
        let nutrition = estimator.nutrition(of: [IngredientQuantity(name: "grilled ribeye steak", amount: 300, unit: .g)], servings: 1)
        #expect(nutrition.estimated == ["grilled ribeye steak"])
        #expect(nutrition.perServing.energyKcal.status == .estimated)
        let raw = try #require(match.food[.energyKcal])
        #expect(abs(nutrition.perServing.energyKcal.value - (300 / 0.822 / 100 * raw).rounded()) <= 1)
    }

    @Test("a state no row of the food is in falls back to the food as found, estimated")
    func standIn() throws {
        let match = try #require(matcher.match("frozen leeks"))
        #expect(match.food.description == "Leeks, (bulb and lower leaf-portion), raw")
        #expect(match.isApproximate)
        let nutrition = estimator.nutrition(of: [IngredientQuantity(name: "frozen leeks", amount: 200, unit: .g)], servings: 1)
        #expect(nutrition.perServing.energyKcal.status == .estimated)
    }

    @Test("an egg yolk weighs FoodData Central's 17 g and a dried fig 8.4 g, not a whole egg's or a cup's")
    func pieceWeights() {
        let yolks = estimator.nutrition(of: [IngredientQuantity(name: "egg yolks", amount: 2, unit: .piece)], servings: 1)
        #expect(yolks.ingredients.first?.grams == 34)
        let figs = estimator.nutrition(of: [IngredientQuantity(name: "dried figs", amount: 6, unit: .piece)], servings: 1)
        #expect(figs.ingredients.first?.grams == 50.4)
    }

    @Test("a cooked food weighed by volume is estimated: its density is the raw food's")
    func cookedByVolume() {
        let nutrition = estimator.nutrition(of: [IngredientQuantity(name: "cooked spinach", amount: 1, unit: .cup)], servings: 1)
        #expect(nutrition.perServing.energyKcal.status == .estimated)
    }
}
