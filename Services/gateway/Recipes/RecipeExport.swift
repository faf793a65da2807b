import Foundation
import KiwiFood
import KiwiModels

/// A saved recipe in the forms other apps take: schema.org/Recipe JSON-LD, which recipe managers (Mealie, Tandoor,
/// anything built on `recipe-scrapers`) import, and plain text for a share sheet.
enum RecipeExport {
    /// schema.org/Recipe as JSON-LD (https://schema.org/Recipe). Times are ISO 8601 durations; ingredients are lines
    /// of text with their quantities, a missing one followed by what to use instead; steps are `HowToStep`s, with a
    /// `timeRequired` when the step waits on something, and the "make it faster" tip a closing `HowToTip`. A recipe
    /// with servings has a `recipeYield` ("4 servings") and, when estimated, its `nutrition` per serving as
    /// `NutritionInformation`, whose `description` says it is an estimate and what it leaves out. An older recipe has
    /// neither: it never said how many it serves.
    static func jsonLD(_ saved: SavedRecipe) throws -> Data {
        let recipe = saved.recipe
        var instructions = recipe.steps.enumerated().map { index, step in
            Instruction(type: "HowToStep", position: index + 1, text: step, timeRequired: stepMinutes(recipe, index).map(duration))
        }
        if let tip = recipe.makeItFasterTip {
            instructions.append(Instruction(type: "HowToTip", position: nil, text: "Make it faster: \(tip)", timeRequired: nil))
        }
        let document = SchemaRecipe(
            name: recipe.name,
            description: recipe.summary,
            recipeYield: recipe.servings.map(servingsText),
            totalTime: duration(minutes: recipe.cookTimeMinutes),
            cookTime: duration(minutes: recipe.cookTimeMinutes),
            recipeIngredient: recipe.ingredients.map(ingredientLine),
            recipeInstructions: instructions,
            nutrition: recipe.nutrition.map(NutritionInformation.init),
            keywords: ["quick", recipe.difficulty.rawValue].joined(separator: ", "),
            datePublished: QuotaPolicy.utcDay(of: saved.savedAt)
        )
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(document)
    }

    /// The recipe as a short text a person can read in any messenger: name, servings and time, ingredients with their
    /// quantities, steps with their timers, the nutrition per serving and the tip.
    static func plainText(_ saved: SavedRecipe) -> String {
        let recipe = saved.recipe
        let meta = (recipe.servings.map { ["Serves \($0)"] } ?? []) + ["Ready in \(recipe.cookTimeMinutes) min", recipe.difficulty.rawValue]
        var lines = [recipe.name, meta.joined(separator: " · "), ""]
        if !recipe.summary.isEmpty { lines += [recipe.summary, ""] }
        lines.append("Ingredients")
        lines += recipe.ingredients.map { "- " + ingredientLine($0) }
        lines += ["", "Steps"]
        lines += recipe.steps.enumerated().map { index, step in
            "\(index + 1). \(step)" + (stepMinutes(recipe, index).map { " (\(minutesText($0)))" } ?? "")
        }
        if let nutrition = recipe.nutrition {
            lines += ["", "Nutrition per serving, \(nutrition.source)", NutrientRow.rows(nutrition.perServing).map(\.text).joined(separator: " · ")]
            if let caveat = caveat(nutrition) { lines.append(caveat) }
        }
        if let tip = recipe.makeItFasterTip { lines += ["", "Make it faster: \(tip)"] }
        return lines.joined(separator: "\n") + "\n"
    }

    /// An ingredient as one line: its quantity and name ("1 ½ cups flour"), and for a missing one with a
    /// substitution, what to use instead.
    static func ingredientLine(_ ingredient: RecipeIngredient) -> String {
        let line = QuantityText.line(ingredient)
        guard !ingredient.isDetected, let substitution = ingredient.substitution else { return line }
        return "\(line) (or \(substitution))"
    }

    /// The minutes step `index` waits, when it has them.
    static func stepMinutes(_ recipe: Recipe, _ index: Int) -> Int? {
        guard let details = recipe.stepDetails, details.indices.contains(index) else { return nil }
        return details[index].durationMinutes
    }

    /// "1 serving", "4 servings".
    static func servingsText(_ servings: Int) -> String {
        servings == 1 ? "1 serving" : "\(servings) servings"
    }

    /// "45 min", "1 h 30 min".
    static func minutesText(_ minutes: Int) -> String {
        let (hours, rest) = minutes.quotientAndRemainder(dividingBy: 60)
        return [hours > 0 ? "\(hours) h" : nil, rest > 0 || hours == 0 ? "\(rest) min" : nil].compactMap(\.self).joined(separator: " ")
    }

