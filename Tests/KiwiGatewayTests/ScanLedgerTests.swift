import Foundation
import KiwiDatabase
import KiwiModels
import KiwiScanJobs
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

/// The scan ledger against the real PostgreSQL: reservations, the state machine's compare-and-set, the sweeper,
/// account deletion and retention.
@Suite("Scan ledger in PostgreSQL", .timeLimit(.minutes(2)))
struct ScanLedgerTests {
    let day = "2026-11-22"

    /// A scan of `quotaKey`'s user on `day`, due `deadline` seconds from now.
    func newScan(_ quotaKey: Data, user: UUID = UUID(), day: String? = nil, key: String? = nil, photo: UInt8 = 1, deadline: Double = 90) -> NewScan {
        NewScan(
            userID: user,
            quotaKey: quotaKey,
            day: day ?? self.day,
            idempotencyKey: key,
            photoSHA256: Data(repeating: photo, count: 32),
            deadline: Date().addingTimeInterval(deadline)
        )
    }

    @Test("scans are reserved up to the limit, then refused")
    func reservesUpToLimit() async throws {
        let (outcomes, used) = try await withLedgerDatabase { _, ledger in
            let person = newQuotaKey()
            var outcomes: [Bool] = []
            for _ in 0..<5 {
                if case .reserved = try await ledger.reserve(newScan(person), limit: 4) { outcomes.append(true) } else { outcomes.append(false) }
            }
            return (outcomes, try await ledger.used(by: person, on: day))
        }
        #expect(outcomes == [true, true, true, true, false])
        #expect(used == 4)
    }

