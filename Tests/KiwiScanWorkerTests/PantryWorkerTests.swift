import Foundation
import KiwiDevelopment
import KiwiModels
import KiwiScans
import KiwiTestSupport
import Testing

@testable import KiwiLLMStub
@testable import KiwiScanWorker

/// A pantry scan's job (docs/architecture.md, "Scans from the pantry"): no photo, the pantry's items soonest first,
/// through the worker against RabbitMQ, PostgreSQL and the stub.
@Suite("Scan worker: pantry scans", .timeLimit(.minutes(2)))
struct PantryWorkerTests {
    /// Three items due within two days, then one that keeps, soonest first, as the gateway offers them.
    let pantry = [
        OfferedPantryItem(id: UUID(), name: "Spinach", useSoonBy: CalendarDay("2026-12-01")),
        OfferedPantryItem(id: UUID(), name: "Cream", useSoonBy: CalendarDay("2026-12-01")),
        OfferedPantryItem(id: UUID(), name: "Mushrooms", useSoonBy: CalendarDay("2026-12-02")),
        OfferedPantryItem(id: UUID(), name: "Rice", useSoonBy: nil),
    ]

    /// The outcome of a pantry scan of ``pantry``, and the requests the stub received.
    func cookFromPantry(answers: [String]? = nil, environment: [String: String] = [:]) async throws -> (ScanOutcome, [ReceivedRequest]) {
        try await WorkerRig.run(behaviour: StubBehaviour(answers: answers), environment: environment) { rig in
            var job = try await rig.reserve([])
            (job.photos, job.ingredients, job.pantry) = ([], pantry.map(\.name), pantry)
            try await rig.submit(job)
            return (try await rig.outcome(of: job.scanID, within: WorkerRig.patience), rig.stub.snapshot.recent)
        }
    }

    func answer(usingUp labels: [String]) -> String {
        ModelAnswers.fridge(
            [ModelAnswers.Dish("Creamed spinach", ingredients: ["Spinach", "Cream"], usesUp: labels)],
            ingredients: pantry.map(\.name)
        )
    }

    @Test("a pantry scan makes one text-only request on the text route that offers the items in order, and its recipes say what they use up")
    func textOnlyRequestOffersTheItems() async throws {
        let (result, received) = try await cookFromPantry(environment: ["LLM_TEXT_MODELS": #"[{"model": "gpt-4o-mini"}]"#])
        guard case .ok(let response) = result else {
            Issue.record("expected an answer, got \(result)")
            return
        }
        let request = try #require(received.first)
        #expect(received.count == 1)
        #expect(request.imageCount == 0)
        #expect(request.parameters.model == "gpt-4o-mini")
        #expect(request.parameters.schemaName == "kiwi_pantry_scan")
        #expect(request.parameters.pantryIDs == ["p1", "p2", "p3", "p4"])
        let offered = try #require(request.parameters.userTexts.first)
        let names = pantry.map { offered.range(of: "\"\($0.name)\"")?.lowerBound }
        #expect(names.allSatisfy { $0 != nil } && names == names.sorted { $0! < $1! }, "\(offered)")
        // The stub uses up one offered item per recipe in turn, as a model told to use the soonest first would.
        #expect(response.recipes.first?.usesUp == [pantry[0].id])
        #expect(response.recipes.allSatisfy { ($0.usesUp ?? []).allSatisfy(Set(pantry.map(\.id)).contains) })
    }

    @Test("a recipe that uses up an item the pantry does not hold breaks the contract: the answer is repaired")
    func unknownItemIsRepaired() async throws {
        let (result, received) = try await cookFromPantry(answers: [answer(usingUp: ["p5"]), answer(usingUp: ["p2", "p1"])])
        guard case .ok(let response) = result else {
            Issue.record("expected an answer, got \(result)")
            return
        }
        #expect(received.count == 2)
        #expect(received.last?.parameters.userTexts.last?.contains("usesUp[0]: must be one of") == true)
        #expect(response.recipes.map(\.usesUp) == [[pantry[1].id, pantry[0].id]])
    }

    @Test("an answer that names items the scan did not offer twice (the second time by an id) fails the scan as an invalid model response")
    func unknownItemTwiceFails() async throws {
        let (result, received) = try await cookFromPantry(answers: [answer(usingUp: ["p5"]), answer(usingUp: [pantry[0].id.uuidString.lowercased()])])
        #expect(received.count == 2)
        #expect(result.failureCode == .invalidModelResponse)
    }
}
