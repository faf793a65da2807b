import Foundation
import Testing

@testable import KiwiGateway

@Suite("Quota policy")
struct QuotaPolicyTests {
    let policy = QuotaPolicy(limit: 4)
    let evening = ISO8601DateFormatter().date(from: "2026-11-22T23:59:30Z")!

    @Test("the day is the UTC calendar day")
    func dayIsUTC() {
        #expect(policy.day(of: evening) == "2026-11-22")
        #expect(policy.day(of: evening.addingTimeInterval(31)) == "2026-11-23")
    }

    @Test("the allowance resets at the next midnight UTC, and Retry-After counts the seconds until then")
    func resetsAtMidnight() {
        #expect(policy.resetsAt(after: evening) == ISO8601DateFormatter().date(from: "2026-11-23T00:00:00Z"))
        #expect(policy.retryAfterSeconds(at: evening) == 30)
        let midnight = ISO8601DateFormatter().date(from: "2026-11-23T00:00:00Z")!
        #expect(policy.resetsAt(after: midnight) == ISO8601DateFormatter().date(from: "2026-11-24T00:00:00Z"))
    }
}
