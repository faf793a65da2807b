import KiwiAPIClient

/// A scan answer as text for a terminal. A fridge scan's recipes are numbered `[1]`, `[2]`…, in the answer's order: the
/// number `kiwi save SCAN N` takes.
enum ScanPrinter {
    static func text(_ response: Components.Schemas.ScanResponse) -> String {
        if response.mode == .dish { return dishText(response) }
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
        var lines = ["", "[\(number)] \(recipe.name) — \(recipe.cookTimeMinutes) min, \(recipe.difficulty.rawValue)", "  \(recipe.summary)"]
        for ingredient in recipe.ingredients {
            let missing = ingredient.isDetected ? "" : " (not in the photo\(ingredient.substitution.map { "; or use \($0)" } ?? ""))"
            lines.append("  - \(ingredient.name)\(missing)")
        }
        for (number, step) in recipe.steps.enumerated() { lines.append("  \(number + 1). \(step)") }
        if let tip = recipe.makeItFasterTip { lines.append("  Faster: \(tip)") }
        return lines
    }

    /// A dish scan: the dish, and its recipe with quantities.
    private static func dishText(_ response: Components.Schemas.ScanResponse) -> String {
        guard let dish = response.dish else { return "No dish found in this photo." }
        var lines = ["\(dish.name) (\(dish.cuisine), \(Int((dish.confidence * 100).rounded())) % sure)"]
        if let recipe = dish.recipe {
            lines.append("\(recipe.cookTimeMinutes) min, \(recipe.difficulty.rawValue), serves \(recipe.servings)")
            lines.append("  \(recipe.summary)")
            for ingredient in recipe.ingredients { lines.append("  - \(ingredient.quantity) \(ingredient.name)") }
            for (number, step) in recipe.steps.enumerated() { lines.append("  \(number + 1). \(step)") }
            if let tip = recipe.makeItFasterTip { lines.append("  Faster: \(tip)") }
        }
        return (lines + withheldLines(response)).joined(separator: "\n")
    }

    private static func withheldLines(_ response: Components.Schemas.ScanResponse) -> [String] {
        let withheld = response.withheldRecipes ?? []
        guard !withheld.isEmpty else { return [] }
        return ["", "Left out for your profile:"] + withheld.map { "  • \($0.name): \($0.reason)" }
    }
}
