import Foundation
import KiwiDevelopment
import KiwiModels
import KiwiTestSupport
import NIOHTTP1
import Testing

@testable import KiwiLLMStub

/// Quantities, scaling, step timers and nutrition through the three real services and the stub's answers
/// (docs/architecture.md, "Quantities, scaling and nutrition"): what a scan answers, what a saved copy scales to, and
/// what `kiwi` prints and cooks from it.
@Suite("Quantities, scaling and nutrition end to end", .serialized, .timeLimit(.minutes(3)))
struct QuantitiesEndToEndTests {
    let photo = SyntheticJPEG.make(size: 16 * 1024, seed: 142)

    @Test("a scan's recipes have servings, an amount or to taste for every ingredient, a detail per step, and nutrition estimated from FDC")
    func scanHasQuantitiesAndNutrition() async throws {
        try await SystemRig.run { rig in
            let scan = try await rig.finishedScan(photo, token: try await rig.signIn())
            let recipes = try #require(scan.result?.recipes)
            #expect(!recipes.isEmpty)
            for recipe in recipes {
                #expect(recipe.servings == 2, "\(recipe.name): the prompt's servings without a profile")
                #expect(recipe.ingredients.allSatisfy { ($0.amount != nil) != ($0.unit == .toTaste) }, "\(recipe.name)")
                #expect(recipe.stepDetails?.count == recipe.steps.count, "\(recipe.name)")
                let nutrition = try #require(recipe.nutrition, "\(recipe.name) has no nutrition")
                #expect(nutrition.source == "estimated from USDA FoodData Central")
                #expect(nutrition.servings == recipe.servings)
                #expect(nutrition.perServing.energyKcal.value > 0, "\(recipe.name)")
                #expect(nutrition.ingredients.map(\.name) == recipe.ingredients.map(\.name))
                let toTaste = recipe.ingredients.filter { $0.unit == .toTaste }.map(\.name)
                #expect(Set(toTaste).isSubset(of: nutrition.unmatched), "\(recipe.name): an amount to taste cannot be counted")
                #expect((nutrition.status == .partial) == !nutrition.unmatched.isEmpty, "\(recipe.name): \(nutrition.status)")
            }
            #expect(recipes.contains { $0.stepDetails?.contains { $0.durationMinutes != nil } == true }, "no recipe has a timed step")
        }
    }

    @Test("a saved recipe is scaled by servings and converted to US units, its nutrition per serving unchanged; bad values are 400")
    func savedRecipeScales() async throws {
        try await SystemRig.run { rig in
            let token = try await rig.signIn()
            let scan = try await rig.finishedScan(photo, token: token)
            let recipe = try #require(scan.result?.recipes.first { $0.ingredients.contains { $0.unit == .piece } })
            let (status, saved) = try await rig.saveRecipe(recipe, of: scan, token: token)
            #expect(status == 201)
            #expect(saved.recipe == recipe, "the saved copy keeps quantities and nutrition")
            let path = "/v1/recipes/\(saved.id.uuidString.lowercased())"

            let doubled = try await rig.savedRecipe(path + "?servings=4", token: token).recipe
            #expect(doubled.servings == 4)
            for (scaled, original) in zip(doubled.ingredients, recipe.ingredients) where original.unit == .piece {
                #expect(scaled.amount == original.amount.map { $0 * 2 }, "\(original.name): whole pieces double")
            }

            let american = try await rig.savedRecipe(path + "?servings=4&units=us", token: token).recipe
            #expect(american.servings == 4)
            let metric: Set<QuantityUnit> = [.g, .kg, .ml, .l]
            #expect(american.ingredients.allSatisfy { $0.unit.map { !metric.contains($0) } ?? true }, "\(american.ingredients)")
            #expect(american.nutrition?.servings == 4)
            #expect(american.nutrition?.perServing == recipe.nutrition?.perServing)

            for query in ["servings=0", "servings=25", "servings=two", "units=imperial"] {
                let refused = try await rig.send(.GET, "\(path)?\(query)", token: token)
                #expect(refused.status == 400, "\(query)")
                #expect(try refused.json()["error"] as? String == "bad_request", "\(query)")
            }
        }
    }

