import Foundation
import KiwiDevelopment
import KiwiModels
import KiwiScans
import KiwiTestSupport
import Testing

@testable import KiwiLLMStub
@testable import KiwiScanWorker

/// A refinement's job (docs/architecture.md, "Refinements"): no photo, the confirmed names, through the worker against
/// RabbitMQ, PostgreSQL and the stub.
@Suite("Scan worker: refinements", .timeLimit(.minutes(2)))
struct RefinementWorkerTests {
    let names = ["Greek yoghurt", "leeks"]
    let treeNuts = KitchenProfile(allergies: [.treeNuts])
    let pesto = ModelAnswers.Dish("Leeks with pesto", ingredients: ["leeks", "basil pesto"])
    let leeks = ModelAnswers.Dish("Braised leeks", ingredients: ["leeks", "Greek yoghurt"])

    /// The outcome of a refinement of `names` made for `profile`, and the requests the stub received.
    func refine(
        profile: KitchenProfile? = nil,
        answers: [String]? = nil,
        environment: [String: String] = [:]
    ) async throws -> (ScanOutcome, [ReceivedRequest]) {
        try await WorkerRig.run(behaviour: StubBehaviour(answers: answers), environment: environment) { rig in
            var job = try await rig.reserve([])
            (job.photos, job.ingredients, job.profile) = ([], names, profile)
            try await rig.submit(job)
            return (try await rig.outcome(of: job.scanID, within: WorkerRig.patience), rig.stub.snapshot.recent)
        }
    }

    @Test("a refinement makes one text-only request on the text route, which lists the confirmed names")
    func textOnlyRequestOnTheTextRoute() async throws {
        let (result, received) = try await refine(environment: ["LLM_TEXT_MODELS": #"[{"model": "gpt-4o-mini"}]"#])
        #expect(result.failureCode == nil)
        let request = try #require(received.first)
        #expect(received.count == 1)
        #expect(request.imageCount == 0)
        #expect(request.parameters.model == "gpt-4o-mini")
        #expect(request.parameters.schemaName == "kiwi_scan")
        #expect(request.parameters.userTexts.first?.hasSuffix(#"["Greek yoghurt","leeks"]"#) == true)
    }

    @Test("without LLM_TEXT_MODELS a refinement is asked of the first photo route's model")
    func defaultTextRoute() async throws {
        let (_, received) = try await refine(environment: ["LLM_MODELS": #"[{"model": "gpt-4o"}, {"model": "gpt-4o-mini"}]"#])
        #expect(received.map(\.parameters.model) == ["gpt-4o"])
    }

    @Test("a refinement's recipe that breaks the profile is repaired, then withheld, as a photo scan's is")
    func guardedLikeAScan() async throws {
        let answer = ModelAnswers.fridge([pesto, leeks], ingredients: names)
        let (result, received) = try await refine(profile: treeNuts, answers: [answer, answer])
        guard case .ok(let response) = result else {
            Issue.record("expected an answer, got \(result)")
            return
        }
        #expect(received.count == 2)
        #expect(received.allSatisfy { $0.imageCount == 0 })
        #expect(response.recipes.map(\.name) == ["Braised leeks"])
        #expect(response.withheldRecipes.map(\.name) == ["Leeks with pesto"])
        #expect(response.ingredients.map(\.name) == names)
    }
}
