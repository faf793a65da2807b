import Foundation
import KiwiModels

/// A saved recipe in the forms other apps take: schema.org/Recipe JSON-LD, which recipe managers (Mealie, Tandoor,
/// anything built on `recipe-scrapers`) import, and plain text for a share sheet.
enum RecipeExport {
    /// schema.org/Recipe as JSON-LD (https://schema.org/Recipe). Times are ISO 8601 durations; ingredients are lines
    /// of text, a missing one followed by what to use instead; steps are `HowToStep`s, and the "make it faster" tip a
    /// closing `HowToTip`. There is no `recipeYield`: the model does not say how many a recipe serves.
    static func jsonLD(_ saved: SavedRecipe) throws -> Data {
        let recipe = saved.recipe
        var instructions = recipe.steps.enumerated().map { index, step in Instruction(type: "HowToStep", position: index + 1, text: step) }
        if let tip = recipe.makeItFasterTip { instructions.append(Instruction(type: "HowToTip", position: nil, text: "Make it faster: \(tip)")) }
        let document = SchemaRecipe(
            name: recipe.name,
            description: recipe.summary,
            totalTime: duration(minutes: recipe.cookTimeMinutes),
            cookTime: duration(minutes: recipe.cookTimeMinutes),
            recipeIngredient: recipe.ingredients.map(ingredientLine),
            recipeInstructions: instructions,
            keywords: ["quick", recipe.difficulty.rawValue].joined(separator: ", "),
            datePublished: QuotaPolicy.utcDay(of: saved.savedAt)
        )
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(document)
    }

    /// The recipe as a short text a person can read in any messenger: name, time, ingredients, steps and the tip.
    static func plainText(_ saved: SavedRecipe) -> String {
        let recipe = saved.recipe
        var lines = [recipe.name, "Ready in \(recipe.cookTimeMinutes) min · \(recipe.difficulty.rawValue)", ""]
        if !recipe.summary.isEmpty { lines += [recipe.summary, ""] }
        lines.append("Ingredients")
        lines += recipe.ingredients.map { "- " + ingredientLine($0) }
        lines += ["", "Steps"]
        lines += recipe.steps.enumerated().map { "\($0.offset + 1). \($0.element)" }
        if let tip = recipe.makeItFasterTip { lines += ["", "Make it faster: \(tip)"] }
        return lines.joined(separator: "\n") + "\n"
    }

    /// An ingredient as one line: its name, and for a missing one with a substitution, what to use instead.
    static func ingredientLine(_ ingredient: RecipeIngredient) -> String {
        guard !ingredient.isDetected, let substitution = ingredient.substitution else { return ingredient.name }
        return "\(ingredient.name) (or \(substitution))"
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
        let totalTime: String
        let cookTime: String
        let recipeIngredient: [String]
        let recipeInstructions: [Instruction]
        let keywords: String
        let datePublished: String

        enum CodingKeys: String, CodingKey {
            case context = "@context"
            case type = "@type"
            case name, description, totalTime, cookTime, recipeIngredient, recipeInstructions, keywords, datePublished
        }
    }

    private struct Instruction: Encodable {
        let type: String
        let position: Int?
        let text: String

        enum CodingKeys: String, CodingKey {
            case type = "@type"
            case position, text
        }
    }
}
