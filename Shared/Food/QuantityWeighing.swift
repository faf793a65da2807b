import KiwiModels

/// What an ingredient's quantity weighs, and whether that weight rests on an assumption.
public struct Weighing: Sendable, Hashable {
    public var grams: Double
    /// True when a typical piece, a can's usual size or an assumed density of 1 g/ml was used: nutrition counted from
    /// it is `estimated`, never `complete`.
    public var isEstimated: Bool

    public init(grams: Double, isEstimated: Bool) {
        self.grams = grams
        self.isEstimated = isEstimated
    }
}

/// Weighs recipe quantities for the nutrition estimate, from the tables of ``UnitSizes``, ``FoodDensity`` and
/// ``PieceWeight``, each row citing its source (docs/architecture.md, "Quantities, scaling and nutrition").
public enum QuantityWeighing {
    /// The usual size of a can of food in Europe and the US (400 g; 14.5 oz in the US is within 3 %).
    public static let canGrams = 400.0

    /// nil when it cannot be weighed: `to taste`, no amount, or a unit with no known weight for this food.
    ///
    /// Weights (g, kg, oz, lb) are exact. Volumes are weighed with the food's density from ``FoodDensity/table``, or
    /// 1 g/ml (estimated) for a food not in it; a pinch is 1/16 tsp of it (estimated). A piece, clove or slice weighs
    /// the food's ``PieceWeight/pieces`` row, else `defaultPortionGrams` (a portion weight of the matched food), both
    /// estimated. A can is ``canGrams``; a bunch or pack weighs its table row or cannot be weighed. An amount without a
    /// unit counts pieces. `key` is the ingredient's ``IngredientKey``.
    public static func weight(of amount: Double?, _ unit: QuantityUnit?, key: String, defaultPortionGrams: Double?) -> Weighing? {
        guard let amount, amount > 0 else { return nil }
        let unit = unit ?? .piece
        if let grams = UnitSizes.grams[unit] {
            return Weighing(grams: amount * grams, isEstimated: false)
        }
        let density = FoodDensity.byKey[key]
        if let millilitres = UnitSizes.millilitres[unit] {
            return Weighing(grams: amount * millilitres * (density ?? 1), isEstimated: density == nil)
        }
        let eachGrams: Double? =
            switch unit {
            case .piece, .clove, .slice: PieceWeight.pieceGrams[key] ?? defaultPortionGrams
            case .pinch: UnitSizes.pinchMillilitres * (density ?? 1)
            case .can: canGrams
            case .bunch: PieceWeight.bunchGrams[key]
            case .pack: PieceWeight.packGrams[key]
            case .toTaste, .g, .kg, .oz, .lb, .ml, .l, .tsp, .tbsp, .cup, .fluidOunce: nil
            }
        return eachGrams.map { Weighing(grams: amount * $0, isEstimated: true) }
    }
}
