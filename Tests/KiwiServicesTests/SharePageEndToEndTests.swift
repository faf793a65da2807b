import Foundation
import KiwiDevelopment
import KiwiModels
import KiwiTestSupport
import NIOHTTP1
import Testing

@testable import KiwiGateway

/// Shared recipe pages through the real services, read the way other software reads them: recipe-scrapers (what
/// Mealie and Tandoor import with) and a headless Chromium.
@Suite("Shared recipe pages end to end")
struct SharePageEndToEndTests {
    /// Saves and shares every recipe of one real scan; returns each recipe with its page's path.
    func sharedRecipes(_ rig: SystemRig, token: String, seed: UInt64) async throws -> [(recipe: Recipe, page: String)] {
        let scan = try await rig.finishedScan(SyntheticJPEG.make(size: 16 * 1024, seed: seed), token: token)
        var shared: [(Recipe, String)] = []
        for recipe in scan.result?.recipes ?? [] {
            let saved = try await rig.saveRecipe(recipe, of: scan, token: token).saved
            let answer = try await rig.send(.POST, "/v1/recipes/\(saved.id.uuidString.lowercased())/share", token: token)
            shared.append((recipe, try KiwiJSON.decoder().decode(RecipeShareLink.self, from: answer.body).url.path))
        }
        try #require(!shared.isEmpty)
        return shared
    }

    @Test("recipe-scrapers reads every shared page back with the recipe's title, total time, yield, ingredients, steps and nutrients")
    func recipeScrapersReadsPages() async throws {
        let python = try testTool("KIWI_TEST_PYTHON")
        let reader = ServiceProcess.checkout.appending(path: "Tests/Scripts/read_recipe.py").path
        try await SystemRig.run { rig in
            let token = try await rig.signIn()
            let shared = try await sharedRecipes(rig, token: token, seed: 11) + sharedRecipes(rig, token: token, seed: 12)
            for (recipe, page) in shared {
                let html = try await rig.send(.GET, page)
                #expect(html.status == 200)
                let run = try await runProgram(python, [reader, rig.gateway.absoluteString + page], input: html.body)
                try #require(run.status == 0, "\(run.output)")
                let read = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
                #expect(read["title"] as? String == recipe.name)
                #expect(read["total_time"] as? Int == recipe.cookTimeMinutes)
                #expect(read["ingredients"] as? [String] == recipe.ingredients.map(RecipeExport.ingredientLine))
                #expect(read["instructions"] as? [String] == recipe.steps)
                #expect(read["yields"] as? String == recipe.servings.map { "\($0) servings" })
                let nutrients = try #require(read["nutrients"] as? [String: String])
                let nutrition = try #require(recipe.nutrition, "\(recipe.name) has no nutrition")
                #expect(nutrients["calories"] == "\(Int(nutrition.perServing.energyKcal.value.rounded())) kcal")
                #expect(nutrients["sodiumContent"] == "\(Int(nutrition.perServing.sodiumMg.value.rounded())) mg")
                #expect(nutrients["servingSize"] == "1 serving")
                #expect(nutrients["description"]?.contains("estimated from USDA FoodData Central") == true)
            }
            let (recipe, page) = try #require(shared.first)
            let scaled = try await rig.send(.GET, page + "?servings=\(2 * (recipe.servings ?? 1))")
            let run = try await runProgram(python, [reader, rig.gateway.absoluteString + page], input: scaled.body)
            let read = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
            #expect(read["yields"] as? String == "\(2 * (recipe.servings ?? 1)) servings")
        }
    }

