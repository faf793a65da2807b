import KiwiDevelopment
import KiwiModels
import KiwiScans
import KiwiTestSupport
import Testing

@testable import KiwiLLMStub
@testable import KiwiScanWorker

/// A streaming worker against RabbitMQ, PostgreSQL and the streaming stub: what it stores and announces while it
/// answers, and the same worker with streaming turned off.
@Suite("Scan worker: streamed answers", .timeLimit(.minutes(2)))
struct StreamedScanWorkerTests {
    let photo = SyntheticJPEG.make(size: 16 * 1024, seed: 53)
    let answer = ModelAnswers.fridge([
        ModelAnswers.Dish("Tomato salad", ingredients: ["tomatoes", "olive oil"]),
        ModelAnswers.Dish("Lemon pasta", ingredients: ["spaghetti", "lemon", "olive oil"]),
    ])

    @Test("each element is stored on the scan's record and announced before the result, which is whole")
    func storesAndAnnouncesEachElement() async throws {
        let (result, partials, announced) = try await WorkerRig.run(behaviour: StubBehaviour(answers: [answer])) { rig in
            let job = try await rig.reserve(photo)
            try await rig.submit(job)
            let result = try await rig.outcome(of: job.scanID, within: WorkerRig.patience)
            // The final announcement travels after the record is written.
            try await eventually { rig.announcements(of: job.scanID).last == .succeeded }
            return (result, try await rig.partialCount(of: job.scanID), rig.announcements(of: job.scanID))
        }
        guard case .ok(let response) = result else {
            Issue.record("expected a response, got \(result)")
            return
        }
        #expect(response.recipes.count == 2)
        #expect(partials == 3)  // the ingredients and two recipes
        #expect(announced == [.running, .running, .running, .running, .succeeded])
    }

    @Test("with LLM_STREAM=false the worker asks for no stream, shows nothing, and the scan succeeds")
    func streamingOff() async throws {
        let (result, partials, received) = try await WorkerRig.run(
            behaviour: StubBehaviour(answers: [answer]),
            environment: ["LLM_STREAM": "false"]
        ) { rig in
            let job = try await rig.reserve(photo)
            try await rig.submit(job)
            let result = try await rig.outcome(of: job.scanID, within: WorkerRig.patience)
            return (result, try await rig.partialCount(of: job.scanID), rig.stub.snapshot.recent)
        }
        #expect(result.failureCode == nil, "\(result)")
        #expect(partials == 0)
        #expect(received.count == 1 && received.first?.parameters.stream == nil)
    }

    @Test("a streaming worker asks for the stream and its usage")
    func asksForStream() async throws {
        let received = try await WorkerRig.run(behaviour: StubBehaviour(answers: [answer])) { rig in
            _ = try await rig.scan(photo)
            return rig.stub.snapshot.recent
        }
        #expect(received.first?.parameters.stream == true && received.first?.parameters.includeUsage == true)
    }
}
