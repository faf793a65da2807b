import Foundation
import KiwiConcurrency
import NIOHTTP1
import Testing

@testable import KiwiScanWorker

@Suite("Retry policy")
struct RetryPolicyTests {
    let policy = RetryPolicy(maxRetries: 2, jitter: .none)

    func failure(status: Int?, code: String? = nil, retryAfter: Duration? = nil, shouldRetry: Bool? = nil) -> ChatCompletionsClient.Failure {
        ChatCompletionsClient.Failure(status: status, code: code, retryAfter: retryAfter, shouldRetry: shouldRetry, summary: "test")
    }

    @Test("408, 409, 429, 5xx and connection errors are retried", arguments: [408, 409, 429, 500, 502, 503, 504, nil] as [Int?])
    func retryableStatuses(_ status: Int?) {
        #expect(policy.decision(after: failure(status: status), retries: 0, timeLeft: .seconds(60)) == .retry(after: .milliseconds(500)))
    }

    @Test("400, 401, 403, 404 and 422 are not retried", arguments: [400, 401, 403, 404, 422])
    func permanentStatuses(_ status: Int) {
        #expect(!policy.isRetryable(failure(status: status)))
    }

    @Test("a 429 for insufficient_quota is never retried, even when the server says it may be")
    func insufficientQuotaIsFinal() {
        #expect(!policy.isRetryable(failure(status: 429, code: "insufficient_quota", shouldRetry: true)))
    }

    @Test("x-should-retry overrides the status rules")
    func shouldRetryHeaderWins() {
        #expect(!policy.isRetryable(failure(status: 503, shouldRetry: false)))
        #expect(policy.isRetryable(failure(status: 400, shouldRetry: true)))
    }

    @Test("the backoff starts at 0.5 s and doubles up to 8 s")
    func backoffDoublesAndCaps() {
        #expect((0..<7).map(policy.backoff) == [0.5, 1, 2, 4, 8, 8, 8].map { Duration.milliseconds($0 * 1000) })
    }

    @Test("jitter shortens a backoff by at most a quarter")
    func jitterBounds() {
        let jittered = RetryPolicy(maxRetries: 2)
        for _ in 0..<200 {
            let wait = jittered.backoff(afterRetries: 1)
            #expect(wait > .milliseconds(749) && wait <= .seconds(1))
        }
    }

    @Test("the server's retry-after replaces the backoff")
    func retryAfterWins() {
        #expect(
            policy.decision(after: failure(status: 429, retryAfter: .seconds(3)), retries: 0, timeLeft: .seconds(60)) == .retry(after: .seconds(3))
        )
    }

    @Test("a retry-after that ends past the deadline gives up at once instead of waiting")
    func retryAfterPastDeadlineGivesUp() {
        let decision = policy.decision(after: failure(status: 429, retryAfter: .seconds(30)), retries: 0, timeLeft: .seconds(5))
        guard case .giveUp(let reason) = decision else {
            Issue.record("expected to give up, got \(decision)")
            return
        }
        #expect(reason.contains("past the deadline"))
    }

    @Test("after the last retry the policy gives up, saying how many attempts were made")
    func retriesRunOut() {
        #expect(policy.decision(after: failure(status: 500), retries: 1, timeLeft: .seconds(60)) == .retry(after: .seconds(1)))
        #expect(policy.decision(after: failure(status: 500), retries: 2, timeLeft: .seconds(60)) == .giveUp(reason: "test (after 3 attempts)"))
    }

    @Test("absurd retry-after values are read as a day, not trusted into an overflow")
    func absurdRetryAfter() {
        #expect(RetryPolicy.retryAfter(in: HTTPHeaders([("retry-after-ms", "1e30")])) == .seconds(86_400))
        #expect(RetryPolicy.retryAfter(in: HTTPHeaders([("retry-after-ms", "nan"), ("retry-after", "inf")])) == nil)
    }

    @Test("retry-after-ms is preferred, then retry-after in seconds or as an HTTP date")
    func retryAfterHeaders() {
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        #expect(RetryPolicy.retryAfter(in: HTTPHeaders([("retry-after-ms", "1500"), ("retry-after", "9")]), now: now) == .milliseconds(1500))
        #expect(RetryPolicy.retryAfter(in: HTTPHeaders([("retry-after", "2.5")]), now: now) == .milliseconds(2500))
        #expect(RetryPolicy.retryAfter(in: HTTPHeaders([("retry-after", "Tue, 14 Nov 2023 22:13:40 GMT")]), now: now) == .seconds(20))
        #expect(RetryPolicy.retryAfter(in: HTTPHeaders([("retry-after", "soon")]), now: now) == nil)
        #expect(RetryPolicy.retryAfter(in: HTTPHeaders(), now: now) == nil)
    }
}
