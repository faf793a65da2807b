import Foundation
import Logging
import NIOHTTP1
import Testing

@testable import KiwiScanWorker

@Suite("Rate-limit headers and the worker's intake")
struct IntakeGovernorTests {
    let intake = IntakeGovernor(concurrency: 8, logger: Logger(label: "test"))
    let now = ContinuousClock.now

    /// What an answer's headers said.
    func status(requests: Int? = nil, tokens: Int? = nil, requestsResetIn: Duration? = nil, tokensResetIn: Duration? = nil) -> RateLimitStatus {
        RateLimitStatus(remainingRequests: requests, remainingTokens: tokens, requestsResetIn: requestsResetIn, tokensResetIn: tokensResetIn)
    }
    @Test(
        "OpenAI's reset durations are read as Go writes them",
        arguments: [
            ("12ms", Duration.milliseconds(12)), ("1s", .seconds(1)), ("6m0s", .seconds(360)), ("1m7.5s", .milliseconds(67_500)),
            ("2h0m0s", .seconds(7200)), ("0s", .zero),
        ]
    )
    func goDurations(_ text: String, _ duration: Duration) {
        #expect(RateLimitStatus.duration(text) == duration)
    }

    @Test("text that is not a Go duration is no duration", arguments: ["", "5", "s", "1x", "1.2.3s", "-1s"])
    func notDurations(_ text: String) {
        #expect(RateLimitStatus.duration(text) == nil)
    }

    @Test("a real response's rate-limit headers are read")
    func realHeaders() throws {
        let lines = String(decoding: try fixture("ratelimit-headers.sample.txt"), as: UTF8.self).split(separator: "\n")
        var headers = HTTPHeaders()
        for line in lines where !line.hasPrefix("#") {
            let parts = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if parts.count == 2 { headers.add(name: parts[0], value: parts[1]) }
        }
        #expect(
            RateLimitStatus(headers: headers)
                == RateLimitStatus(
                    remainingRequests: 4999,
                    remainingTokens: 159_976,
                    requestsResetIn: .milliseconds(12),
                    tokensResetIn: .milliseconds(9)
                )
        )
        #expect(RateLimitStatus(headers: ["content-type": "application/json"]) == nil)
    }

    @Test("with room for more requests and tokens than jobs, intake stays at WORKER_CONCURRENCY")
    func plentyOfRoom() {
        intake.observe(
            status(requests: 8, tokens: 16_000, requestsResetIn: .seconds(1), tokensResetIn: .seconds(1)),
            tokensPerScan: 2000
        )
        #expect(intake.allowedJobs() == 8)
        #expect(intake.liftsAt == nil)
    }

    @Test("fewer requests left than jobs lowers intake to the requests left, until the window resets")
    func requestsRunningOut() {
        intake.observe(
            status(requests: 3, requestsResetIn: .seconds(20)),
            tokensPerScan: 2000,
            at: now
        )
        #expect(intake.allowedJobs(at: now + .seconds(19)) == 3)
        #expect(intake.allowedJobs(at: now + .seconds(20)) == 8)
    }

    @Test("no requests left stops intake until the window resets; answers that arrive late with more room do not lift it")
    func exhaustedUntilReset() {
        intake.observe(
            status(requests: 0, requestsResetIn: .seconds(30)),
            tokensPerScan: 2000,
            at: now
        )
        intake.observe(
            status(requests: 5, requestsResetIn: .seconds(10)),
            tokensPerScan: 2000,
            at: now
        )
        intake.observe(
            status(requests: 500),
            tokensPerScan: 2000,
            at: now
        )
        #expect(intake.allowedJobs(at: now + .seconds(29)) == 0)
        #expect(intake.liftsAt == now + .seconds(30))
        #expect(intake.allowedJobs(at: now + .seconds(30)) == 8)
    }

    @Test("tokens left for fewer scans than jobs lower intake to those scans")
    func tokensRunningOut() {
        intake.observe(
            status(requests: 1000, tokens: 5000, tokensResetIn: .seconds(6)),
            tokensPerScan: 2000,
            at: now
        )
        #expect(intake.allowedJobs(at: now) == 2)
        #expect(intake.allowedJobs(at: now + .seconds(6)) == 8)
    }
}
