import Testing

@testable import KiwiScanWorker

@Suite("Rate-limit feedback from the model routes")
struct RateLimitFeedbackTests {
    let exhausted = ChatCompletionsClient.Failure(
        status: 429,
        summary: "429",
        rateLimit: RateLimitStatus(remainingRequests: 0, remainingTokens: nil, requestsResetIn: .seconds(30), tokensResetIn: nil)
    )

    @Test("the route that carries the traffic steers the worker's intake")
    func trafficRoute() {
        let intake = IntakeGovernor(concurrency: 4, logger: testLogger)
        RateLimitFeedback(intake: intake, route: "primary").observe(.failure(exhausted), on: PipelineFixtures.route("primary"))
        #expect(intake.allowedJobs() == 0)
    }

    @Test("another route's headers, which count another account's limits, leave the intake alone")
    func otherRoute() {
        let intake = IntakeGovernor(concurrency: 4, logger: testLogger)
        RateLimitFeedback(intake: intake, route: "primary").observe(.failure(exhausted), on: PipelineFixtures.route("fallback"))
        #expect(intake.allowedJobs() == 4)
    }
}