    @Test("1,000 simultaneous reservations of one person grant exactly the limit")
    func concurrentReservations() async throws {
        let (granted, used) = try await withLedgerDatabase { _, ledger in
            let person = newQuotaKey()
            let user = UUID()
            let granted = try await withThrowingTaskGroup(of: Bool.self) { group in
                for _ in 0..<1000 {
                    group.addTask {
                        if case .reserved = try await ledger.reserve(newScan(person, user: user), limit: 4) { return true }
                        return false
                    }
                }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            return (granted, try await ledger.used(by: person, on: day))
        }
        #expect(granted == 4)
        #expect(used == 4)
    }

    @Test("a failed scan is refunded once: failing it again, or succeeding it, changes nothing")
    func failIsFinal() async throws {
        let (changes, used, state) = try await withLedgerDatabase { _, ledger in
            let person = newQuotaKey()
            guard case .reserved(let scan) = try await ledger.reserve(newScan(person), limit: 4) else { throw CancellationError() }
            let changes = [
                try await ledger.fail(scan.id, code: .llmUnavailable), try await ledger.fail(scan.id, code: .scanTimeout),
                try await ledger.succeed(scan.id, result: ScanResponse(ingredients: [], recipes: [])),
            ]
            let record = try await ledger.scan(scan.id, of: scan.userID)
            return (changes, try await ledger.used(by: person, on: day), record.map { "\($0.state) \($0.errorCode?.rawValue ?? "")" })
        }
        #expect(changes == [true, false, false])
        #expect(used == 0)
        #expect(state == "failed llm_unavailable")
    }

    @Test("a succeeded scan keeps its result and its charge: failing it afterwards changes nothing")
    func succeedIsFinal() async throws {
        let answer = ScanResponse(ingredients: [], recipes: [])
        let (changes, used, record) = try await withLedgerDatabase { _, ledger in
            let person = newQuotaKey()
            guard case .reserved(let scan) = try await ledger.reserve(newScan(person), limit: 4) else { throw CancellationError() }
            let changes = [try await ledger.succeed(scan.id, result: answer), try await ledger.fail(scan.id, code: .scanTimeout)]
            return (changes, try await ledger.used(by: person, on: day), try await ledger.scan(scan.id, of: scan.userID))
        }
        #expect(changes == [true, false])
        #expect(used == 1)
        #expect(record?.state == .succeeded)
        #expect(record?.result == answer)
    }

    @Test("the same idempotency key and photo find the earlier scan without a second charge; another photo is refused")
    func idempotencyKeys() async throws {
        let (first, again, otherPhoto, otherUser, used) = try await withLedgerDatabase { _, ledger in
            let person = newQuotaKey()
            let user = UUID()
            let first = try await ledger.reserve(newScan(person, user: user, key: "k-1"), limit: 4)
            let again = try await ledger.reserve(newScan(person, user: user, key: "k-1"), limit: 4)
            let otherPhoto = try await ledger.reserve(newScan(person, user: user, key: "k-1", photo: 2), limit: 4)
            let otherUser = try await ledger.reserve(newScan(newQuotaKey(), key: "k-1"), limit: 4)
            return (first, again, otherPhoto, otherUser, try await ledger.used(by: person, on: day))
        }
        guard case .reserved(let scan) = first else {
            Issue.record("first: \(first)")
            return
        }
        #expect(again == .replay(scan))
        #expect(otherPhoto == .keyReused)
        if case .reserved = otherUser {} else { Issue.record("keys are per user: \(otherUser)") }
        #expect(used == 1)
    }

    @Test("another user's scan is not found")
    func scansArePerUser() async throws {
        let found = try await withLedgerDatabase { _, ledger in
            guard case .reserved(let scan) = try await ledger.reserve(newScan(newQuotaKey()), limit: 4) else { throw CancellationError() }
            return [try await ledger.scan(scan.id, of: scan.userID) != nil, try await ledger.scan(scan.id, of: UUID()) != nil]
        }
        #expect(found == [true, false])
    }

    @Test("the sweeper fails open scans past their deadline and grace with scan_timeout, and no others")
    func sweeper() async throws {
        let (failed, states, used) = try await withLedgerDatabase { _, ledger in
            let person = newQuotaKey()
            let user = UUID()
            var ids: [UUID] = []
            for deadline in [-60.0, -60, -10, 90] {
                let scan = newScan(person, user: user, deadline: deadline)
                guard case .reserved(let reserved) = try await ledger.reserve(scan, limit: 4) else { throw CancellationError() }
                ids.append(reserved.id)
            }
            _ = try await ledger.succeed(ids[1], result: ScanResponse(ingredients: [], recipes: []))
            let failed = try await ledger.failOverdue(grace: .seconds(30))
            var states: [String] = []
            for id in ids {
                let record = try await ledger.scan(id, of: user)
                states.append(record.map { "\($0.state)\($0.errorCode.map { " \($0.rawValue)" } ?? "")" } ?? "gone")
            }
            return (failed, states, try await ledger.used(by: person, on: day))
        }
        #expect(failed == 1)
        #expect(states == ["failed scan_timeout", "succeeded", "queued", "queued"])
        #expect(used == 3)
    }

    @Test("deleting a user's scans removes every row and keeps the day's charges with the person")
    func deletion() async throws {
        let (rows, used) = try await withLedgerDatabase { client, ledger in
            let person = newQuotaKey()
            let user = UUID()
            for _ in 0..<2 { _ = try await ledger.reserve(newScan(person, user: user), limit: 4) }
            guard case .reserved(let failed) = try await ledger.reserve(newScan(person, user: user), limit: 4) else { throw CancellationError() }
            _ = try await ledger.fail(failed.id, code: .llmUnavailable)
            try await ledger.deleteScans(of: user, quotaKey: person, today: day)
            var rows = 0
            for try await count in try await client.query("SELECT count(*) FROM scans WHERE user_id = \(user)", logger: testLogger).decode(Int.self) {
                rows = count
            }
            return (rows, try await ledger.used(by: person, on: day))
        }
        #expect(rows == 0)
        #expect(used == 2)
    }

    @Test("the purge deletes scans past their retention whose day has ended, and past days' charges, and nothing else")
    func purge() async throws {
        let (purged, remaining) = try await withLedgerDatabase { client, ledger in
            let person = newQuotaKey()
            for day in ["2026-11-20", "2026-11-21", self.day] { _ = try await ledger.reserve(newScan(person, day: day), limit: 4) }
            try await client.execute("UPDATE scans SET created_at = now() - interval '2 days'", logger: testLogger)
            _ = try await ledger.reserve(newScan(person, day: "2026-11-21"), limit: 4)
            let purged = try await ledger.purge(olderThan: .seconds(24 * 3600), today: self.day)
            return (purged, [try await ledger.used(by: person, on: "2026-11-21"), try await ledger.used(by: person, on: self.day)])
        }
        #expect(purged == 2)
        #expect(remaining == [1, 1])
    }
}