    /// What the values leave out or assume, for a reader: the ingredients not counted (partial values, a lower
    /// bound) and those weighed from a typical portion; nil when nothing is.
    static func caveat(_ nutrition: RecipeNutrition) -> String? {
        var sentences: [String] = []
        if !nutrition.unmatched.isEmpty { sentences.append("Not counted: \(nutrition.unmatched.joined(separator: ", ")).") }
        if !nutrition.estimated.isEmpty { sentences.append("Weighed from a typical portion: \(nutrition.estimated.joined(separator: ", ")).") }
        return sentences.isEmpty ? nil : sentences.joined(separator: " ")
    }

    /// `PT15M`, `PT1H30M`: an ISO 8601 duration.
    static func duration(minutes: Int) -> String {
        let (hours, rest) = minutes.quotientAndRemainder(dividingBy: 60)
        return "PT" + (hours > 0 ? "\(hours)H" : "") + (rest > 0 || hours == 0 ? "\(rest)M" : "")
    }

    private struct SchemaRecipe: Encodable {
        let context = "https://schema.org"
        let type = "Recipe"
        let name: String
        let description: String
        let recipeYield: String?
        let totalTime: String
        let cookTime: String
        let recipeIngredient: [String]
        let recipeInstructions: [Instruction]
        let nutrition: NutritionInformation?
        let keywords: String
        let datePublished: String

        enum CodingKeys: String, CodingKey {
            case context = "@context"
            case type = "@type"
            case name, description, recipeYield, totalTime, cookTime, recipeIngredient, recipeInstructions, nutrition, keywords, datePublished
        }
    }

    private struct Instruction: Encodable {
        let type: String
        let position: Int?
        let text: String
        let timeRequired: String?

        enum CodingKeys: String, CodingKey {
            case type = "@type"
            case position, text, timeRequired
        }
    }

    /// schema.org/NutritionInformation, per serving, each value as text with its unit ("412 kcal", "600 mg").
    private struct NutritionInformation: Encodable {
        let type = "NutritionInformation"
        let servingSize = "1 serving"
        let description: String
        let calories: String
        let proteinContent: String
        let fatContent: String
        let saturatedFatContent: String
        let carbohydrateContent: String
        let sugarContent: String
        let fiberContent: String
        let sodiumContent: String

        init(_ nutrition: RecipeNutrition) {
            let values = nutrition.perServing
            description = (["Per serving, \(nutrition.source)."] + [caveat(nutrition)].compactMap(\.self)).joined(separator: " ")
            calories = NutrientRow.amount(values.energyKcal.value, "kcal")
            proteinContent = NutrientRow.amount(values.proteinG.value, "g")
            fatContent = NutrientRow.amount(values.fatG.value, "g")
            saturatedFatContent = NutrientRow.amount(values.saturatedFatG.value, "g")
            carbohydrateContent = NutrientRow.amount(values.carbohydrateG.value, "g")
            sugarContent = NutrientRow.amount(values.sugarsG.value, "g")
            fiberContent = NutrientRow.amount(values.fibreG.value, "g")
            sodiumContent = NutrientRow.amount(values.sodiumMg.value, "mg")
        }

        enum CodingKeys: String, CodingKey {
            case type = "@type"
            case servingSize, description, calories, proteinContent, fatContent, saturatedFatContent, carbohydrateContent, sugarContent
            case fiberContent, sodiumContent
        }
    }
}

/// One nutrient per serving as the page and the text show it: its name, its value with the unit, and its status.
struct NutrientRow: Sendable, Hashable {
    let name: String
    let amount: String
    let status: NutritionStatus

    /// "protein 20 g".
    var text: String { "\(name) \(amount)" }

    /// The label's nutrients in the label's order.
    static func rows(_ values: NutrientValues) -> [NutrientRow] {
        [
            ("energy", values.energyKcal, "kcal"), ("protein", values.proteinG, "g"), ("fat", values.fatG, "g"),
            ("saturated fat", values.saturatedFatG, "g"), ("carbohydrate", values.carbohydrateG, "g"), ("sugars", values.sugarsG, "g"),
            ("fibre", values.fibreG, "g"), ("sodium", values.sodiumMg, "mg"),
        ].map { NutrientRow(name: $0.0, amount: amount($0.1.value, $0.2), status: $0.1.status) }
    }

    /// "412 kcal", "3.5 g", "600 mg": kcal and mg whole, grams to one decimal.
    static func amount(_ value: Double, _ unit: String) -> String {
        let tenths = unit == "g" ? (value * 10).rounded() / 10 : value.rounded()
        let number = tenths == tenths.rounded() ? String(Int(tenths)) : String(tenths)
        return "\(number) \(unit)"
    }
}
