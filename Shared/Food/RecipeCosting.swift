import KiwiDietGuard
import KiwiModels

/// What a recipe costs at the pantry's prices (docs/architecture.md, "What a recipe costs"). Pure: the gateway counts
/// it each time a recipe is read, after scaling, so a recipe for 6 costs three times one for 2.
public enum RecipeCosting {
    /// `recipe`'s cost from `prices` (the pantry's, by ``IngredientKey``) in the currency most of its priced ingredients
    /// were bought in; nil when the recipe has no servings, or no ingredient has a price. An amount `to taste` costs
    /// nothing and is not listed; anything else without a price in that currency, or without an amount that converts
    /// into the price's unit, is listed in `unpriced`.
    public static func cost(of recipe: Recipe, prices: [String: PantryPrice]) -> RecipeCost? {
        guard let servings = recipe.servings, servings > 0 else { return nil }
        let counted = recipe.ingredients.filter { $0.unit != .toTaste }.map { (ingredient: $0, key: IngredientKey.of($0.name)) }
        var currencies: [String: Int] = [:]
        for (_, key) in counted { if let price = prices[key] { currencies[price.currency, default: 0] += 1 } }
        guard let currency = currencies.max(by: { ($0.value, $1.key) < ($1.value, $0.key) })?.key else { return nil }
        var total = 0.0
        var unpriced: [UnpricedIngredient] = []
        for (ingredient, key) in counted {
            guard let price = prices[key] else {
                unpriced.append(UnpricedIngredient(name: ingredient.name, reason: .noPrice))
                continue
            }
            guard price.currency == currency else {
                unpriced.append(UnpricedIngredient(name: ingredient.name, reason: .otherCurrency))
                continue
            }
            guard let amount = amount(of: ingredient, in: price.unit, key: key) else {
                unpriced.append(UnpricedIngredient(name: ingredient.name, reason: .noAmount))
                continue
            }
            total += amount * price.amount
        }
        return RecipeCost(
            currency: currency,
            total: cents(total),
            perServing: cents(total / Double(servings)),
            servings: servings,
            status: unpriced.isEmpty ? .complete : .partial,
            unpriced: unpriced
        )
    }

    /// How many of `unit` the ingredient's amount is: its own amount in the same unit, else converted by volume, else by
    /// weight (``QuantityWeighing``: a food's density, typical piece or can); nil when it has no amount or does not convert.
    static func amount(of ingredient: RecipeIngredient, in unit: QuantityUnit, key: String) -> Double? {
        guard let amount = ingredient.amount, amount > 0 else { return nil }
        let own = ingredient.unit ?? .piece
        if own == unit { return amount }
        if let millilitres = UnitSizes.millilitres[own], let each = UnitSizes.millilitres[unit] { return amount * millilitres / each }
        guard let grams = QuantityWeighing.weight(of: amount, own, key: key, defaultPortionGrams: nil)?.grams,
            let each = QuantityWeighing.weight(of: 1, unit, key: key, defaultPortionGrams: nil)?.grams, each > 0
        else { return nil }
        return grams / each
    }

    private static func cents(_ value: Double) -> Double {
        (value * 100).rounded() / 100
    }
}
