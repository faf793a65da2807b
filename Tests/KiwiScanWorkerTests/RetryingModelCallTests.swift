import Foundation
import KiwiOpenAI
import KiwiScans
import Testing

@testable import KiwiLLMStub
@testable import KiwiScanWorker

@Suite("Calling a model route with retries", .timeLimit(.minutes(1)))
struct RetryingModelCallTests {
    /// What one call of a route on the stub came to, the attempts counted, and the requests the stub received.
    func call(
        _ behaviour: StubBehaviour,
        maxRetries: Int = 2,
        attemptTimeout: Duration = .seconds(10),
        breaker: CircuitBreaker.Settings = CircuitBreaker.Settings(),
        calls: Int = 1,
        deadline: Duration = .seconds(10)
    ) async throws -> (RouteCallResult, attempts: Int, requests: Int) {
        try await withLLMStub(behaviour: behaviour) { url, stub in
            let route = PipelineFixtures.route("primary", baseURL: url, breaker: breaker)
            let call = RetryingModelCall(
                retryPolicy: RetryPolicy(maxRetries: maxRetries, initialBackoff: .milliseconds(10)),
                attemptTimeout: attemptTimeout,
                rateLimits: RateLimitFeedback(intake: IntakeGovernor(concurrency: 4, logger: testLogger), route: "primary"),
                prices: .openAI,
                metrics: WorkerMetrics()
            )
            var request = PipelineFixtures.request()
            request.requestID = nil
            var spending = ScanSpending(model: route.model)
            var result = RouteCallResult.gaveWay(retryAfter: nil)
            for _ in 0..<calls {
                request.deadline = .now + deadline
                result = await call.completion(
                    on: route,
                    of: request,
                    { $0.requestBody(images: request.images, safetyIdentifier: request.userKey) },
                    spending: &spending,
                    logger: testLogger
                )
            }
            return (result, spending.usage.attempts, stub.snapshot.requests)
        }
    }

    @Test("a server error is retried, and the next attempt's completion is the route's answer")
    func retried() async throws {
        let (result, attempts, requests) = try await call(StubBehaviour(fault: .serverError, faultCount: 1))
        guard case .answered = result else {
            Issue.record("expected an answer, got \(result)")
            return
        }
        #expect(attempts == 2 && requests == 2)
    }

    @Test("after its last retry the route gives way, with no wait of its own to report")
    func retriesSpent() async throws {
        let (result, attempts, _) = try await call(StubBehaviour(fault: .serverError), maxRetries: 1)
        guard case .gaveWay(let retryAfter, let timedOut) = result else {
            Issue.record("expected the route to give way, got \(result)")
            return
        }
        #expect(retryAfter == nil && !timedOut)
        #expect(attempts == 2)
    }

    @Test("an attempt that times out with time left in the scan gives way, saying it timed out")
    func timedOut() async throws {
        let (result, _, _) = try await call(StubBehaviour(fault: .slow), maxRetries: 0, attemptTimeout: .milliseconds(200))
        guard case .gaveWay(_, let timedOut) = result else {
            Issue.record("expected the route to give way, got \(result)")
            return
        }
        #expect(timedOut)
    }

    @Test("a route whose breaker opened is skipped without a call, for the rest of its cool-down")
    func openBreaker() async throws {
        let breaker = CircuitBreaker.Settings(failureThreshold: 1, coolDown: .seconds(30))
        let (result, attempts, requests) = try await call(StubBehaviour(fault: .serverError), maxRetries: 0, breaker: breaker, calls: 2)
        guard case .gaveWay(let retryAfter?, _) = result else {
            Issue.record("expected the route to give way with a wait, got \(result)")
            return
        }
        #expect(retryAfter > .seconds(29) && retryAfter <= .seconds(30))
        #expect(attempts == 1 && requests == 1)
    }

    @Test("a scan past its deadline makes no call and ends scan_timeout")
    func pastDeadline() async throws {
        let (result, attempts, requests) = try await call(StubBehaviour(), deadline: .zero)
        guard case .ended(let failure) = result else {
            Issue.record("expected the scan to end, got \(result)")
            return
        }
        #expect(failure.code == .scanTimeout)
        #expect(attempts == 0 && requests == 0)
    }
}