    @Test("a recipe saved from an answer without quantities reads as before, and asking to scale it is 409 recipe_not_scalable")
    func olderRecipeIsNotScalable() async throws {
        let soup = ModelAnswers.Dish("Leek soup", ingredients: ["leeks", "potatoes"])
        try await SystemRig.run(behaviour: StubBehaviour(answers: [ModelAnswers.fridge([soup], ingredients: ["leeks"])])) { rig in
            let token = try await rig.signIn()
            let scan = try await rig.finishedScan(photo, token: token)
            let recipe = try #require(scan.result?.recipes.first)
            #expect(recipe.servings == nil && recipe.nutrition == nil && recipe.stepDetails == nil)
            let path = "/v1/recipes/\(try await rig.saveRecipe(recipe, of: scan, token: token).saved.id.uuidString.lowercased())"
            let plain = try await rig.send(.GET, path, token: token)
            #expect(plain.status == 200)
            #expect((try plain.json()["recipe"] as? [String: Any])?.keys.contains("servings") == false)
            for query in ["servings=4", "units=us"] {
                let refused = try await rig.send(.GET, "\(path)?\(query)", token: token)
                #expect(refused.status == 409, "\(query)")
                #expect(try refused.json()["error"] as? String == "recipe_not_scalable", "\(query)")
            }
        }
    }

    @Test("kiwi recipe show prints the scaled recipe with its nutrition source, and kiwi cook walks its steps to the end")
    func cliShowsAndCooks() async throws {
        try await SystemRig.run { rig in
            let cli = try CLITests.CLI(server: rig.gateway)
            #expect(try await cli.logIn().status == 0)
            let photoFile = CLITests.temporaryFile(photo)
            #expect(try await cli.run(["scan", photoFile.path, "--blocking"]).status == 0)
            let scanID = try #require(try await cli.run(["scans"]).output.split(separator: " ").first.map(String.init))
            let savedID = try #require(CLITests.savedID(try await cli.run(["save", scanID, "1"]).output))

            let shown = try await cli.run(["recipe", "show", savedID, "--servings", "4", "--units", "us"])
            #expect(shown.status == 0, "\(shown.output)")
            #expect(shown.output.contains(", serves 4\n"), "\(shown.output)")
            #expect(shown.output.contains("estimated from USDA FoodData Central"), "\(shown.output)")
            #expect(try await cli.run(["recipe", "show", savedID, "--servings", "0"]).status == 64)

            // Every prompt answered with "s": each timer is skipped, so the walk takes no time.
            let cooked = try await cli.run(["cook", savedID], input: String(repeating: "s\n", count: 40))
            #expect(cooked.status == 0, "\(cooked.output)")
            #expect(cooked.output.contains("Step 1 of "), "\(cooked.output)")
            #expect(cooked.output.contains("Done: enjoy your "), "\(cooked.output)")
        }
    }
}

extension SystemRig {
    /// `GET path` of a saved recipe, which must answer 200.
    func savedRecipe(_ path: String, token: String) async throws -> SavedRecipe {
        let answer = try await send(.GET, path, token: token)
        try #require(answer.status == 200, "\(path) answered \(answer.status): \(String(decoding: answer.body, as: UTF8.self))")
        return try KiwiJSON.decoder().decode(SavedRecipe.self, from: answer.body)
    }
}

extension CLITests.CLI {
    /// Runs `kiwi` as ``run(_:xdgConfigHome:in:)`` does, with `input` as its standard input.
    func run(_ arguments: [String], input: String) async throws -> (status: Int32, output: String) {
        let environment = ["KIWI_SERVER=\(server.absoluteString)", "HOME=\(home.path)", "XDG_CONFIG_HOME=\(home.appending(path: "config").path)"]
        return try await runProgram(
            "/usr/bin/env",
            environment + [ServiceProcess.buildDirectory.appending(path: "kiwi").path] + arguments,
            input: Data(input.utf8),
            includingStandardError: true
        )
    }
}
