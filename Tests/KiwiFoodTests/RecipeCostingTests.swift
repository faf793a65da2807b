import Foundation
import KiwiDietGuard
import KiwiFood
import KiwiModels
import Testing

/// What a recipe, or what is left on a shopping list, costs at the pantry's prices (docs/architecture.md, "What a recipe
/// costs").
@Suite("Recipe and shopping list costs")
struct RecipeCostingTests {
    static func ingredient(_ name: String, _ amount: Double?, _ unit: QuantityUnit?) -> RecipeIngredient {
        RecipeIngredient(id: UUID(), name: name, isDetected: true, substitution: nil, amount: amount, unit: unit)
    }

    static let omelette = Recipe(
        id: UUID(),
        name: "Spinach omelette",
        summary: "Eggs and spinach.",
        cookTimeMinutes: 10,
        difficulty: .easy,
        ingredients: [
            ingredient("eggs", 4, .piece), ingredient("baby spinach", 150, .g), ingredient("whole milk", 100, .ml), ingredient("salt", nil, .toTaste),
        ],
        steps: ["Whisk.", "Cook."],
        makeItFasterTip: nil,
        servings: 2
    )

    static let prices: [String: PantryPrice] = [
        "egg": PantryPrice(amount: 0.35, unit: .piece, currency: "EUR"),
        "spinach": PantryPrice(amount: 6, unit: .kg, currency: "EUR"),
        "milk": PantryPrice(amount: 1.19, unit: .l, currency: "EUR"),
    ]

    @Test("every ingredient priced, converted into the unit it was bought by: complete, per serving and in all; to taste costs nothing")
    func completeCost() throws {
        let cost = try #require(RecipeCosting.cost(of: Self.omelette, prices: Self.prices))
        // 4 × 0.35 + 0.15 kg × 6 + 0.1 l × 1.19 = 1.40 + 0.90 + 0.119
        #expect(cost == RecipeCost(currency: "EUR", total: 2.42, perServing: 1.21, servings: 2, status: .complete, unpriced: []))
    }

    @Test("the recipe scaled to 6 servings costs three times as much in all, and the same per serving")
    func scaledCost() throws {
        let six = try #require(RecipeScaler.scale(Self.omelette, to: 6, units: nil))
        let cost = try #require(RecipeCosting.cost(of: six, prices: Self.prices))
        #expect(cost.servings == 6 && cost.total == 7.26 && cost.perServing == 1.21)
    }

    @Test("a dish scan's recipe costs what a fridge recipe of the same ingredients and servings costs")
    func dishRecipeCost() throws {
        let dish = DishRecipe(
            id: UUID(),
            name: Self.omelette.name,
            summary: Self.omelette.summary,
            cookTimeMinutes: 10,
            difficulty: .easy,
            servings: 2,
            ingredients: Self.omelette.ingredients.map {
                QuantifiedIngredient(id: $0.id, name: $0.name, quantity: "", amount: $0.amount, unit: $0.unit)
            },
            steps: Self.omelette.steps,
            makeItFasterTip: nil
        )
        let cost = try #require(RecipeCosting.cost(of: dish, prices: Self.prices))
        #expect(cost == RecipeCosting.cost(of: Self.omelette, prices: Self.prices))
    }

    @Test("an ingredient without a price, or priced in another currency, is left out and listed: the cost is partial")
    func partialCost() throws {
        var prices = Self.prices
        prices["milk"] = PantryPrice(amount: 1.05, unit: .l, currency: "GBP")
        prices["spinach"] = nil
        let cost = try #require(RecipeCosting.cost(of: Self.omelette, prices: prices))
        #expect(cost.status == .partial && cost.total == 1.40 && cost.currency == "EUR")
        #expect(
            cost.unpriced == [
                UnpricedIngredient(name: "baby spinach", reason: .noPrice), UnpricedIngredient(name: "whole milk", reason: .otherCurrency),
            ]
        )
    }

    @Test("a chosen currency is counted in, though most was bought in another, listed as other_currency; none priced in it, no cost")
    func chosenCurrency() throws {
        var prices = Self.prices
        prices["milk"] = PantryPrice(amount: 1.05, unit: .l, currency: "GBP")
        let cost = try #require(RecipeCosting.cost(of: Self.omelette, prices: prices, currency: "GBP"))
        #expect(cost.currency == "GBP" && cost.total == 0.11 && cost.status == .partial)
        #expect(cost.unpriced.map(\.reason) == [.otherCurrency, .otherCurrency])
        #expect(RecipeCosting.cost(of: Self.omelette, prices: Self.prices, currency: "GBP") == nil)
    }

    @Test("an amount that does not convert into the price's unit is listed; a recipe with nothing priced, or no servings, has no cost")
    func noAmountAndNoCost() throws {
        var prices = Self.prices
        prices["spinach"] = PantryPrice(amount: 1.5, unit: .pack, currency: "EUR")
        #expect(
            try #require(RecipeCosting.cost(of: Self.omelette, prices: prices)).unpriced == [
                UnpricedIngredient(name: "baby spinach", reason: .noAmount)
            ]
        )
        #expect(RecipeCosting.cost(of: Self.omelette, prices: [:]) == nil)
        var unscaled = Self.omelette
        unscaled.servings = nil
        #expect(RecipeCosting.cost(of: unscaled, prices: Self.prices) == nil)
    }

    static func item(_ name: String, _ quantity: Double?, _ unit: QuantityUnit?, checked: Bool = false) -> ShoppingListItem {
        ShoppingListItem(
            id: UUID(),
            name: name,
            key: IngredientKey.of(name),
            section: "Other",
            checked: checked,
            forRecipes: [],
            addedAt: Date(),
            quantity: quantity,
            unit: unit
        )
    }

    @Test("a shopping list's estimate prices what is not ticked off, converted into the unit it was bought by")
    func listEstimate() throws {
        let items = [Self.item("eggs", 6, .piece), Self.item("baby spinach", 300, .g), Self.item("whole milk", 1, .l, checked: true)]
        let cost = try #require(RecipeCosting.estimate(of: items, prices: Self.prices))
        // 6 × 0.35 + 0.3 kg × 6; the milk is in the basket already.
        #expect(cost == ShoppingListCost(currency: "EUR", total: 3.90, status: .complete, unpriced: []))
    }

    @Test("a list item without a price or an amount is listed as unpriced; a list of nothing priced has no estimate")
    func partialListEstimate() throws {
        let items = [Self.item("eggs", 6, .piece), Self.item("saffron", 1, .pinch), Self.item("whole milk", nil, nil)]
        let cost = try #require(RecipeCosting.estimate(of: items, prices: Self.prices))
        #expect(cost.total == 2.10 && cost.status == .partial)
        #expect(cost.unpriced == [UnpricedIngredient(name: "saffron", reason: .noPrice), UnpricedIngredient(name: "whole milk", reason: .noAmount)])
        #expect(RecipeCosting.estimate(of: [Self.item("saffron", 1, .pinch)], prices: Self.prices) == nil)
    }
}
