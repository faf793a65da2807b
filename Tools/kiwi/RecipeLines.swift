import KiwiAPIClient
import KiwiFood
import KiwiModels

/// The parts of a recipe that `kiwi scan`, `kiwi recipe show` and `kiwi cook` print alike: amounts with their units,
/// step timers and the nutrition estimate, always with its source (the API's rule: an estimate is never shown as a
/// measurement).
enum RecipeLines {
    /// "2", "0.3", "12.5": to one decimal, without a trailing zero.
    static func decimal(_ value: Double) -> String {
        let tenths = (value * 10).rounded() / 10
        return tenths == tenths.rounded() ? String(Int(tenths)) : String(tenths)
    }

    /// An ingredient as a shopping line reads, as the share page and the text export write it (``QuantityText``):
    /// "200 g spaghetti", "1 ½ tbsp olive oil", "4 eggs", "salt, to taste", or the bare name without an amount.
    static func ingredient(_ name: String, amount: Double?, unit: Components.Schemas.QuantityUnit?) -> String {
        if unit == .toTaste { return "\(name), to taste" }
        guard let quantity = QuantityText.of(amount, unit.flatMap { QuantityUnit(rawValue: $0.rawValue) }) else { return name }
        return "\(quantity) \(name)"
    }

    /// A saved recipe's conflicts with the profile as it is now, each in its own words, under one warning: said before
    /// anything else of the recipe, so that nobody starts cooking it unwarned.
    static func conflicts(_ reasons: [String]) -> [String] {
        guard !reasons.isEmpty else { return [] }
        return ["Careful: this recipe does not fit your profile as it is now."] + reasons.map { "  ! \($0)" }
    }

    /// "45 min", "1 h", "1 h 30 min".
    static func duration(minutes: Int) -> String {
        switch (minutes / 60, minutes % 60) {
        case (0, let minutes): "\(minutes) min"
        case (let hours, 0): "\(hours) h"
        case (let hours, let minutes): "\(hours) h \(minutes) min"
        }
    }

    /// The steps, numbered from 1, each with its timer when it waits on something.
    static func steps(_ steps: [String], details: [Components.Schemas.StepDetail]?) -> [String] {
        steps.enumerated().map { number, step in
            let minutes = details.flatMap { number < $0.count ? $0[number].durationMinutes : nil }
            return "  \(number + 1). \(step)" + (minutes.map { " [timer: \(duration(minutes: $0))]" } ?? "")
        }
    }

    /// What the recipe costs at the pantry's prices, in all and a serving, and what it leaves out for want of a price.
    static func cost(_ cost: Components.Schemas.RecipeCost) -> [String] {
        let unpriced = cost.unpriced.isEmpty ? "" : ", without " + cost.unpriced.map(\.name).joined(separator: ", ")
        return [
            "  Costs about \(ScanPrinter.money(cost.total, cost.currency)), \(ScanPrinter.money(cost.perServing, cost.currency)) a "
                + "serving\(unpriced)"
        ]
    }

    /// Nutrition per serving under its source and status, then the ingredients it leaves out, when it does.
    static func nutrition(_ nutrition: Components.Schemas.RecipeNutrition) -> [String] {
        let values = nutrition.perServing
        func grams(_ amount: Components.Schemas.NutrientAmount) -> String { "\(decimal(amount.value)) g" }
        let figures = [
            "\(Int(values.energyKcal.value.rounded())) kcal",
            "protein \(grams(values.proteinG))",
            "fat \(grams(values.fatG)) (saturated \(grams(values.saturatedFatG)))",
            "carbohydrate \(grams(values.carbohydrateG)) (sugars \(grams(values.sugarsG)))",
            "fibre \(grams(values.fibreG))",
            "sodium \(Int(values.sodiumMg.value.rounded())) mg",
        ]
        let trust =
            switch nutrition.status {
            case .complete: "every ingredient counted"
            case .estimated: "some weights assumed"
            case .partial: "incomplete"
            }
        var lines = [
            "  Per serving (of \(nutrition.servings)), \(nutrition.source.rawValue), \(trust): " + figures.joined(separator: ", ")
        ]
        if !nutrition.unmatched.isEmpty { lines.append("  Not counted: \(nutrition.unmatched.joined(separator: ", "))") }
        return lines
    }
}
