import Foundation
import KiwiFood
import KiwiModels

/// The public page of a shared recipe (`/r/{token}`): plain HTML for a phone's browser, with the recipe's
/// schema.org JSON-LD for recipe managers and Open Graph tags for link previews. It has no script, loads nothing
/// from anywhere, and shows nothing of its owner: not the note, not the rating, not who saved it.
enum RecipeSharePage {
    /// The page's `Content-Security-Policy`: nothing may load or run but its own inline style (the JSON-LD block is
    /// data, which no policy needs to allow).
    static let contentSecurityPolicy = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    static func html(_ shared: SharedRecipe) throws -> String {
        let recipe = shared.recipe.recipe
        // No `<` at all inside the script element (`</script>` would end it, `<!--` change how it is read): JSON
        // allows `\u003c` in its place.
        let jsonLD = String(decoding: try RecipeExport.jsonLD(shared.recipe), as: UTF8.self).replacingOccurrences(of: "<", with: "\\u003c")
        let ingredients = recipe.ingredients.map { ingredient in
            var line = "<li>" + escaped(QuantityText.line(ingredient))
            if !ingredient.isDetected {
                line += " <span class=\"missing\">(missing"
                if let substitution = ingredient.substitution { line += " — use " + escaped(substitution) }
                line += ")</span>"
            }
            return line + "</li>"
        }
        let steps = recipe.steps.enumerated().map { index, step in
            let time = RecipeExport.stepMinutes(recipe, index).map { " <span class=\"time\">(" + RecipeExport.minutesText($0) + ")</span>" }
            return "<li>" + escaped(step) + (time ?? "") + "</li>"
        }
        let meta = (recipe.servings.map { ["Serves \($0)"] } ?? []) + ["Ready in \(recipe.cookTimeMinutes) min", recipe.difficulty.rawValue]
        let tip = recipe.makeItFasterTip.map { "<p class=\"tip\"><strong>Make it faster:</strong> " + escaped($0) + "</p>" }
        return """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(escaped(recipe.name)) · Kiwi</title>
            <meta name="description" content="\(escaped(recipe.summary))">
            <meta property="og:type" content="article">
            <meta property="og:site_name" content="Kiwi">
            <meta property="og:title" content="\(escaped(recipe.name))">
            <meta property="og:description" content="\(escaped(recipe.summary))">
            <meta name="robots" content="noindex">
            <script type="application/ld+json">\(jsonLD)</script>
            <style>
            body { font: 17px/1.5 -apple-system, system-ui, sans-serif; margin: 0 auto; max-width: 40rem; padding: 1rem 1.25rem 3rem; color: #1d2a1f; }
            h1 { font-size: 1.6rem; line-height: 1.2; margin: 1rem 0 0.25rem; }
            h2 { font-size: 1.1rem; margin: 1.5rem 0 0.5rem; }
            .meta { color: #5b6b5e; margin: 0 0 1rem; }
            .missing { color: #8a5a00; }
            .time { color: #5b6b5e; white-space: nowrap; }
            .nutrition { border-collapse: collapse; width: 100%; }
            .nutrition caption { caption-side: bottom; color: #5b6b5e; font-size: 0.85rem; text-align: left; padding-top: 0.35rem; }
            .nutrition th, .nutrition td { border-bottom: 1px solid #dfe7dc; padding: 0.3rem 0; text-align: left; font-weight: normal; }
            .nutrition td { text-align: right; }
            .tip { background: #eef6e9; border-radius: 0.5rem; padding: 0.75rem 1rem; }
            ol li, ul li { margin: 0.35rem 0; }
            footer { color: #5b6b5e; font-size: 0.85rem; margin-top: 2rem; }
            </style>
            </head>
            <body>
            <main>
            <h1>\(escaped(recipe.name))</h1>
            <p class="meta">\(meta.joined(separator: " · "))</p>
            <p>\(escaped(recipe.summary))</p>
            <h2>Ingredients</h2>
            <ul>
            \(ingredients.joined(separator: "\n"))
            </ul>
            <h2>Steps</h2>
            <ol>
            \(steps.joined(separator: "\n"))
            </ol>
            \(recipe.nutrition.map(nutritionTable) ?? "")
            \(tip ?? "")
            </main>
            <footer>A quick recipe from Kiwi.</footer>
            </body>
            </html>

            """
    }

    /// The nutrition per serving as a table whose caption says it is an estimate from FoodData Central and what it
    /// leaves out; a value that leaves an ingredient out reads "at least".
    static func nutritionTable(_ nutrition: RecipeNutrition) -> String {
        let rows = NutrientRow.rows(nutrition.perServing).map { row in
            let value = (row.status == .partial ? "at least " : "") + row.amount
            return "<tr><th scope=\"row\">\(escaped(row.name.prefix(1).uppercased() + row.name.dropFirst()))</th><td>\(value)</td></tr>"
        }
        let caption = (["Per serving, \(nutrition.source)."] + [RecipeExport.caveat(nutrition)].compactMap(\.self)).joined(separator: " ")
        return """
            <h2>Nutrition per serving</h2>
            <table class="nutrition">
            <caption>\(escaped(caption))</caption>
            \(rows.joined(separator: "\n"))
            </table>
            """
    }

    /// `text` safe in HTML text and in double-quoted attributes.
    static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.append(character)
            }
        }
        return result
    }
}
