import Foundation
import KiwiModels
import KiwiNutrition
import Testing

/// Ingredient lines as recipes write them (states, pieces, volumes, brands, plurals), each weighed by hand from a named
/// FoodData Central row by a helper that had not read the matcher (`Fixtures/blind-ingredient-lines.json` says how):
/// unlike the reference recipes, whose rows the curated synonyms name, they measure the matching itself
/// (docs/operations.md, "Nutrition").
@Suite("Nutrition on the blind ingredient lines")
struct BlindIngredientLinesTests {
    struct Line: Decodable {
        var line: String
        var name: String
        var amount: Double
        var unit: QuantityUnit
        var servings: Int
        var expected: [String: Double]
    }

    struct Batch: Decodable {
        var lines: [Line]
    }

    /// The nutrients the lines are worked out for, by the fixture's names.
    static let nutrients: [(Nutrient, String)] = [
        (.energyKcal, "energyKcal"), (.proteinG, "proteinG"), (.fatG, "fatG"), (.carbohydrateG, "carbohydrateG"), (.sodiumMg, "sodiumMg"),
    ]

    static func batch(_ name: String) throws -> [Line] {
        let url = try #require(Bundle.module.url(forResource: "Fixtures/\(name)", withExtension: "json"))
        return try JSONDecoder().decode(Batch.self, from: Data(contentsOf: url)).lines
    }

    /// A line's estimate and its error per nutrient: |estimate − expected| over the expected value, or over the
    /// reference recipes' absolute allowance where the expected value is smaller (salt's energy, oil's protein).
    struct Outcome {
        var line: Line
        var nutrition: RecipeNutrition
        var errors: [Nutrient: Double]

        /// The worst status of the five nutrients the line is worked out for: a food that reports no sugars makes the
        /// sugars partial, not the energy.
        var status: NutritionStatus {
            BlindIngredientLinesTests.nutrients.map { nutrition.perServing[$0.0].status }.max() ?? .complete
        }
    }

    let estimator = NutritionEstimator(matcher: matcher)

    func outcomes(_ lines: [Line]) -> [Outcome] {
        lines.map { line in
            let nutrition = estimator.nutrition(
                of: [IngredientQuantity(name: line.name, amount: line.amount, unit: line.unit)],
                servings: line.servings
            )
            var errors: [Nutrient: Double] = [:]
            for (nutrient, name) in Self.nutrients {
                let expected = line.expected[name] ?? 0
                errors[nutrient] = abs(nutrition.perServing[nutrient].value - expected) / max(expected, allowance[nutrient]!)
            }
            return Outcome(line: line, nutrition: nutrition, errors: errors)
        }
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    static func describe(_ outcome: Outcome) -> String {
        let energy = outcome.nutrition.perServing.energyKcal
        let match = outcome.nutrition.ingredients.first
        return "\"\(outcome.line.line)\": \(energy.value) kcal (\(energy.status.rawValue)) for \(outcome.line.expected["energyKcal"] ?? 0), "
            + "from \(match?.food ?? "no food") at \(match?.grams ?? 0) g"
    }

    @Test("the first batch holds at least 60 lines")
    func largeEnough() throws {
        #expect(try Self.batch("blind-ingredient-lines").count >= 60)
    }

    /// Each nutrient's median and worst error over `outcomes`, and how many lines are of each status: the figures
    /// docs/measurements/ records, printed with every run.
    static func summary(_ outcomes: [Outcome]) -> String {
        let errors = nutrients.map { nutrient, name in
            let values = outcomes.map { $0.errors[nutrient]! }
            return String(format: "%@ median %.1f %% worst %.0f %%", name, median(values) * 100, (values.max() ?? 0) * 100)
        }
        let statuses = NutritionStatus.allCases.map { status in "\(status.rawValue) \(outcomes.count { $0.status == status })" }
        return "\(outcomes.count) lines: " + (errors + statuses).joined(separator: "; ")
    }

    @Test("the median energy error over every line is at most 10 %")
    func energyMedian() throws {
        let outcomes = outcomes(try Self.batch("blind-ingredient-lines"))
        print("blind-ingredient-lines: \(Self.summary(outcomes))")
        print("blind-ingredient-lines-2: \(Self.summary(self.outcomes(try Self.batch("blind-ingredient-lines-2"))))")
        let median = Self.median(outcomes.map { $0.errors[.energyKcal]! })
        let worst = outcomes.sorted { $0.errors[.energyKcal]! > $1.errors[.energyKcal]! }.prefix(15).map(Self.describe)
        #expect(median <= 0.10, "median \(median); the worst:\n\(worst.joined(separator: "\n"))")
    }

    @Test("no line whose energy is reported complete is more than 25 % off")
    func completeMeansRight() throws {
        let wrong = outcomes(try Self.batch("blind-ingredient-lines")).filter {
            $0.nutrition.perServing.energyKcal.status == .complete && $0.errors[.energyKcal]! > 0.25
        }
        #expect(wrong.isEmpty, "\(wrong.map(Self.describe).joined(separator: "\n"))")
    }

    @Test("at most 10 % of the lines are neither complete nor estimated")
    func fewPartial() throws {
        let outcomes = outcomes(try Self.batch("blind-ingredient-lines"))
        let partial = outcomes.filter { $0.status == .partial }
        #expect(Double(partial.count) <= 0.10 * Double(outcomes.count), "\(partial.map(Self.describe).joined(separator: "\n"))")
    }
}
