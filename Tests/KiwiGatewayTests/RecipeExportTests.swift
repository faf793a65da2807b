import Foundation
import KiwiModels
import Testing

@testable import KiwiGateway

/// The forms a saved recipe leaves Kiwi in: schema.org JSON-LD and plain text, and which one `Accept` picks.
@Suite("Recipe export")
struct RecipeExportTests {
    static func saved(_ recipe: Recipe = RecipesRouterTests.omelette) -> SavedRecipe {
        SavedRecipe(
            id: UUID(),
            scanId: UUID(),
            savedAt: Date(timeIntervalSince1970: 1_795_000_000),
            recipe: recipe,
            detectedIngredients: [],
            note: "private",
            rating: 5
        )
    }

    @Test("cooking times become ISO 8601 durations", arguments: [(10, "PT10M"), (60, "PT1H"), (75, "PT1H15M"), (0, "PT0M")])
    func durations(minutes: Int, expected: String) {
        #expect(RecipeExport.duration(minutes: minutes) == expected)
    }

    @Test("the JSON-LD is a schema.org Recipe with times, ingredient lines, numbered HowToSteps and the tip")
    func jsonLD() throws {
        let document = try #require(try JSONSerialization.jsonObject(with: RecipeExport.jsonLD(Self.saved())) as? [String: Any])
        #expect(document["@context"] as? String == "https://schema.org")
        #expect(document["@type"] as? String == "Recipe")
        #expect(document["totalTime"] as? String == "PT10M")
        #expect(document["cookTime"] as? String == "PT10M")
        #expect(document["recipeIngredient"] as? [String] == ["eggs", "feta (or any crumbly cheese)"])
        let steps = try #require(document["recipeInstructions"] as? [[String: Any]])
        #expect(steps.map { $0["@type"] as? String } == ["HowToStep", "HowToStep", "HowToTip"])
        #expect(steps[1]["position"] as? Int == 2)
        #expect(steps[2]["text"] as? String == "Make it faster: Use a small pan.")
        #expect(document["datePublished"] as? String == "2026-11-18")
        // The user's own note and rating stay private.
        #expect(!String(decoding: try RecipeExport.jsonLD(Self.saved()), as: UTF8.self).contains("private"))
    }

    @Test("the share text of a recipe with every field lists time, summary, ingredients, numbered steps and the tip")
    func textWithEveryField() {
        #expect(
            RecipeExport.plainText(Self.saved()) == """
                Spinach Omelette
                Ready in 10 min · easy

                A quick, filling omelette.

                Ingredients
                - eggs
                - feta (or any crumbly cheese)

                Steps
                1. Whisk the eggs.
                2. Cook with the feta until set.

                Make it faster: Use a small pan.

                """
        )
    }

    @Test("the share text of a recipe without a tip ends with its last step")
    func textWithoutTip() {
        let text = RecipeExport.plainText(Self.saved(RecipesRouterTests.salad))
        #expect(text.hasSuffix("Steps\n1. Wilt the spinach.\n"))
        #expect(!text.contains("Make it faster"))
    }

    @Test(
        "Accept picks the form with the highest q, the first among equals; */* and no Accept mean JSON",
        arguments: [
            ([], RecipeFormat.json), (["*/*"], .json), (["application/ld+json"], .jsonLD), (["text/plain, application/json"], .text),
            (["application/json;q=0.5, text/plain;q=0.9"], .text), (["text/html, application/*"], .json), (["image/png"], nil),
            (["application/ld+json;q=0"], nil),
        ] as [([String], RecipeFormat?)]
    )
    func acceptNegotiation(accept: [String], expected: RecipeFormat?) {
        #expect(RecipeFormat.preferred(by: accept) == expected)
    }
}

@Suite("Recipe share page")
struct RecipeSharePageTests {
    @Test("the model's text is escaped in the page, and the JSON-LD cannot close its script element")
    func textEscaped() throws {
        var recipe = RecipesRouterTests.omelette
        recipe.name = #"<script>alert("x")</script> & 'co'"#
        recipe.steps = ["Stir </script><script>alert(1)</script>"]
        let saved = SavedRecipe(id: UUID(), scanId: UUID(), savedAt: Date(), recipe: recipe, detectedIngredients: [], note: nil, rating: nil)
        let html = try RecipeSharePage.html(SharedRecipe(recipe: saved, share: RecipeShare(token: "t", sharedAt: Date())))
        #expect(html.contains("<h1>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;co&#39;</h1>"))
        #expect(html.components(separatedBy: "<script").count == 2)
        #expect(html.components(separatedBy: "</script>").count == 2)
    }
}
