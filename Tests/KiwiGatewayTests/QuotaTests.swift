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

/// Runs `body` with a migrated database of its own and a quota repository on it.
func withQuotaDatabase<Result: Sendable>(_ body: @Sendable (PostgresClient, PostgresQuotaRepository) async throws -> Result) async throws -> Result {
    try await withTemporaryDatabase { configuration in
        try await withClient(configuration) { client in
            _ = try await DatabaseMigrator().migrate(client, logger: testLogger)
            return try await body(client, PostgresQuotaRepository(client: client, logger: testLogger))
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

@Suite("Quota in PostgreSQL", .timeLimit(.minutes(1)))
struct QuotaRepositoryTests {
    @Test("scans are reserved up to the limit, then refused")
    func reservesUpToLimit() async throws {
        let (outcomes, used) = try await withQuotaDatabase { client, quota in
            let user = newQuotaKey()
            var outcomes: [Bool] = []
            for _ in 0..<5 { outcomes.append(try await quota.reserve(for: user, on: "2026-11-22", limit: 4) != nil) }
            return (outcomes, try await quota.used(by: user, on: "2026-11-22"))
        }
        #expect(outcomes == [true, true, true, true, false])
        #expect(used == 4)
    }

    @Test("20 concurrent reservations against a limit of 4 give exactly 4, and the stored count is 4")
    func concurrentReservationsNeverExceed() async throws {
        let (granted, used) = try await withQuotaDatabase { client, quota in
            let user = newQuotaKey()
            let granted = try await withThrowingTaskGroup(of: Bool.self) { group in
                for _ in 0..<20 { group.addTask { try await quota.reserve(for: user, on: "2026-11-22", limit: 4) != nil } }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            return (granted, try await quota.used(by: user, on: "2026-11-22"))
        }
        #expect(granted == 4)
        #expect(used == 4)
    }

    @Test("a refund gives back the reserved day's scan, and never goes below zero")
    func refundRestores() async throws {
        let counts = try await withQuotaDatabase { client, quota in
            let user = newQuotaKey()
            let reservation = try #require(try await quota.reserve(for: user, on: "2026-11-22", limit: 4))
            let before = try await quota.used(by: user, on: "2026-11-22")
            try await quota.refund(reservation)
            let after = try await quota.used(by: user, on: "2026-11-22")
            try await quota.refund(reservation)
            return [before, after, try await quota.used(by: user, on: "2026-11-22")]
        }
        #expect(counts == [1, 0, 0])
    }

    @Test("each day has its own count, and a user with none used has 0")
    func daysAreSeparate() async throws {
        let counts = try await withQuotaDatabase { client, quota in
            let user = newQuotaKey()
            for _ in 0..<4 { _ = try await quota.reserve(for: user, on: "2026-11-22", limit: 4) }
            let nextDay = try await quota.reserve(for: user, on: "2026-11-23", limit: 4) != nil
            return [
                try await quota.used(by: user, on: "2026-11-22"), try await quota.used(by: user, on: "2026-11-23"), nextDay ? 1 : 0,
                try await quota.used(by: newQuotaKey(), on: "2026-11-22"),
            ]
        }
        #expect(counts == [4, 1, 1, 0])
    }

    @Test("purging removes the counts of past days only")
    func purgeKeepsToday() async throws {
        let (purged, counts) = try await withQuotaDatabase { client, quota in
            let user = newQuotaKey()
            for day in ["2026-11-20", "2026-11-21", "2026-11-22"] { _ = try await quota.reserve(for: user, on: day, limit: 4) }
            let purged = try await quota.purge(before: "2026-11-22")
            return (purged, [try await quota.used(by: user, on: "2026-11-21"), try await quota.used(by: user, on: "2026-11-22")])
        }
        #expect(purged == 2)
        #expect(counts == [0, 1])
    }
}
