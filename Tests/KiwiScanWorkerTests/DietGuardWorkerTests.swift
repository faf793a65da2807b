import Foundation
import KiwiDevelopment
import KiwiModels
import KiwiScanJobs
import KiwiScans
import KiwiTestSupport
import Testing

@testable import KiwiLLMStub
@testable import KiwiScanWorker

/// The worker makes each answer for the job's profile and guards it, against RabbitMQ, PostgreSQL and the stub, whose
/// answers the tests dictate.
@Suite("Scan worker: profile and allergen guard", .timeLimit(.minutes(2)))
struct DietGuardWorkerTests {
    let photo = SyntheticJPEG.make(size: 16 * 1024, seed: 71)
    let treeNuts = KitchenProfile(allergies: [.treeNuts], dislikes: ["olives"], maxCookTimeMinutes: 20)
    let pesto = ModelAnswers.Dish("Pasta with pesto", ingredients: ["spaghetti", "basil pesto"])
    let salad = ModelAnswers.Dish("Tomato salad", ingredients: ["tomatoes", "olive oil"])
    let lemonPasta = ModelAnswers.Dish("Lemon pasta", ingredients: ["spaghetti", "lemon", "olive oil"])

    /// The outcome of a scan of `photo` made for `profile`, and the requests the stub received.
    func scan(profile: KitchenProfile?, answers: [String]) async throws -> (ScanResponse, [ReceivedRequest]) {
        try await WorkerRig.run(behaviour: StubBehaviour(answers: answers)) { rig in
            var job = try await rig.reserve(photo)
            job.profile = profile
            try await rig.submit(job)
            guard case .ok(let response) = try await rig.outcome(of: job.scanID, within: .seconds(25)) else {
                throw ScanMissing()
            }
            return (response, rig.stub.snapshot.recent)
        }
    }

    @Test("the profile reaches the model as structured constraints beside the photo, and the answer says it was applied")
    func profileReachesPrompt() async throws {
        let (response, received) = try await scan(profile: treeNuts, answers: [ModelAnswers.fridge([salad])])
        #expect(received.count == 1)
        let text = try #require(received.first?.parameters.userTexts.first)
        #expect(text.contains(#"{"allergies":["tree nuts"],"dislikes":["olives"],"maxCookTimeMinutes":20}"#))
        #expect(response.appliedProfile == treeNuts)
        #expect(response.withheldRecipes.isEmpty)
    }

    @Test("without a profile the request has no constraints, nothing is guarded and appliedProfile is null")
    func noProfileNoGuard() async throws {
        let (response, received) = try await scan(profile: nil, answers: [ModelAnswers.fridge([pesto])])
        #expect(received.count == 1)
        #expect(received.first?.parameters.userTexts == [])
        #expect(response.appliedProfile == nil)
        #expect(response.recipes.map(\.name) == ["Pasta with pesto"])
    }

    @Test("a recipe that breaks an allergy gets one repair call, and the repaired answer is the one shown")
    func repairReplacesViolation() async throws {
        let (response, received) = try await scan(
            profile: treeNuts,
            answers: [ModelAnswers.fridge([pesto, salad]), ModelAnswers.fridge([lemonPasta, salad])]
        )
        #expect(received.count == 2)
        let repair = try #require(received.last?.parameters.userTexts.last)
        #expect(repair.contains(#"recipe 1 ("Pasta with pesto") uses "basil pesto" in ingredient 2"#))
        #expect(repair.contains("allergic to tree nuts"))
        #expect(response.recipes.map(\.name) == ["Lemon pasta", "Tomato salad"])
        #expect(response.withheldRecipes.isEmpty)
    }

    @Test("a recipe that still breaks an allergy after the repair is withheld, never shown, and the answer says why")
    func stillViolatingIsWithheld() async throws {
        let (response, received) = try await scan(profile: treeNuts, answers: [ModelAnswers.fridge([pesto, salad])])
        #expect(received.count == 2)
        #expect(response.recipes.map(\.name) == ["Tomato salad"])
        #expect(response.withheldRecipes == [WithheldRecipe(name: "Pasta with pesto", reason: "It uses basil pesto, which contains tree nuts.")])
    }

    @Test("when the repair's answer cannot be used, the first answer is kept without the recipe that broke the profile")
    func unusableRepairKeepsGuardedFirstAnswer() async throws {
        let (response, received) = try await scan(profile: treeNuts, answers: [ModelAnswers.fridge([pesto, salad]), "not JSON"])
        #expect(received.count == 2)
        #expect(response.recipes.map(\.name) == ["Tomato salad"])
        #expect(response.withheldRecipes.map(\.name) == ["Pasta with pesto"])
    }
}
