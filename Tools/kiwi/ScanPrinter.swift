import KiwiAPIClient

/// A scan answer as text for a terminal. A fridge scan's recipes are numbered `[1]`, `[2]`…, in the answer's order: the
/// number `kiwi save SCAN N` takes.
enum ScanPrinter {
    static func text(_ response: Components.Schemas.ScanResponse) -> String {
        if response.mode == .dish { return dishText(response) }
        guard !response.ingredients.isEmpty || !response.recipes.isEmpty || !(response.withheldRecipes ?? []).isEmpty else {
            return "No food found in this photo."
        }
        var lines = ["In your fridge:"]
        for ingredient in response.ingredients {
            lines.append("  • \(ingredient.name) (\(ingredient.category), \(Int((ingredient.confidence * 100).rounded())) % sure)")
        }
        for (number, recipe) in response.recipes.enumerated() {
            lines.append("")
            lines.append("[\(number + 1)] \(recipe.name) — \(recipe.cookTimeMinutes) min, \(recipe.difficulty.rawValue)")
            lines.append("  \(recipe.summary)")
            for ingredient in recipe.ingredients {
                let missing = ingredient.isDetected ? "" : " (not in the photo\(ingredient.substitution.map { "; or use \($0)" } ?? ""))"
                lines.append("  - \(ingredient.name)\(missing)")
            }
            for (number, step) in recipe.steps.enumerated() { lines.append("  \(number + 1). \(step)") }
            if let tip = recipe.makeItFasterTip { lines.append("  Faster: \(tip)") }
        }
        return (lines + withheldLines(response)).joined(separator: "\n")
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
