import Foundation
import KiwiDevelopment
import KiwiModels
import KiwiScans
import KiwiStrictJSON
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
            guard case .ok(let response) = try await rig.outcome(of: job.scanID, within: WorkerRig.patience) else {
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

    @Test("without a profile each recipe still carries its allergens: what the model declares with what the lexicon finds")
    func allergensLabelEveryRecipe() async throws {
        let declared = ModelAnswers.Dish("Pasta with pesto", ingredients: ["spaghetti", "basil pesto"], allergens: [.sesame])
        let (response, _) = try await scan(profile: nil, answers: [ModelAnswers.fridge([declared])])
        let allergens = try #require(response.recipes.first?.allergens)
        #expect(allergens.contains(.sesame) && allergens.contains(.treeNuts))
        #expect(allergens == allergens.sorted { $0.rawValue < $1.rawValue })
    }

    @Test("a recipe whose declared allergens name the profile's allergy is withheld after one repair, though the lexicon finds nothing")
    func declarationWithholds() async throws {
        let fishy = ModelAnswers.Dish("Tomato salad", ingredients: ["tomatoes", "olive oil"], allergens: [.fish])
        let (response, received) = try await scan(profile: KitchenProfile(allergies: [.fish]), answers: [ModelAnswers.fridge([fishy, lemonPasta])])
        #expect(received.count == 2)
        #expect(try #require(received.last?.parameters.userTexts.last).contains("declares fish among its allergens"))
        #expect(response.recipes.map(\.name) == ["Lemon pasta"])
        #expect(response.withheldRecipes == [WithheldRecipe(name: "Tomato salad", reason: "It contains fish.")])
    }

    @Test("an answer that leaves out a recipe's allergens breaks the schema and gets the repair any such answer gets")
    func answerWithoutAllergensIsRepaired() async throws {
        var undeclared = try StrictJSONParser().parse(ModelAnswers.fridge([salad]))
        undeclared.set(["recipes", "0", "allergens"], to: nil)
        let (response, received) = try await scan(profile: nil, answers: [undeclared.serialized(), ModelAnswers.fridge([lemonPasta])])
        #expect(received.count == 2)
        #expect(try #require(received.last?.parameters.userTexts.last).contains("$.recipes[0].allergens: required field is missing"))
        #expect(response.recipes.map(\.name) == ["Lemon pasta"])
    }
}
