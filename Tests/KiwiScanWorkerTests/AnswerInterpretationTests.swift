import Foundation
import KiwiModels
import KiwiOpenAI
import NIOCore
import NIOHTTP1
import Testing

@testable import KiwiScanWorker

@Suite("Reading OpenAI's answers")
struct AnswerInterpretationTests {
    func completion(_ name: String) throws -> ChatCompletion {
        try JSONDecoder().decode(ChatCompletion.self, from: try fixture(name))
    }

    func unusable(_ completion: ChatCompletion) -> UnusableAnswer? {
        if case .failure(let unusable) = AnswerInterpreter.interpret(completion, idSeed: UUID()) { return unusable }
        return nil
    }

    @Test("a recorded refusal is an unusable answer with nothing to show the model")
    func refusal() throws {
        let answer = try #require(unusable(try completion("chat-completion-gpt-4o-refusal.json")))
        #expect(answer.kind == "refusal" && answer.answer == nil)
    }

    @Test("a recorded answer cut off at the token limit is unusable")
    func truncated() throws {
        #expect(unusable(try completion("chat-completion-gpt-4o-finish-length-truncated.json"))?.kind == "cut off at the token limit")
    }

    @Test("a recorded Structured Outputs answer for another schema breaks Kiwi's contract")
    func otherSchema() throws {
        let answer = try #require(unusable(try completion("chat-completion-gpt-4o-structured-output.json")))
        #expect(answer.kind.hasSuffix("rule violations"))
        #expect(answer.problem.contains("$"))
    }

    @Test("prose instead of JSON is unusable as 'not JSON'")
    func prose() {
        let completion = ChatCompletion(
            id: "x",
            created: 0,
            model: "gpt-4o",
            choices: [.init(message: .init(content: "Sure! Here are recipes.", refusal: nil), finishReason: "stop")],
            usage: nil
        )
        #expect(unusable(completion)?.kind == "not JSON")
    }

    @Test("an answer without food is a valid, empty result")
    func noFood() throws {
        let completion = ChatCompletion(
            id: "x",
            created: 0,
            model: "gpt-4o",
            choices: [.init(message: .init(content: #"{"ingredients":[],"recipes":[]}"#, refusal: nil), finishReason: "stop")],
            usage: nil
        )
        #expect(try AnswerInterpreter.interpret(completion, idSeed: UUID()).get() == ScanResponse(ingredients: [], recipes: []))
    }

    @Test("a recorded 429 insufficient_quota body is classified as final")
    func insufficientQuotaBody() throws {
        let result = ChatCompletionsClient.classify(
            status: 429,
            headers: HTTPHeaders(),
            body: ByteBuffer(bytes: try fixture("error-429-insufficient_quota.body.json"))
        )
        guard case .failure(let failure) = result else {
            Issue.record("expected a failure")
            return
        }
        #expect(failure.code == "insufficient_quota")
        #expect(!RetryPolicy(maxRetries: 2).isRetryable(failure))
    }

    @Test("a recorded 429 rate_limit_exceeded body with retry-after is retryable after the server's wait")
    func rateLimitBody() throws {
        let result = ChatCompletionsClient.classify(
            status: 429,
            headers: HTTPHeaders([("retry-after", "2")]),
            body: ByteBuffer(bytes: try fixture("error-429-rate_limit_exceeded.body.json"))
        )
        guard case .failure(let failure) = result else {
            Issue.record("expected a failure")
            return
        }
        #expect(failure.code == "rate_limit_exceeded" && failure.retryAfter == .seconds(2))
        #expect(failure.summary.hasPrefix("HTTP 429: Rate limit reached"))
    }

    @Test("a 200 whose body is not a chat completion is a retryable server failure")
    func brokenSuccessBody() {
        let result = ChatCompletionsClient.classify(status: 200, headers: HTTPHeaders(), body: ByteBuffer(string: "<html>"))
        guard case .failure(let failure) = result else {
            Issue.record("expected a failure")
            return
        }
        #expect(RetryPolicy(maxRetries: 2).isRetryable(failure))
    }
}
