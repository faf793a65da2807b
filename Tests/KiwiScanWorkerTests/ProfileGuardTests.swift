import KiwiModels
import KiwiScans
import KiwiTestSupport
import Testing

@testable import KiwiScanWorker

@Suite("Guarding an answer against the user's profile")
struct ProfileGuardTests {
    let profileGuard = ProfileGuard(metrics: WorkerMetrics())
    let treeNuts = KitchenProfile(allergies: [.treeNuts])
    let pesto = ModelAnswers.Dish("Pasta with pesto", ingredients: ["spaghetti", "basil pesto"])
    let salad = ModelAnswers.Dish("Tomato salad", ingredients: ["tomatoes", "olive oil"])
    let lemonPasta = ModelAnswers.Dish("Lemon pasta", ingredients: ["spaghetti", "lemon", "olive oil"])

    /// `answer` guarded against `profile`, the guard's repair answered with `repaired`; and the repairs asked for.
    func guarded(
        _ answer: ValidAnswer,
        profile: KitchenProfile?,
        repaired: Result<ValidAnswer, ScanFailure>
    ) async -> (ScanResponse, [ScanPrompt.Repair]) {
        var asked: [ScanPrompt.Repair] = []
        let response = await profileGuard.guarded(answer, profile: profile, labels: RecipeLabels(), logger: testLogger) { repair in
            asked.append(repair)
            return repaired
        }
        return (response, asked)
    }

    @Test("an answer that keeps the profile is shown as it is, says the profile was applied, and asks nothing more")
    func keepsProfile() async throws {
        let (response, asked) = await guarded(try PipelineFixtures.validAnswer([salad]), profile: treeNuts, repaired: .failure(noAnswer))
        #expect(asked.isEmpty)
        #expect(response.recipes.map(\.name) == ["Tomato salad"] && response.withheldRecipes.isEmpty)
        #expect(response.appliedProfile == treeNuts)
    }

    @Test("without a profile nothing is guarded, yet each recipe is labelled with its allergens")
    func noProfile() async throws {
        let (response, asked) = await guarded(try PipelineFixtures.validAnswer([pesto]), profile: nil, repaired: .failure(noAnswer))
        #expect(asked.isEmpty)
        #expect(response.appliedProfile == nil)
        #expect(response.recipes.first?.allergens?.contains(.treeNuts) == true)
    }

    @Test("a recipe that breaks an allergy sends the first answer back once, with what broke which rule; the repair is shown")
    func repairShown() async throws {
        let first = try PipelineFixtures.validAnswer([pesto, salad])
        let (response, asked) = await guarded(first, profile: treeNuts, repaired: .success(try PipelineFixtures.validAnswer([lemonPasta, salad])))
        #expect(asked.count == 1)
        #expect(asked.first?.previousAnswer == first.content)
        #expect(asked.first?.problem.contains(#"recipe 1 ("Pasta with pesto") uses "basil pesto" in ingredient 2"#) == true)
        #expect(response.recipes.map(\.name) == ["Lemon pasta", "Tomato salad"] && response.withheldRecipes.isEmpty)
    }

    @Test("a repair that still breaks the allergy has the recipe withheld, saying why")
    func stillBreaking() async throws {
        let first = try PipelineFixtures.validAnswer([pesto, salad])
        let (response, _) = await guarded(first, profile: treeNuts, repaired: .success(first))
        #expect(response.recipes.map(\.name) == ["Tomato salad"])
        #expect(response.withheldRecipes == [WithheldRecipe(name: "Pasta with pesto", reason: "It uses basil pesto, which contains tree nuts.")])
    }

    @Test("when the repair gets no valid answer, the first answer is kept without the recipe that broke the profile")
    func repairFailed() async throws {
        let (response, _) = await guarded(try PipelineFixtures.validAnswer([pesto, salad]), profile: treeNuts, repaired: .failure(noAnswer))
        #expect(response.recipes.map(\.name) == ["Tomato salad"])
        #expect(response.withheldRecipes.map(\.name) == ["Pasta with pesto"])
    }

    let noAnswer = ScanFailure(.invalidModelResponse, "The model's answer could not be used: not JSON.")
}
