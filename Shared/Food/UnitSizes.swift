import KiwiModels

/// The exact sizes of the kitchen units, from NIST Handbook 44 (2024), Appendix C, "General Tables of Units of
/// Measurement": US customary volumes in millilitres and avoirdupois weights in grams (docs/architecture.md,
/// "Quantities, scaling and nutrition"). Scaling, unit conversion and weighing all read them from here.
public enum UnitSizes {
    /// Millilitres in one of each volume unit. 1 cup = 8 fl oz = 16 tbsp = 48 tsp (US customary).
    public static let millilitres: [QuantityUnit: Double] = [
        .ml: 1, .l: 1000, .tsp: 4.928_921_593_75, .tbsp: 14.786_764_781_25, .cup: 236.588_236_5, .fluidOunce: 29.573_529_562_5,
    ]

    /// Grams in one of each weight unit. 1 lb = 16 oz (avoirdupois).
    public static let grams: [QuantityUnit: Double] = [.g: 1, .kg: 1000, .oz: 28.349_523_125, .lb: 453.592_37]

    /// A pinch, as US cookbooks define it: 1/16 tsp.
    public static let pinchMillilitres = 4.928_921_593_75 / 16

    /// Whether `unit` is a metric one, written in decimals rather than fractions.
    public static func isMetric(_ unit: QuantityUnit) -> Bool {
        [.g, .kg, .ml, .l].contains(unit)
    }
}
