import KiwiModels

/// Quantities as a cook reads them, for the share page, the text export and the CLI: "1 ½ cups", "⅛ tsp", "250 g",
/// "2 cloves"; a count has no unit word, so that the line reads "2 eggs".
public enum QuantityText {
    /// The quantity's text; nil when there is no amount (and not `to taste`), so the name stands alone.
    public static func of(_ amount: Double?, _ unit: QuantityUnit?) -> String? {
        if unit == .toTaste { return "to taste" }
        guard let amount else { return nil }
        let unit = unit ?? .piece
        let number = UnitSizes.isMetric(unit) ? decimal(amount) : fraction(amount)
        guard let word = word(unit, plural: amount > 1) else { return number }
        return "\(number) \(word)"
    }

    /// The ingredient's line: "1 ½ cups flour", "2 eggs", "salt, to taste", or the name alone without a quantity.
    public static func line(_ ingredient: RecipeIngredient) -> String {
        if ingredient.unit == .toTaste { return "\(ingredient.name), to taste" }
        guard let quantity = of(ingredient.amount, ingredient.unit) else { return ingredient.name }
        return "\(quantity) \(ingredient.name)"
    }

    /// The unit's word; nil for a count.
    static func word(_ unit: QuantityUnit, plural: Bool) -> String? {
        switch unit {
        case .piece: nil
        case .cup, .clove, .slice, .can, .pack: plural ? "\(unit.rawValue)s" : unit.rawValue
        case .pinch, .bunch: plural ? "\(unit.rawValue)es" : unit.rawValue
        case .g, .kg, .ml, .l, .tsp, .tbsp, .oz, .lb, .fluidOunce, .toTaste: unit.rawValue
        }
    }

    /// The vulgar fractions a measuring set has, in eighths and thirds.
    static let fractions: [(value: Double, glyph: String)] = [
        (1.0 / 8, "⅛"), (1.0 / 4, "¼"), (1.0 / 3, "⅓"), (3.0 / 8, "⅜"), (1.0 / 2, "½"), (5.0 / 8, "⅝"), (2.0 / 3, "⅔"),
        (3.0 / 4, "¾"), (7.0 / 8, "⅞"),
    ]

    /// "1 ½", "⅛", "3"; an amount between the fractions as a decimal.
    static func fraction(_ amount: Double) -> String {
        let tolerance = 0.02
        var whole = amount.rounded(.down)
        var part = amount - whole
        if part > 1 - tolerance {
            whole += 1
            part = 0
        }
        if part < tolerance { return decimal(whole) }
        guard let glyph = fractions.first(where: { abs($0.value - part) < tolerance })?.glyph else { return decimal(amount) }
        return whole == 0 ? glyph : "\(decimal(whole)) \(glyph)"
    }

    /// At most two decimals, no trailing zeros: "250", "1.25", "0.3".
    static func decimal(_ amount: Double) -> String {
        let hundredths = Int((amount * 100).rounded())
        let whole = "\(hundredths / 100)"
        let cents = hundredths % 100
        guard cents != 0 else { return whole }
        let digits = cents % 10 == 0 ? "\(cents / 10)" : (cents < 10 ? "0\(cents)" : "\(cents)")
        return "\(whole).\(digits)"
    }
}
