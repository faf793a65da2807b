import KiwiScans
import Testing

@testable import KiwiScanWorker

@Suite("Choosing a model route")
struct RouteFallbackTests {
    let fallback = RouteFallback(routes: [PipelineFixtures.route("primary"), PipelineFixtures.route("fallback", model: "gpt-4o-mini")])

    /// What the fallback comes to when each route, in order, comes to `results`; and the routes called.
    func choose(_ results: [RouteCallResult]) async -> (Result<RouteFallback.Answered, ScanFailure>, [String]) {
        var called: [String] = []
        let chosen = await fallback.completion(logger: testLogger) { route, _ in
            called.append(route.name)
            return results[called.count - 1]
        }
        return (chosen, called)
    }

    func failure(_ result: Result<RouteFallback.Answered, ScanFailure>) -> ScanFailure? {
        if case .failure(let failure) = result { return failure }
        return nil
    }

    @Test("the first route's answer is the scan's, and the next route is never called")
    func firstAnswers() async throws {
        let (chosen, called) = await choose([.answered(PipelineFixtures.success())])
        #expect(try chosen.get().route.name == "primary")
        #expect(called == ["primary"])
    }

    @Test("a route that gives way hands the scan to the next")
    func fallsBack() async throws {
        let (chosen, called) = await choose([.gaveWay(retryAfter: nil), .answered(PipelineFixtures.success())])
        #expect(try chosen.get().route.name == "fallback")
        #expect(called == ["primary", "fallback"])
    }

    @Test("a route that ends the scan ends it: the next route is not tried")
    func endedRoute() async {
        let (chosen, called) = await choose([.ended(ScanFailure(.invalidImage, "The photo could not be read."))])
        #expect(failure(chosen)?.code == .invalidImage)
        #expect(called == ["primary"])
    }

    @Test("when every route gives way the scan fails llm_unavailable, retry after the soonest wait in whole seconds, rounded up")
    func noneAnswers() async {
        let (chosen, _) = await choose([.gaveWay(retryAfter: .seconds(30)), .gaveWay(retryAfter: .milliseconds(1200))])
        #expect(failure(chosen) == ScanFailure(.llmUnavailable, "The recipe service is unavailable; please try again later.", retryAfterSeconds: 2))
    }

    @Test("without any route's wait the unavailable scan carries no retry-after")
    func noWait() async {
        let (chosen, _) = await choose([.gaveWay(retryAfter: nil), .gaveWay(retryAfter: nil)])
        #expect(failure(chosen)?.code == .llmUnavailable && failure(chosen)?.retryAfterSeconds == nil)
    }

    @Test("a timed-out route falls back to the next; a timed-out last route ends the scan scan_timeout")
    func timeouts() async {
        let (chosen, called) = await choose([.gaveWay(retryAfter: nil, timedOut: true), .gaveWay(retryAfter: nil, timedOut: true)])
        #expect(called == ["primary", "fallback"])
        #expect(failure(chosen)?.code == .scanTimeout)
    }
}
