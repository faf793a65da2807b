import KiwiDietGuard
import KiwiModels

/// What a recipe, or what is left to buy on a shopping list, costs at the pantry's prices (docs/architecture.md, "What a
/// recipe costs"). Pure: the gateway counts it each time a recipe or list is read, after scaling, so a recipe for 6
/// costs three times one for 2.
public enum RecipeCosting {
    /// `recipe`'s cost from `prices` (the kitchen's, by ``IngredientKey``) in `currency`, or when nil in the one most of
    /// its priced ingredients were bought in; nil when the recipe has no servings, or no ingredient has a price in that
    /// currency. An amount `to taste` costs nothing and is not listed.
    public static func cost(of recipe: Recipe, prices: [String: PantryPrice], currency: String? = nil) -> RecipeCost? {
        guard let servings = recipe.servings else { return nil }
        return cost(of: recipe.ingredients.map { Line($0, amount: $0.amount, unit: $0.unit) }, servings: servings, prices: prices, currency: currency)
    }

    /// A dish scan's recipe's cost, counted as a fridge recipe's is (``cost(of:prices:currency:)``).
    public static func cost(of recipe: DishRecipe, prices: [String: PantryPrice], currency: String? = nil) -> RecipeCost? {
        let lines = recipe.ingredients.map { Line($0, amount: $0.amount, unit: $0.unit) }
        return cost(of: lines, servings: recipe.servings, prices: prices, currency: currency)
    }

    private static func cost(of ingredients: [Line], servings: Int, prices: [String: PantryPrice], currency: String?) -> RecipeCost? {
        guard servings > 0 else { return nil }
        let lines = ingredients.filter { $0.unit != .toTaste }
        guard let priced = priced(lines, prices: prices, currency: currency) else { return nil }
        return RecipeCost(
            currency: priced.currency,
            total: cents(priced.total),
            perServing: cents(priced.total / Double(servings)),
            servings: servings,
            status: priced.unpriced.isEmpty ? .complete : .partial,
            unpriced: priced.unpriced
        )
    }

    /// What the items of a shopping list not yet ticked off cost from `prices`, in `currency` as a recipe's cost is
    /// counted; nil when none of them has a price in that currency.
    public static func estimate(of items: [ShoppingListItem], prices: [String: PantryPrice], currency: String? = nil) -> ShoppingListCost? {
        let lines = items.filter { !$0.checked }.map { Line(name: $0.name, key: $0.key, amount: $0.quantity, unit: $0.unit) }
        guard let priced = priced(lines, prices: prices, currency: currency) else { return nil }
        return ShoppingListCost(
            currency: priced.currency,
            total: cents(priced.total),
            status: priced.unpriced.isEmpty ? .complete : .partial,
            unpriced: priced.unpriced
        )
    }

    /// A food and how much of it, as a recipe's ingredient or a shopping list's item says, and the key its price is
    /// kept by.
    struct Line {
        var name: String
        var key: String
        var amount: Double?
        var unit: QuantityUnit?

        init(name: String, key: String, amount: Double?, unit: QuantityUnit?) {
            (self.name, self.key, self.amount, self.unit) = (name, key, amount, unit)
        }

        /// A recipe's ingredient, priced by its plain English name's key as the pantry keys it.
        init(_ ingredient: some EnglishNamed, amount: Double?, unit: QuantityUnit?) {
            self.init(name: ingredient.name, key: IngredientKey.of(ingredient.englishName), amount: amount, unit: unit)
        }
    }

    /// The sum of `lines` in `chosen`, or when nil in the currency most of their priced foods were bought in, and the
    /// lines left out: without a price in that currency, or without an amount that converts into the price's unit. Nil
    /// when none has a price in that currency.
    static func priced(
        _ lines: [Line],
        prices: [String: PantryPrice],
        currency chosen: String?
    ) -> (currency: String, total: Double, unpriced: [UnpricedIngredient])? {
        guard !prices.isEmpty else { return nil }
        let keyed = lines.map { (line: $0, key: $0.key) }
        var currencies: [String: Int] = [:]
        for (_, key) in keyed { if let price = prices[key] { currencies[price.currency, default: 0] += 1 } }
        guard let mostBought = currencies.max(by: { ($0.value, $1.key) < ($1.value, $0.key) })?.key else { return nil }
        let currency = chosen ?? mostBought
        guard currencies[currency] != nil else { return nil }
        var total = 0.0
        var unpriced: [UnpricedIngredient] = []
        for (line, key) in keyed {
            guard let price = prices[key] else {
                unpriced.append(UnpricedIngredient(name: line.name, reason: .noPrice))
                continue
            }
            guard price.currency == currency else {
                unpriced.append(UnpricedIngredient(name: line.name, reason: .otherCurrency))
                continue
            }
            guard let amount = amount(of: line, in: price.unit, key: key) else {
                unpriced.append(UnpricedIngredient(name: line.name, reason: .noAmount))
                continue
            }
            total += amount * price.amount
        }
        return (currency, total, unpriced)
    }

    /// How many of `unit` the line's amount is (``ShoppingQuantity/amount(of:in:key:)``), a bare count in pieces; nil
    /// when it has no amount or does not convert.
    static func amount(of line: Line, in unit: QuantityUnit, key: String) -> Double? {
        guard let amount = line.amount, amount > 0 else { return nil }
        return ShoppingQuantity.amount(of: Quantity(amount, line.unit ?? .piece), in: unit, key: key)
    }

    private static func cents(_ value: Double) -> Double {
        (value * 100).rounded() / 100
    }
}
