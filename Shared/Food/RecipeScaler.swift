import KiwiModels

/// An amount of a unit, as a recipe ingredient gives it.
public struct Quantity: Sendable, Hashable {
    public var amount: Double
    public var unit: QuantityUnit

    public init(_ amount: Double, _ unit: QuantityUnit) {
        self.amount = amount
        self.unit = unit
    }
}

/// Scales a recipe to another number of servings and converts it between metric and US units, rounding each amount to
/// a step a cook can measure (docs/architecture.md, "Quantities, scaling and nutrition"). Pure: the gateway applies it
/// to a stored recipe on each request, and never stores the result.
public enum RecipeScaler {
    /// The recipe for `servings` people (its own number when nil), in `units` (its own units when nil); nil when the
    /// recipe has no `servings` (saved before Kiwi wrote quantities), so there is nothing to scale from. An amount the
    /// request leaves as it was (same servings, same unit) is not rounded. The nutrition per serving stays; its
    /// `servings` becomes the new number.
    public static func scale(_ recipe: Recipe, to servings: Int?, units: UnitSystem?) -> Recipe? {
        guard let ownServings = recipe.servings else { return nil }
        let target = servings ?? ownServings
        let factor = Double(target) / Double(ownServings)
        var scaled = recipe
        scaled.servings = target
        scaled.nutrition?.servings = target
        for index in scaled.ingredients.indices {
            let ingredient = scaled.ingredients[index]
            guard let amount = ingredient.amount, ingredient.unit != .toTaste else { continue }
            let quantity = scale(Quantity(amount, ingredient.unit ?? .piece), by: factor, units: units)
            scaled.ingredients[index].amount = quantity.amount
            scaled.ingredients[index].unit = ingredient.unit == nil && quantity.unit == .piece ? nil : quantity.unit
        }
        return scaled
    }

    /// `quantity` times `factor`, in `units` (its own when nil), rounded to a measurable step; as it was when neither
    /// changes it.
    public static func scale(_ quantity: Quantity, by factor: Double, units: UnitSystem?) -> Quantity {
        let converted = convert(Quantity(quantity.amount * factor, quantity.unit), to: units)
        guard factor != 1 || converted.unit != quantity.unit else { return quantity }
        return rounded(converted)
    }

    /// `quantity` in `units`, unrounded: metric turns cups and fluid ounces into millilitres and ounces and pounds
    /// into grams; US turns grams into ounces (pounds from 1 lb) and millilitres into teaspoons, tablespoons or cups
    /// by size. Teaspoons and tablespoons, counts and `to taste` are the same in both.
    public static func convert(_ quantity: Quantity, to units: UnitSystem?) -> Quantity {
        switch (units, quantity.unit) {
        case (.metric, .cup), (.metric, .fluidOunce):
            Quantity(quantity.amount * UnitSizes.millilitres[quantity.unit]!, .ml)
        case (.metric, .oz), (.metric, .lb):
            Quantity(quantity.amount * UnitSizes.grams[quantity.unit]!, .g)
        case (.us, .g), (.us, .kg):
            usWeight(grams: quantity.amount * UnitSizes.grams[quantity.unit]!)
        case (.us, .ml), (.us, .l):
            usVolume(millilitres: quantity.amount * UnitSizes.millilitres[quantity.unit]!)
        default:
            quantity
        }
    }

    /// `quantity` rounded to a step a cook can measure:
    /// - tsp, tbsp and cup to ¼ (cups also to ⅓ and ⅔, which US cup sets have); below ¼ tsp to ⅛ tsp, at least ⅛;
    ///   less than ¼ cup becomes tablespoons and less than 1 tbsp teaspoons first;
    /// - fl oz to ½; oz to ½ (below 1 oz to ¼), 16 oz and more become pounds, to ¼ lb;
    /// - g and ml to 1 below 10, to 5 below 100, else to 10, at least 1; 1000 and more become kg or l;
    /// - pieces, cloves, slices, cans, packs, bunches and pinches whole, at least 1; `to taste` as it is.
    public static func rounded(_ quantity: Quantity) -> Quantity {
        let amount = quantity.amount
        switch quantity.unit {
        case .cup where amount < 0.25:
            return rounded(Quantity(amount * 16, .tbsp))
        case .tbsp where amount < 1:
            return rounded(Quantity(amount * 3, .tsp))
        case .tsp where amount < 0.25:
            return Quantity(max(step(amount, 0.125), 0.125), .tsp)
        case .tsp, .tbsp:
            return Quantity(step(amount, 0.25), quantity.unit)
        case .cup:
            return Quantity(nearestCupMeasure(amount), .cup)
        case .fluidOunce:
            return Quantity(max(step(amount, 0.5), 0.5), .fluidOunce)
        case .oz where amount >= 16:
            return rounded(Quantity(amount / 16, .lb))
        case .oz:
            return Quantity(amount < 1 ? max(step(amount, 0.25), 0.25) : step(amount, 0.5), .oz)
        case .lb where amount < 1:
            return rounded(Quantity(amount * 16, .oz))
        case .lb:
            return Quantity(step(amount, 0.25), .lb)
        case .kg, .l:
            return rounded(Quantity(amount * 1000, quantity.unit == .kg ? .g : .ml))
        case .g, .ml:
            let metric = max(step(amount, amount < 10 ? 1 : amount < 100 ? 5 : 10), 1)
            guard metric >= 1000 else { return Quantity(metric, quantity.unit) }
            return Quantity(metric / 1000, quantity.unit == .g ? .kg : .l)
        case .piece, .clove, .slice, .can, .pack, .bunch, .pinch:
            return Quantity(max(step(amount, 1), 1), quantity.unit)
        case .toTaste:
            return quantity
        }
    }

    /// Ounces, or pounds from 16 oz.
    static func usWeight(grams: Double) -> Quantity {
        let ounces = grams / UnitSizes.grams[.oz]!
        return ounces >= 16 ? Quantity(ounces / 16, .lb) : Quantity(ounces, .oz)
    }

    /// Teaspoons below 1 tbsp, tablespoons below ¼ cup, else cups.
    static func usVolume(millilitres: Double) -> Quantity {
        let tablespoon = UnitSizes.millilitres[.tbsp]!
        let cup = UnitSizes.millilitres[.cup]!
        if millilitres < tablespoon { return Quantity(millilitres / UnitSizes.millilitres[.tsp]!, .tsp) }
        if millilitres < cup / 4 { return Quantity(millilitres / tablespoon, .tbsp) }
        return Quantity(millilitres / cup, .cup)
    }

    /// `amount` to the nearest multiple of `size`, halves away from zero.
    static func step(_ amount: Double, _ size: Double) -> Double {
        (amount / size).rounded(.toNearestOrAwayFromZero) * size
    }

    /// Whole cups and the fractions a US cup set measures: ¼, ⅓, ½, ⅔, ¾.
    static func nearestCupMeasure(_ amount: Double) -> Double {
        let whole = amount.rounded(.down)
        let fractions = [0, 0.25, 1.0 / 3, 0.5, 2.0 / 3, 0.75, 1]
        let fraction = fractions.min { abs(whole + $0 - amount) < abs(whole + $1 - amount) }!
        return whole + fraction
    }
}
