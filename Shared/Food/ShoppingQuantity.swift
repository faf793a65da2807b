import KiwiModels

/// How much of one food a shopping list asks for (docs/architecture.md, "The pantry and the shopping list"): what its
/// recipes need, summed in one unit by the scaler's conversions (``UnitSizes``, ``QuantityWeighing``), less what the
/// pantry holds, rounded as a cook measures (``RecipeScaler/rounded(_:)``).
public enum ShoppingQuantity {
    /// `quantities` of the food `key` in one unit, unrounded: their own when they share it; else millilitres when all
    /// are volumes; else grams when each weighs, exactly or by the food's density or typical piece; else nil, as they
    /// do not add up. `to taste` adds nothing; nil for none.
    public static func sum(_ quantities: [Quantity], key: String) -> Quantity? {
        let measured = quantities.filter { $0.unit != .toTaste }
        guard let first = measured.first else { return nil }
        if measured.allSatisfy({ $0.unit == first.unit }) { return Quantity(measured.reduce(0) { $0 + $1.amount }, first.unit) }
        if let volume = total(measured, by: millilitres) { return Quantity(volume, .ml) }
        return total(measured, by: { grams(of: $0, key: key) }).map { Quantity($0, .g) }
    }

    /// What is left to buy of `needed` of the food `key` when the pantry holds `held`, rounded; nil when `held` covers
    /// it, or when the two cannot be compared (two packs of rice against 200 g): the pantry holds the food, in an
    /// amount Kiwi cannot weigh, and is taken to hold enough, as a pantry item without an amount is.
    public static func remaining(_ needed: Quantity, after held: Quantity, key: String) -> Quantity? {
        guard let common = sum([needed, held], key: key) else { return nil }
        guard let need = amount(of: needed, in: common.unit, key: key), let have = amount(of: held, in: common.unit, key: key),
            need > have
        else { return nil }
        return RecipeScaler.rounded(Quantity(need - have, common.unit))
    }

    /// How many of `unit` `quantity` of the food `key` is: its own amount in that unit, else converted by volume, else
    /// by weight (the food's density, typical piece or can); nil when it does not convert. What a recipe's cost counts
    /// its ingredients by, in the unit each was bought by (``RecipeCosting``).
    public static func amount(of quantity: Quantity, in unit: QuantityUnit, key: String) -> Double? {
        if quantity.unit == unit { return quantity.amount }
        if let volume = millilitres(of: quantity), let each = UnitSizes.millilitres[unit] { return volume / each }
        guard let weight = grams(of: quantity, key: key), let each = grams(of: Quantity(1, unit), key: key), each > 0 else { return nil }
        return weight / each
    }

    /// The sum of what `measure` makes of each of `quantities`; nil when it makes nothing of one.
    private static func total(_ quantities: [Quantity], by measure: (Quantity) -> Double?) -> Double? {
        var total = 0.0
        for quantity in quantities {
            guard let value = measure(quantity) else { return nil }
            total += value
        }
        return total
    }

    private static func millilitres(of quantity: Quantity) -> Double? {
        UnitSizes.millilitres[quantity.unit].map { quantity.amount * $0 }
    }

    private static func grams(of quantity: Quantity, key: String) -> Double? {
        QuantityWeighing.weight(of: quantity.amount, quantity.unit, key: key, defaultPortionGrams: nil)?.grams
    }
}
