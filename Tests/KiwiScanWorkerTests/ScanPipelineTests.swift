import KiwiModels
import KiwiScans
import KiwiTestSupport
import Logging
import Testing

@testable import KiwiScanWorker

/// An answering step that replies as a test dictates, counting an attempt for each request.
struct ScriptedAnswering: ModelAnswering {
    let replies: [ModelReply]
    /// The repair prompt of each request, in order.
    let asked = Locked<[ScanPrompt.Repair?]>([])

    func answer(_ request: ScanRequest, repair: ScanPrompt.Repair?, spending: inout ScanSpending, logger: Logger) async -> ModelReply {
        spending.addAttempt()
        let count = asked.withLock { asked in
            asked.append(repair)
            return asked.count
        }
        return replies[count - 1]
    }
}

@Suite("The scan's pipeline")
struct ScanPipelineTests {
    let pesto = ModelAnswers.Dish("Pasta with pesto", ingredients: ["spaghetti", "basil pesto"])
    let salad = ModelAnswers.Dish("Tomato salad", ingredients: ["tomatoes", "olive oil"])
    let lemonPasta = ModelAnswers.Dish("Lemon pasta", ingredients: ["spaghetti", "lemon", "olive oil"])

    func pipeline(_ answering: ScriptedAnswering) -> ScanPipeline {
        let metrics = WorkerMetrics()
        return ScanPipeline(
            answering: answering,
            repair: AnswerRepair(metrics: metrics),
            profileGuard: ProfileGuard(metrics: metrics),
            firstModel: "gpt-4o"
        )
    }

    @Test("the answer, its repair and the guard's repair are each asked of the answering step, in that order")
    func steps() async throws {
        let answering = ScriptedAnswering(replies: [
            .unusable(UnusableAnswer(kind: "not JSON", problem: "not valid JSON", answer: "Sure!")),
            .valid(try PipelineFixtures.validAnswer([pesto, salad])),
            .valid(try PipelineFixtures.validAnswer([lemonPasta, salad])),
        ])
        let analysis = await pipeline(answering).analyze(
            PipelineFixtures.request(profile: KitchenProfile(allergies: [.treeNuts])),
            logger: testLogger
        )
        let response = try analysis.result.get()
        #expect(response.recipes.map(\.name) == ["Lemon pasta", "Tomato salad"])
        let problems = answering.asked.withLock { $0.map { $0?.problem } }
        #expect(problems.count == 3 && problems[0] == nil && problems[1] == "not valid JSON")
        #expect(problems[2]?.contains("allergic to tree nuts") == true)
        #expect(analysis.usage.attempts == 3)
    }

    @Test("a scan no completion answered fails as its request did, its record naming the first route's model")
    func noCompletion() async {
        let unavailable = ScanFailure(.llmUnavailable, "The recipe service is unavailable; please try again later.")
        let analysis = await pipeline(ScriptedAnswering(replies: [.failed(unavailable)])).analyze(PipelineFixtures.request(), logger: testLogger)
        guard case .failure(let failure) = analysis.result else {
            Issue.record("expected a failure, got \(analysis.result)")
            return
        }
        #expect(failure == unavailable)
        #expect(analysis.usage.model == "gpt-4o" && analysis.usage.route == nil && analysis.usage.attempts == 1)
    }
}