    @Test("a saved recipe's JSON-LD is a schema.org Recipe with NutritionInformation and HowToSteps timed in ISO 8601, in schema.org's terms")
    func jsonLDIsSchemaOrgRecipe() async throws {
        try await SystemRig.run { rig in
            let token = try await rig.signIn()
            let scan = try await rig.finishedScan(SyntheticJPEG.make(size: 16 * 1024, seed: 14), token: token)
            let recipe = try #require(scan.result?.recipes.first { $0.stepDetails?.contains { $0.durationMinutes != nil } == true })
            let saved = try await rig.saveRecipe(recipe, of: scan, token: token).saved
            let answer = try await rig.send(
                .GET,
                "/v1/recipes/\(saved.id.uuidString.lowercased())",
                token: token,
                headers: [("Accept", "application/ld+json")]
            )
            #expect(answer.status == 200)
            let document = try #require(try JSONSerialization.jsonObject(with: answer.body) as? [String: Any])
            #expect(document["@context"] as? String == "https://schema.org")
            #expect(document["@type"] as? String == "Recipe")
            #expect(Set(document.keys).subtracting(["@context", "@type"]).isSubset(of: SchemaOrg.recipe), "\(document.keys)")
            #expect(document["recipeYield"] as? String == "\(try #require(recipe.servings)) servings")

            let nutrition = try #require(document["nutrition"] as? [String: Any])
            #expect(nutrition["@type"] as? String == "NutritionInformation")
            #expect(Set(nutrition.keys).subtracting(["@type"]) == SchemaOrg.nutritionInformation)

            let steps = try #require(document["recipeInstructions"] as? [[String: Any]]).filter { $0["@type"] as? String == "HowToStep" }
            #expect(steps.count == recipe.steps.count)
            for (step, detail) in zip(steps, try #require(recipe.stepDetails)) {
                #expect(Set(step.keys).subtracting(["@type"]).isSubset(of: SchemaOrg.howToStep))
                #expect(step["timeRequired"] as? String == detail.durationMinutes.map(RecipeExport.duration))
            }
            #expect(steps.contains { ($0["timeRequired"] as? String)?.wholeMatch(of: /PT(\d+H)?(\d+M)?/) != nil })
        }
    }

    @Test("headless Chromium renders the page with the recipe and nothing of its owner, and gets no page once it is withdrawn")
    func chromiumRendersPage() async throws {
        let chromium = try testTool("KIWI_TEST_CHROMIUM")
        try await SystemRig.run { rig in
            let token = try await rig.signIn(email: "page-owner@example.com")
            let (recipe, page) = try #require(try await sharedRecipes(rig, token: token, seed: 13).first)
            let url = rig.gateway.absoluteString + page
            let profile = FileManager.default.temporaryDirectory.appending(path: "kiwi-chromium-\(UUID().uuidString)").path
            defer { try? FileManager.default.removeItem(atPath: profile) }
            let arguments = [
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run", "--user-data-dir=\(profile)",
                "--dump-dom", url,
            ]
            let rendered = try await runProgram(chromium, arguments)
            try #require(rendered.status == 0, "\(rendered.output.suffix(2000))")
            let dom = rendered.output
            #expect(dom.contains(SerializedDOM.text(recipe.name)))
            for step in recipe.steps { #expect(dom.contains(SerializedDOM.text(step))) }
            #expect(dom.components(separatedBy: "<script").count == 2, "a script besides the JSON-LD")
            #expect(!dom.contains("page-owner@example.com"))

            let saved = try await rig.send(.GET, "/v1/recipes", token: token)
            let id = try #require(
                try KiwiJSON.decoder().decode(SavedRecipeList.self, from: saved.body).recipes.first { $0.recipe.id == recipe.id }?.id
            )
            #expect(try await rig.send(.DELETE, "/v1/recipes/\(id.uuidString.lowercased())/share", token: token).status == 204)
            let withdrawn = try await runProgram(chromium, arguments)
            #expect(!withdrawn.output.contains(SerializedDOM.text(recipe.name)))
            #expect(withdrawn.output.contains("not_found"))
        }
    }
}

/// The schema.org properties (https://schema.org) of the types Kiwi's JSON-LD uses, as far as it may use them.
enum SchemaOrg {
    /// Recipe's own and those it inherits from HowTo, CreativeWork and Thing.
    static let recipe: Set<String> = [
        "name", "description", "recipeYield", "totalTime", "cookTime", "prepTime", "recipeIngredient", "recipeInstructions", "nutrition",
        "keywords", "datePublished", "recipeCategory", "recipeCuisine", "image", "author",
    ]
    /// NutritionInformation's, and Thing's `description`.
    static let nutritionInformation: Set<String> = [
        "servingSize", "description", "calories", "proteinContent", "fatContent", "saturatedFatContent", "carbohydrateContent", "sugarContent",
        "fiberContent", "sodiumContent",
    ]
    /// HowToStep's, inherited from ListItem (`position`) and CreativeWork (`text`, `timeRequired`) and Thing.
    static let howToStep: Set<String> = ["position", "text", "timeRequired", "name", "url", "image"]
}

/// Text as a browser serializes it in a text node (`--dump-dom`): `&`, `<` and `>` escaped, quotes left as they are
/// (unlike the page's source, which escapes them too).
enum SerializedDOM {
    static func text(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }
}
