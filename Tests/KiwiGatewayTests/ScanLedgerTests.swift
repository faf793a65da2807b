import Foundation
import KiwiDatabase
import KiwiModels
import KiwiOpenAI
import KiwiScanJobs
import KiwiScans
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

/// Runs `body` with a migrated database of its own, a scan ledger on it, and the transitions a worker makes.
func withLedgerDatabase<Result: Sendable>(
    _ body: @Sendable (PostgresClient, PostgresScanLedger, ScanTransitions) async throws -> Result
) async throws -> Result {
    try await withTemporaryDatabase { configuration in
        try await withClient(configuration) { client in
            _ = try await DatabaseMigrator().migrate(client, logger: testLogger)
            // Generous: 1,000 reservations of one person queue on one lock on this 2-core machine.
            return try await body(
                client,
                PostgresScanLedger(client: client, logger: testLogger, timeout: .seconds(60)),
                ScanTransitions(client: client, logger: testLogger)
            )
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
    func newScan(_ quotaKey: Data, user: UUID = UUID(), day: String? = nil, key: String? = nil, photo: UInt8 = 1, deadline: Double = 90) -> QueuedScan
    {
        QueuedScan(
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
        let (outcomes, used) = try await withLedgerDatabase { _, ledger, _ in
            let person = newQuotaKey()
            var outcomes: [Bool] = []
            for _ in 0..<5 {
                if case .reserved = try await ledger.reserve(newScan(person), policy: QuotaPolicy(limit: 4)) {
                    outcomes.append(true)
                } else {
                    outcomes.append(false)
                }
            }
            return (outcomes, try await ledger.usage(of: person, on: day).scans)
        }
        #expect(outcomes == [true, true, true, true, false])
        #expect(used == 4)
    }

    @Test("1,000 simultaneous reservations of one person grant exactly the limit")
    func concurrentReservations() async throws {
        let (granted, used) = try await withLedgerDatabase { _, ledger, _ in
            let person = newQuotaKey()
            let user = UUID()
            let granted = try await withThrowingTaskGroup(of: Bool.self) { group in
                for _ in 0..<1000 {
                    group.addTask {
                        if case .reserved = try await ledger.reserve(newScan(person, user: user), policy: QuotaPolicy(limit: 4)) { return true }
                        return false
                    }
                }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            return (granted, try await ledger.usage(of: person, on: day).scans)
        }
        #expect(granted == 4)
        #expect(used == 4)
    }

    @Test("a failed scan is refunded once: failing it again, or a worker's late answer, changes nothing")
    func failIsFinal() async throws {
        let (changes, used, state) = try await withLedgerDatabase { _, ledger, worker in
            let person = newQuotaKey()
            guard case .reserved(let scan) = try await ledger.reserve(newScan(person), policy: QuotaPolicy(limit: 4)) else {
                throw CancellationError()
            }
            let changes = [
                try await ledger.fail(scan.id, code: .llmUnavailable), try await ledger.fail(scan.id, code: .scanTimeout),
                try await worker.succeed(scan.id, result: ScanResponse(ingredients: [], recipes: []), usage: nil),
            ]
            let record = try await ledger.scan(scan.id, of: scan.userID)
            return (changes, try await ledger.usage(of: person, on: day).scans, record.map { "\($0.state) \($0.errorCode?.rawValue ?? "")" })
        }
        #expect(changes == [true, false, false])
        #expect(used == 0)
        #expect(state == "failed llm_unavailable")
    }

    @Test("a succeeded scan keeps its result, model time and charge: a second worker's answer or a failure changes nothing")
    func succeedIsFinal() async throws {
        let answer = ScanResponse(ingredients: [], recipes: [])
        let usage = ModelUsage(
            model: "gpt-4o-2024-08-06",
            route: "gpt-4o",
            tokens: TokenUsage(promptTokens: 900, completionTokens: 300),
            costNanos: 5_250_000,
            attempts: 1,
            modelTime: .milliseconds(2500)
        )
        let (changes, used, record) = try await withLedgerDatabase { _, ledger, worker in
            let person = newQuotaKey()
            guard case .reserved(let scan) = try await ledger.reserve(newScan(person), policy: QuotaPolicy(limit: 4)) else {
                throw CancellationError()
            }
            let changes = [
                try await worker.succeed(scan.id, result: answer, usage: usage), try await worker.succeed(scan.id, result: answer, usage: usage),
                try await ledger.fail(scan.id, code: .scanTimeout),
            ]
            return (changes, try await ledger.usage(of: person, on: day).scans, try await ledger.scan(scan.id, of: scan.userID))
        }
        #expect(changes == [true, false, false])
        #expect(used == 1)
        #expect(record?.state == .succeeded)
        #expect(record?.result == answer)
        #expect(record?.modelTime == .milliseconds(2500))
    }

    @Test("everyone's spend of the day adds up every scan's cost over the day's parts, and what an earlier release's worker counted")
    func everyonesSpendAddsUp() async throws {
        let usage = ModelUsage(
            model: "gpt-4o-2024-08-06",
            route: "gpt-4o",
            tokens: TokenUsage(promptTokens: 900, completionTokens: 300),
            costNanos: 1_000,
            attempts: 1,
            modelTime: .milliseconds(100)
        )
        let (spend, parts) = try await withLedgerDatabase { client, ledger, worker in
            let today = try await client.query("SELECT (now() AT TIME ZONE 'UTC')::date::text").decode(String.self).first { _ in true } ?? ""
            for _ in 0..<20 {
                guard case .reserved(let scan) = try await ledger.reserve(newScan(newQuotaKey(), day: today), policy: QuotaPolicy(limit: 4)) else {
                    throw CancellationError()
                }
                _ = try await worker.succeed(scan.id, result: ScanResponse(ingredients: [], recipes: []), usage: usage)
            }
            // A worker from before the parts adds to the day's single row.
            try await client.execute(
                "INSERT INTO model_spend (spend_date, cost_nanousd, tokens) VALUES (\(today)::date, 5000, 10)",
                logger: testLogger
            )
            let parts = try await client.query("SELECT count(*) FROM model_spend_parts WHERE spend_date = \(today)::date")
                .decode(Int.self).first { _ in true }
            return (try await ledger.usage(of: newQuotaKey(), on: today).everyonesSpendNanos, parts ?? 0)
        }
        #expect(spend == 20 * 1_000 + 5_000)
        #expect(parts > 1)
    }

    @Test("the same idempotency key and photo find the earlier scan without a second charge; another photo is refused")
    func idempotencyKeys() async throws {
        let (first, again, otherPhoto, otherUser, used) = try await withLedgerDatabase { _, ledger, _ in
            let person = newQuotaKey()
            let user = UUID()
            let first = try await ledger.reserve(newScan(person, user: user, key: "k-1"), policy: QuotaPolicy(limit: 4))
            let again = try await ledger.reserve(newScan(person, user: user, key: "k-1"), policy: QuotaPolicy(limit: 4))
            let otherPhoto = try await ledger.reserve(newScan(person, user: user, key: "k-1", photo: 2), policy: QuotaPolicy(limit: 4))
            let otherUser = try await ledger.reserve(newScan(newQuotaKey(), key: "k-1"), policy: QuotaPolicy(limit: 4))
            return (first, again, otherPhoto, otherUser, try await ledger.usage(of: person, on: day).scans)
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
        let found = try await withLedgerDatabase { _, ledger, _ in
            guard case .reserved(let scan) = try await ledger.reserve(newScan(newQuotaKey()), policy: QuotaPolicy(limit: 4)) else {
                throw CancellationError()
            }
            return [try await ledger.scan(scan.id, of: scan.userID) != nil, try await ledger.scan(scan.id, of: UUID()) != nil]
        }
        #expect(found == [true, false])
    }

    @Test("the sweeper fails open scans past their deadline and grace with scan_timeout, and no others")
    func sweeper() async throws {
        let (failed, states, used) = try await withLedgerDatabase { _, ledger, worker in
            let person = newQuotaKey()
            let user = UUID()
            var ids: [UUID] = []
            for deadline in [-60.0, -60, -10, 90] {
                let scan = newScan(person, user: user, deadline: deadline)
                guard case .reserved(let reserved) = try await ledger.reserve(scan, policy: QuotaPolicy(limit: 4)) else { throw CancellationError() }
                ids.append(reserved.id)
            }
            _ = try await worker.succeed(ids[1], result: ScanResponse(ingredients: [], recipes: []), usage: nil)
            let failed = try await ledger.failOverdue(grace: .seconds(30))
            var states: [String] = []
            for id in ids {
                let record = try await ledger.scan(id, of: user)
                states.append(record.map { "\($0.state)\($0.errorCode.map { " \($0.rawValue)" } ?? "")" } ?? "gone")
            }
            return (failed == [ids[0]], states, try await ledger.usage(of: person, on: day).scans)
        }
        #expect(failed)
        #expect(states == ["failed scan_timeout", "succeeded", "queued", "queued"])
        #expect(used == 3)
    }

    @Test("deleting a user's scans removes every row and keeps the day's charges with the person")
    func deletion() async throws {
        let (rows, used) = try await withLedgerDatabase { client, ledger, _ in
            let person = newQuotaKey()
            let user = UUID()
            for _ in 0..<2 { _ = try await ledger.reserve(newScan(person, user: user), policy: QuotaPolicy(limit: 4)) }
            guard case .reserved(let failed) = try await ledger.reserve(newScan(person, user: user), policy: QuotaPolicy(limit: 4)) else {
                throw CancellationError()
            }
            _ = try await ledger.fail(failed.id, code: .llmUnavailable)
            try await ledger.deleteScans(of: user, quotaKey: person, today: day)
            var rows = 0
            for try await count in try await client.query("SELECT count(*) FROM scans WHERE user_id = \(user)", logger: testLogger).decode(Int.self) {
                rows = count
            }
            return (rows, try await ledger.usage(of: person, on: day).scans)
        }
        #expect(rows == 0)
        #expect(used == 2)
    }

    @Test("the purge deletes scans past their retention whose day has ended, and past days' charges, and nothing else")
    func purge() async throws {
        let (purged, remaining) = try await withLedgerDatabase { client, ledger, _ in
            let person = newQuotaKey()
            for day in ["2026-11-20", "2026-11-21", self.day] {
                _ = try await ledger.reserve(newScan(person, day: day), policy: QuotaPolicy(limit: 4))
            }
            try await client.execute("UPDATE scans SET created_at = now() - interval '2 days'", logger: testLogger)
            _ = try await ledger.reserve(newScan(person, day: "2026-11-21"), policy: QuotaPolicy(limit: 4))
            let purged = try await ledger.purge(olderThan: .seconds(24 * 3600), today: self.day)
            return (purged, [try await ledger.usage(of: person, on: "2026-11-21").scans, try await ledger.usage(of: person, on: self.day).scans])
        }
        #expect(purged == 2)
        #expect(remaining == [1, 1])
    }

    @Test("a worker starts an open scan (again after a redelivery), but not a final or a missing one")
    func workerStart() async throws {
        let starts = try await withLedgerDatabase { _, ledger, worker in
            guard case .reserved(let scan) = try await ledger.reserve(newScan(newQuotaKey()), policy: QuotaPolicy(limit: 4)) else {
                throw CancellationError()
            }
            var starts = [try await worker.start(scan.id), try await worker.start(scan.id)]
            _ = try await worker.fail(scan.id, ScanFailure(.invalidImage, "not a JPEG"))
            starts += [try await worker.start(scan.id), try await worker.start(UUID())]
            return starts
        }
        #expect(starts == [.started, .started, .finished(.failed), .missing])
    }

    @Test("pages of a user's scans come newest first, with no scan skipped or repeated, and no other user's")
    func pages() async throws {
        let (pages, created) = try await withLedgerDatabase { client, ledger, _ in
            let user = UUID()
            var created: [UUID] = []
            for _ in 0..<5 {
                guard case .reserved(let scan) = try await ledger.reserve(newScan(newQuotaKey(), user: user), policy: QuotaPolicy(limit: 4)) else {
                    throw CancellationError()
                }
                created.append(scan.id)
            }
            _ = try await ledger.reserve(newScan(newQuotaKey()), policy: QuotaPolicy(limit: 4))
            // Two scans in the same microsecond: the id decides their order.
            try await client.execute(
                "UPDATE scans SET created_at = '2026-11-22 12:00:00+00' WHERE id = \(created[3]) OR id = \(created[4])",
                logger: testLogger
            )
            var pages: [[UUID]] = []
            var cursor: PageCursor?
            repeat {
                let page = try await ledger.scans(of: user, after: cursor, limit: 2)
                pages.append(page.scans.map(\.id))
                cursor = page.next
            } while cursor != nil
            return (pages, created)
        }
        let sameMoment = [created[3], created[4]].sorted { $0.uuidString > $1.uuidString }
        #expect(pages.map(\.count) == [2, 2, 1])
        #expect(pages.flatMap { $0 } == [created[2], created[1], created[0]] + sameMoment)
    }

    @Test("deleting one scan: a queued one is cancelled and refunded, a running one refused, a succeeded one gone but charged")
    func deleteOne() async throws {
        let (outcomes, used, remaining) = try await withLedgerDatabase { _, ledger, worker in
            let person = newQuotaKey()
            let user = UUID()
            var scans: [ScanRecord] = []
            for _ in 0..<3 {
                guard case .reserved(let scan) = try await ledger.reserve(newScan(person, user: user), policy: QuotaPolicy(limit: 4)) else {
                    throw CancellationError()
                }
                scans.append(scan)
            }
            _ = try await worker.start(scans[1].id)
            _ = try await worker.succeed(scans[2].id, result: ScanResponse(ingredients: [], recipes: []), usage: nil)
            var outcomes: [ScanDeletion] = []
            for scan in scans { outcomes.append(try await ledger.delete(scan.id, of: user, quotaKey: person)) }
            outcomes.append(try await ledger.delete(scans[1].id, of: UUID(), quotaKey: person))
            let remaining = try await ledger.scans(of: user, after: nil, limit: 10).scans.map(\.id)
            return (outcomes, try await ledger.usage(of: person, on: day).scans, remaining == [scans[1].id])
        }
        #expect(outcomes == [.cancelled, .running, .deleted, .notFound])
        #expect(used == 2)
        #expect(remaining)
    }

    @Test("releasing a scan whose job never left fails it while queued, refunds it and frees its key; a started scan is untouched")
    func release() async throws {
        let (released, used, retried) = try await withLedgerDatabase { _, ledger, worker in
            let person = newQuotaKey()
            let user = UUID()
            var scans: [ScanRecord] = []
            for key in ["never-sent", "running"] {
                guard case .reserved(let scan) = try await ledger.reserve(newScan(person, user: user, key: key), policy: QuotaPolicy(limit: 4))
                else { throw CancellationError() }
                scans.append(scan)
            }
            _ = try await worker.start(scans[1].id)
            let released = [
                try await ledger.release(scans[0].id, code: .llmUnavailable), try await ledger.release(scans[1].id, code: .llmUnavailable),
            ]
            let used = try await ledger.usage(of: person, on: day).scans
            guard case .reserved = try await ledger.reserve(newScan(person, user: user, key: "never-sent"), policy: QuotaPolicy(limit: 4)) else {
                return (released, used, false)
            }
            return (released, used, true)
        }
        #expect(released == [true, false])
        #expect(used == 1)
        #expect(retried, "the same key starts a new scan")
    }

    @Test("the gauges count the open scans by state, not the final ones, and find the oldest queued one")
    func gauges() async throws {
        let (counts, oldest) = try await withLedgerDatabase { client, ledger, worker in
            let person = newQuotaKey()
            var ids: [UUID] = []
            for _ in 0..<4 {
                guard case .reserved(let scan) = try await ledger.reserve(newScan(person), policy: QuotaPolicy(limit: 4)) else {
                    throw CancellationError()
                }
                ids.append(scan.id)
            }
            _ = try await worker.start(ids[0])
            _ = try await ledger.fail(ids[3], code: .llmUnavailable)
            try await client.execute("UPDATE scans SET created_at = '2026-11-22 08:00:00+00' WHERE id = \(ids[1])", logger: testLogger)
            return (try await ledger.countOpenByState(), try await ledger.oldestQueued())
        }
        #expect(counts == [.running: 1, .queued: 2])
        #expect(oldest == ISO8601DateFormatter().date(from: "2026-11-22T08:00:00Z"))
    }
}
