import KiwiModels
import KiwiScans
import KiwiTestSupport
import Testing

@testable import KiwiScanWorker

@Suite("Repairing an unusable answer")
struct AnswerRepairTests {
    let repair = AnswerRepair(metrics: WorkerMetrics())
    let notJSON = UnusableAnswer(kind: "not JSON", problem: "not valid JSON", answer: "Sure! Here are recipes.")

    /// The result of `rounds` rounds whose replies are `replies`, in order, and the repair prompt each request carried.
    func run(rounds: Int, _ replies: [ModelReply]) async -> (Result<ValidAnswer, ScanFailure>, [ScanPrompt.Repair?]) {
        var asked: [ScanPrompt.Repair?] = []
        let result = await repair.validAnswer(rounds: rounds, logger: testLogger) { repair in
            asked.append(repair)
            return replies[asked.count - 1]
        }
        return (result, asked)
    }

    @Test("a valid first answer is used without another request")
    func validFirst() async throws {
        let answer = try PipelineFixtures.validAnswer([])
        let (result, asked) = await run(rounds: 2, [.valid(answer)])
        #expect(try result.get().content == answer.content)
        #expect(asked.count == 1 && asked[0] == nil)
    }

    @Test("an unusable answer is shown to the model with its problem, and the next valid answer is used")
    func repaired() async throws {
        let answer = try PipelineFixtures.validAnswer([])
        let (result, asked) = await run(rounds: 2, [.unusable(notJSON), .valid(answer)])
        #expect(try result.get().content == answer.content)
        #expect(asked.count == 2)
        #expect(asked[1]?.previousAnswer == "Sure! Here are recipes." && asked[1]?.problem == "not valid JSON")
    }

    @Test("when every round's answer is unusable the scan fails invalid_model_response, naming the last answer's kind")
    func unusableEveryRound() async {
        let cutOff = UnusableAnswer(kind: "cut off at the token limit", problem: "it was cut off")
        let (result, asked) = await run(rounds: 2, [.unusable(notJSON), .unusable(cutOff)])
        #expect(asked.count == 2)
        guard case .failure(let failure) = result else {
            Issue.record("expected a failure, got \(result)")
            return
        }
        #expect(failure.code == .invalidModelResponse)
        #expect(failure.message == "The model's answer could not be used: cut off at the token limit.")
    }

    @Test("a request that gets no answer ends the rounds with its failure")
    func noAnswer() async {
        let unavailable = ScanFailure(.llmUnavailable, "The recipe service is unavailable; please try again later.")
        let (result, asked) = await run(rounds: 2, [.failed(unavailable)])
        #expect(asked.count == 1)
        guard case .failure(let failure) = result else {
            Issue.record("expected a failure, got \(result)")
            return
        }
        #expect(failure.code == .llmUnavailable)
    }

    @Test("the guard's one round starts with the guard's repair prompt")
    func givenRepair() async throws {
        let guardRepair = ScanPrompt.Repair(previousAnswer: "{}", problem: "a recipe breaks an allergy")
        let answer = try PipelineFixtures.validAnswer([])
        var asked: [ScanPrompt.Repair?] = []
        _ = await repair.validAnswer(rounds: 1, repair: guardRepair, logger: testLogger) { repair in
            asked.append(repair)
            return .valid(answer)
        }
        #expect(asked.map { $0?.problem } == ["a recipe breaks an allergy"])
    }
}
