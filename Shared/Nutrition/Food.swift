/// The eight nutrients Kiwi reports, in the order of ``NutrientValues`` and of the nutrition table's columns.
public enum Nutrient: Int, Sendable, Hashable, CaseIterable {
    case energyKcal, proteinG, fatG, saturatedFatG, carbohydrateG, sugarsG, fibreG, sodiumMg
}

/// One food of USDA FoodData Central as Kiwi's nutrition table keeps it (the `foods` table, derived by
/// deploy/local/derive-nutrition-table.py): named by its dataset and description, which are unique together, since
/// the extract Kiwi derives from has no FDC ids.
public struct Food: Sendable, Hashable {
    /// `foundation`, `sr_legacy` or `survey_fndds`.
    public let dataset: String
    /// FoodData Central's description ("Onions, raw").
    public let description: String
    public let category: String
    /// Per 100 g, by ``Nutrient``'s raw value; nil where FoodData Central does not report the nutrient for this food.
    public let per100g: [Double?]
    /// The weight of FoodData Central's first portion of this food, used for a piece when no piece weight is known.
    public let portionGrams: Double?

    public init(dataset: String, description: String, category: String, per100g: [Double?], portionGrams: Double?) {
        precondition(per100g.count == Nutrient.allCases.count, "one value per nutrient")
        self.dataset = dataset
        self.description = description
        self.category = category
        self.per100g = per100g
        self.portionGrams = portionGrams
    }

    public subscript(nutrient: Nutrient) -> Double? { per100g[nutrient.rawValue] }
}

/// The foods of the nutrition table.
public struct FoodTable: Sendable {
    public let foods: [Food]

    /// The table as the committed TSV (Shared/Database/fdc-foods.tsv) writes it: `#` lines are provenance, every other
    /// line is a food's dataset, description, category, the eight nutrients per 100 g (empty: unknown), portion grams
    /// and portion unit. The tests and the bench read it so, and the worker its rows in PostgreSQL, written in this form.
    public init(tsv: String) throws(FoodTableError) {
        var foods: [Food] = []
        for (number, line) in tsv.split(separator: "\n", omittingEmptySubsequences: true).enumerated() where !line.hasPrefix("#") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 5 + Nutrient.allCases.count else { throw FoodTableError(line: number + 1) }
            var values: [Double?] = []
            for field in fields[3..<(3 + Nutrient.allCases.count)] {
                if field.isEmpty {
                    values.append(nil)
                } else if let value = Double(field) {
                    values.append(value)
                } else {
                    throw FoodTableError(line: number + 1)
                }
            }
            let portion = fields[3 + Nutrient.allCases.count]
            foods.append(Food(dataset: fields[0], description: fields[1], category: fields[2], per100g: values, portionGrams: Double(portion)))
        }
        self.foods = foods
    }
}

/// A line of the nutrition table that is not a food.
public struct FoodTableError: Error, Hashable {
    /// The line's number, from 1.
    public let line: Int
}
