import Foundation
import KiwiDatabase
import KiwiTestSupport
import Logging
import PostgresNIO
import Testing

@testable import KiwiGateway

let testLogger: Logger = {
    var logger = Logger(label: "test.gateway")
    logger.logLevel = .warning
    return logger
}()

/// Runs `body` with a migrated database of its own and a scan ledger on it.
func withLedgerDatabase<Result: Sendable>(_ body: @Sendable (PostgresClient, PostgresScanLedger) async throws -> Result) async throws -> Result {
    try await withTemporaryDatabase { configuration in
        try await withClient(configuration) { client in
            _ = try await DatabaseMigrator().migrate(client, logger: testLogger)
            // Generous: 1,000 reservations of one person queue on one lock on this 2-core machine.
            return try await body(client, PostgresScanLedger(client: client, logger: testLogger, timeout: .seconds(60)))
        }
    }
}

/// A person's quota key, as the auth service derives it (32 bytes).
func newQuotaKey() -> Data {
    Data((0..<32).map { _ in UInt8.random(in: 0...255) })
}

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
