import Foundation
import KiwiAPIClient

/// A scan answer as text for a terminal. A fridge scan's recipes are numbered `[1]`, `[2]`…, in the answer's order: the
/// number `kiwi save SCAN N` takes.
enum ScanPrinter {
    static func text(_ response: Components.Schemas.ScanResponse) -> String {
        if response.mode == .dish { return dishText(response) }
        if let receipt = response.receipt { return receiptText(receipt) }
        guard !response.ingredients.isEmpty || !response.recipes.isEmpty || !(response.withheldRecipes ?? []).isEmpty else {
            return "No food found in this photo."
        }
        var lines = ingredientLines(response.ingredients)
        for (number, recipe) in response.recipes.enumerated() { lines += recipeLines(recipe, number: number + 1) }
        return (lines + withheldLines(response)).joined(separator: "\n")
    }

    /// A fridge scan's ingredients, under their heading.
    static func ingredientLines(_ ingredients: [Components.Schemas.Ingredient]) -> [String] {
        ["In your fridge:"]
            + ingredients.map { "  • \($0.name) (\($0.category), \(Int(($0.confidence * 100).rounded())) % sure)" }
    }

    /// A fridge scan's recipe, `number` from 1, after a blank line.
    static func recipeLines(_ recipe: Components.Schemas.Recipe, number: Int) -> [String] {
        ["", "[\(number)] \(recipe.name) — \(headline(recipe))"] + recipeBody(recipe)
    }

    /// "25 min, easy", and the servings when the recipe has quantities.
    static func headline(_ recipe: Components.Schemas.Recipe) -> String {
        "\(recipe.cookTimeMinutes) min, \(recipe.difficulty.rawValue)" + (recipe.servings.map { ", serves \($0)" } ?? "")
    }

    /// A recipe's summary, ingredients with their amounts, timed steps, tip, nutrition per serving and cost.
    static func recipeBody(_ recipe: Components.Schemas.Recipe) -> [String] {
        var lines = ["  \(recipe.summary)"]
        for ingredient in recipe.ingredients {
            let missing = ingredient.isDetected ? "" : " (not in the photo\(ingredient.substitution.map { "; or use \($0)" } ?? ""))"
            lines.append("  - \(RecipeLines.ingredient(ingredient.name, amount: ingredient.amount, unit: ingredient.unit))\(missing)")
        }
        lines += RecipeLines.steps(recipe.steps, details: recipe.stepDetails)
        if let tip = recipe.makeItFasterTip { lines.append("  Faster: \(tip)") }
        return lines + (recipe.nutrition.map(RecipeLines.nutrition) ?? []) + (recipe.cost.map(RecipeLines.cost) ?? [])
    }

    /// A saved recipe: its name and headline, its conflicts with the profile as it is now, then what a scan shows of it,
    /// and the person's note and rating.
    static func savedRecipeText(_ saved: Components.Schemas.SavedRecipe) -> String {
        var lines = ["\(saved.recipe.name) — \(headline(saved.recipe))"] + RecipeLines.conflicts(saved.conflicts.map(\.reason))
        lines += recipeBody(saved.recipe)
        if let note = saved.note { lines.append("  Your note: \(note)") }
        if let rating = saved.rating { lines.append("  Your rating: " + String(repeating: "★", count: rating)) }
        return lines.joined(separator: "\n")
    }

    /// A dish scan: the dish, and its recipe with quantities.
    private static func dishText(_ response: Components.Schemas.ScanResponse) -> String {
        guard let dish = response.dish else { return "No dish found in this photo." }
        var lines = ["\(dish.name) (\(dish.cuisine), \(Int((dish.confidence * 100).rounded())) % sure)"]
        if let recipe = dish.recipe {
            lines.append("\(recipe.cookTimeMinutes) min, \(recipe.difficulty.rawValue), serves \(recipe.servings)")
            lines.append("  \(recipe.summary)")
            for ingredient in recipe.ingredients { lines.append("  - \(ingredient.quantity) \(ingredient.name)") }
            lines += RecipeLines.steps(recipe.steps, details: recipe.stepDetails)
            if let tip = recipe.makeItFasterTip { lines.append("  Faster: \(tip)") }
            lines += recipe.nutrition.map(RecipeLines.nutrition) ?? []
            lines += recipe.cost.map(RecipeLines.cost) ?? []
        }
        return (lines + withheldLines(response)).joined(separator: "\n")
    }

    /// A receipt scan: its lines numbered `[1]`, `[2]`… (the numbers `kiwi pantry add-from` takes), then the shop, the
    /// day and the total, and whether the lines add up to it.
    private static func receiptText(_ receipt: Components.Schemas.Receipt) -> String {
        var lines = [receiptHeading] + receipt.lines.enumerated().map { receiptLine($1, number: $0 + 1) }
        let when = [receipt.date, receipt.time].compactMap { $0 }.joined(separator: " ")
        lines.append("")
        lines.append([receipt.storeName, when.isEmpty ? nil : when].compactMap { $0 }.joined(separator: ", "))
        lines.append("Total: \(money(receipt.total, receipt.currency))")
        if let mismatch = receipt.totalMismatch {
            lines.append(
                "The lines add up to \(money(mismatch.linesTotal, receipt.currency)), not the printed total: check the lines before "
                    + "adding them to your pantry."
            )
        }
        return lines.joined(separator: "\n")
    }

    /// What a receipt's lines are printed under.
    static let receiptHeading = "On the receipt:"

    /// One line of a receipt, `number` from 1: its total and printed text, and what a food line adds to a pantry.
    static func receiptLine(_ line: Components.Schemas.ReceiptLine, number: Int) -> String {
        let unit = line.unit.flatMap { Components.Schemas.QuantityUnit(rawValue: $0.rawValue) }
        let food = line.name.map { " → " + RecipeLines.ingredient($0, amount: line.quantity, unit: unit) } ?? ""
        let kind = line.kind == .food ? "" : " (\(line.kind.rawValue))"
        return "  [\(number)] \(String(format: "%8.2f", line.total))  \(line.text)\(food)\(kind)"
    }

    /// An amount of money with its currency's code: "2.19 EUR".
    static func money(_ amount: Double, _ currency: String) -> String {
        "\(String(format: "%.2f", amount)) \(currency)"
    }

    private static func withheldLines(_ response: Components.Schemas.ScanResponse) -> [String] {
        let withheld = response.withheldRecipes ?? []
        guard !withheld.isEmpty else { return [] }
        return ["", "Left out for your profile:"] + withheld.map { "  • \($0.name): \($0.reason)" }
    }
}
