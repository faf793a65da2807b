import KiwiAPIClient

/// A scan answer as text for a terminal.
enum ScanPrinter {
    static func text(_ response: Components.Schemas.ScanResponse) -> String {
        guard !response.ingredients.isEmpty || !response.recipes.isEmpty || !(response.withheldRecipes ?? []).isEmpty else {
            return "No food found in this photo."
        }
        var lines = ["In your fridge:"]
        for ingredient in response.ingredients {
            lines.append("  • \(ingredient.name) (\(ingredient.category), \(Int((ingredient.confidence * 100).rounded())) % sure)")
        }
        for recipe in response.recipes {
            lines.append("")
            lines.append("\(recipe.name) — \(recipe.cookTimeMinutes) min, \(recipe.difficulty.rawValue)")
            lines.append("  \(recipe.summary)")
            for ingredient in recipe.ingredients {
                let missing = ingredient.isDetected ? "" : " (not in the photo\(ingredient.substitution.map { "; or use \($0)" } ?? ""))"
                lines.append("  - \(ingredient.name)\(missing)")
            }
            for (number, step) in recipe.steps.enumerated() { lines.append("  \(number + 1). \(step)") }
            if let tip = recipe.makeItFasterTip { lines.append("  Faster: \(tip)") }
        }
        let withheld = response.withheldRecipes ?? []
        if !withheld.isEmpty {
            lines.append("")
            lines.append("Left out for your profile:")
            for recipe in withheld { lines.append("  • \(recipe.name): \(recipe.reason)") }
        }
        return lines.joined(separator: "\n")
    }
}
