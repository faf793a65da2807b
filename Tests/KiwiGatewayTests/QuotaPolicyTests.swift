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

    @Test("the first allowance spent names the refusal: the person's scans, then their tokens, then everyone's budget")
    func refusalOrder() {
        let policy = QuotaPolicy(limit: 4, tokenLimit: 1000, dailyBudgetNanos: 5000)
        #expect(policy.refusal(after: DailyUsage(scans: 3, tokens: 999, everyonesSpendNanos: 4999)) == nil)
        #expect(policy.refusal(after: DailyUsage(scans: 4, tokens: 1000, everyonesSpendNanos: 5000)) == .scans)
        #expect(policy.refusal(after: DailyUsage(scans: 3, tokens: 1000, everyonesSpendNanos: 5000)) == .tokens)
        #expect(policy.refusal(after: DailyUsage(scans: 3, tokens: 999, everyonesSpendNanos: 5000)) == .budget)
    }

    @Test("a token cap or budget that is not set never refuses, however much was spent")
    func unsetLimitsNeverRefuse() {
        #expect(policy.refusal(after: DailyUsage(scans: 3, tokens: .max, everyonesSpendNanos: .max)) == nil)
    }

    @Test("the scans left are the limit less those used, and none once the person's tokens are spent")
    func remaining() {
        let capped = QuotaPolicy(limit: 4, tokenLimit: 1000)
        #expect(capped.remaining(after: DailyUsage(scans: 1, tokens: 999)) == 3)
        #expect(capped.remaining(after: DailyUsage(scans: 1, tokens: 1000)) == 0)
        #expect(capped.remaining(after: DailyUsage(scans: 6)) == 0)
    }
}
