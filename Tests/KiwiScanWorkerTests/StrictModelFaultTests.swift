import AsyncHTTPClient
import Foundation
import KiwiDevelopment
import KiwiModels
import KiwiOpenAI
import KiwiScans
import KiwiTestSupport
import Logging
import NIOCore
import NIOHTTP1
import Testing

@testable import KiwiLLMStub
@testable import KiwiScanWorker

/// What the worker makes of the ways a model under strict Structured Outputs really fails, played by the stub: answers
/// past the lengths the schema only describes, the content filter, refusals part-way through a scan, and 429s on the
/// organisation's tokens per minute.
@Suite("Scan worker: how strict Structured Outputs fail", .timeLimit(.minutes(2)))
struct StrictModelFaultTests {
    let photo = SyntheticJPEG.make(size: 16 * 1024, seed: 37)

    @Test("a refusal of the repair that an over-long answer needed fails the scan invalid_model_response after two calls")
    func refusedRepair() async throws {
        let overLong = ModelAnswers.fridge([ModelAnswers.Dish(String(repeating: "Tomato salad ", count: 20), ingredients: ["tomatoes"])])
        let behaviour = StubBehaviour(fault: .refusal, faultAfter: 1, answers: [overLong])
        let (result, received) = try await WorkerRig.run(behaviour: behaviour) { rig in (try await rig.scan(photo), rig.stub.snapshot.recent) }
        #expect(result.failureCode == .invalidModelResponse, "\(result)")
        #expect(received.map(\.fault) == [StubFault.none, .refusal])
    }

    @Test("a refusal of the guard's repair keeps the first answer without the recipe that breaks the allergy")
    func refusedGuardRepair() async throws {
        let pesto = ModelAnswers.Dish("Pasta with pesto", ingredients: ["spaghetti", "basil pesto"])
        let salad = ModelAnswers.Dish("Tomato salad", ingredients: ["tomatoes", "olive oil"])
        let behaviour = StubBehaviour(fault: .refusal, faultAfter: 1, answers: [ModelAnswers.fridge([pesto, salad])])
        let (result, requests) = try await WorkerRig.run(behaviour: behaviour) { rig in
            var job = try await rig.reserve(photo)
            job.profile = KitchenProfile(allergies: [.treeNuts])
            try await rig.submit(job)
            return (try await rig.outcome(of: job.scanID, within: WorkerRig.patience), rig.stub.snapshot.requests)
        }
        guard case .ok(let response) = result else {
            Issue.record("expected an answer, got \(result)")
            return
        }
        #expect(requests == 2)
        #expect(response.recipes.map(\.name) == ["Tomato salad"])
        #expect(response.withheldRecipes.map(\.name) == ["Pasta with pesto"])
    }

    @Test("an answer the content filter stopped is unusable even when what it kept is a complete, valid answer")
    func contentFilterIsUnusable() {
        let completion = ChatCompletion(
            id: "x",
            created: 0,
            model: "gpt-4o",
            choices: [.init(message: .init(content: ModelAnswers.fridge([]), refusal: nil), finishReason: "content_filter")],
            usage: nil
        )
        guard case .failure(let unusable) = AnswerInterpreter.interpret(completion, idSeed: UUID()) else {
            Issue.record("a filtered answer was used")
            return
        }
        #expect(unusable.kind == "stopped by the content filter")
    }

    @Test("the stub's 429 on tokens per minute is a retryable rate limit: its retry-after is the wait, and intake stops until the tokens reset")
    func tokenRateLimit() async throws {
        let wait = Duration.milliseconds(1500)
        let outcome = try await withLLMStub(behaviour: StubBehaviour(fault: .rateLimit, retryAfterSeconds: 1.5)) { url, _ in
            let client = ChatCompletionsClient(transport: .over(.shared), baseURL: url, apiKey: "sk-test")
            return await client.send(deadline: .now + .seconds(10)) {
                ScanPrompt(model: "gpt-4o", detail: .high).requestBody(images: [.init(jpeg: photo)], safetyIdentifier: testUserKey)
            }
        }
        guard case .failure(let failure) = outcome else {
            Issue.record("expected a 429, got \(outcome)")
            return
        }
        #expect(failure.status == 429 && failure.code == "rate_limit_exceeded" && failure.retryAfter == wait)
        #expect(RetryPolicy(maxRetries: 2).decision(after: failure, retries: 0, timeLeft: .seconds(20)) == .retry(after: wait))
        let status = try #require(failure.rateLimit)
        #expect(status.remainingTokens == 0 && status.tokensResetIn == wait && status.remainingRequests == 4999)
        let intake = IntakeGovernor(concurrency: 4, logger: testLogger)
        let now = ContinuousClock.now
        intake.observe(status, tokensPerScan: RateLimitFeedback.typicalScanTokens, at: now)
        #expect(intake.allowedJobs(at: now + wait - .milliseconds(1)) == 0)
        #expect(intake.allowedJobs(at: now + wait) == 4)
    }
}
