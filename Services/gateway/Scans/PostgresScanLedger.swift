import Foundation
import KiwiConcurrency
import KiwiDatabase
import KiwiModels
import KiwiScanJobs
import KiwiScans
import Logging
import PostgresNIO

/// The `scans` table, and `scan_usage` for the charges outside it (from before the ledger, and of deleted accounts).
/// The database is the authority, so every gateway replica sees the same scans and counts.
struct PostgresScanLedger: ScanLedger {
    let client: PostgresClient
    let logger: Logger
    /// The longest one operation may take; past it the request fails (503) instead of hanging on a stuck database.
    var timeout = Duration.seconds(5)

    fileprivate static let columns =
        "id, user_id, state, error_code, COALESCE(error_message, ''), photo_sha256, deadline, created_at, result::text, model_ms, retry_after_seconds"

    private var transitions: ScanTransitions {
        var transitions = ScanTransitions(client: client, logger: logger)
        transitions.timeout = timeout
        return transitions
    }

    func usage(of quotaKey: Data, on day: String) async throws -> DailyUsage {
        try await withStatementDeadline("scan ledger used", timeout: timeout) {
            try await client.withConnection { try await Self.usage(of: quotaKey, on: day, connection: $0, logger: logger) }
        }
    }

    private static func usage(of quotaKey: Data, on day: String, connection: PostgresConnection, logger: Logger) async throws -> DailyUsage {
        for try await (scans, tokens, spend) in try await connection.execute(DailyUsageStatement(quotaKey: quotaKey, day: day), logger: logger) {
            return DailyUsage(scans: scans, tokens: tokens, everyonesSpendNanos: spend)
        }
        return DailyUsage()
    }

    /// One transaction under a lock per person (`pg_advisory_xact_lock` on the quota key): the idempotency key is
    /// looked up, the day's usage read, and the new scan inserted, with no other reservation of the same person in
    /// between. 1,000 simultaneous attempts of one person still grant exactly the limit. Everyone's spend is read
    /// without a lock: the budget is checked before each reservation, not held by it (docs/architecture.md, "Spend and model routes").
    func reserve(_ scan: QueuedScan, policy: QuotaPolicy) async throws -> ScanReservation {
        try await withStatementDeadline("scan ledger reserve", timeout: timeout) {
            try await client.withTransaction(logger: logger) { connection in
                try await connection.execute("SELECT pg_advisory_xact_lock(\(Self.lockKey(scan.quotaKey)))", logger: logger)
                if let key = scan.idempotencyKey {
                    let earlier = try await connection.query(
                        "SELECT \(unescaped: Self.columns) FROM scans WHERE user_id = \(scan.userID) AND idempotency_key = \(key)",
                        logger: logger
                    )
                    if let record = try await Self.records(earlier).first {
                        return record.photoSHA256 == scan.photoSHA256 ? .replay(record) : .keyReused
                    }
                }
                let usage = try await Self.usage(of: scan.quotaKey, on: scan.day, connection: connection, logger: logger)
                if let refusal = policy.refusal(after: usage) { return .refused(refusal) }
                let inserted = try await ScanTransitions.insertQueued(scan, returning: LedgerColumns.self, on: connection, logger: logger)
                guard let record = try await Self.records(inserted).first else { throw PostgresRowMissing() }
                return .reserved(record)
            }
        }
    }

    func fail(_ id: UUID, code: ScanFailure.Code) async throws -> Bool {
        try await transitions.fail(id, ScanFailure(code, ""))
    }

    func release(_ id: UUID, code: ScanFailure.Code) async throws -> Bool {
        try await withStatementDeadline("scan ledger release", timeout: timeout) {
            let rows = try await client.query(
                """
                UPDATE scans SET state = 'failed', error_code = \(code.rawValue), idempotency_key = NULL, updated_at = now()
                WHERE id = \(id) AND state = 'queued' RETURNING \(unescaped: ScanEndMetrics.ageColumn)
                """,
                logger: logger
            )
            for try await age in rows.decode(Double.self) {
                ScanEndMetrics.ended(code.rawValue, afterSeconds: age)
                return true
            }
            return false
        }
    }

    /// Many replicas sweep at once without doing the same work twice: each takes the overdue rows no other holds.
    func failOverdue(grace: Duration) async throws -> [UUID] {
        try await withStatementDeadline("scan ledger sweep", timeout: timeout) {
            let rows = try await client.query(
                """
                WITH overdue AS (
                    SELECT id FROM scans WHERE state IN ('queued', 'running') AND deadline < now() - make_interval(secs => \(grace.seconds))
                    ORDER BY deadline LIMIT 1000 FOR UPDATE SKIP LOCKED
                )
                UPDATE scans SET state = 'failed', error_code = \(ScanFailure.Code.scanTimeout.rawValue), updated_at = now()
                FROM overdue WHERE scans.id = overdue.id RETURNING scans.id, \(unescaped: ScanEndMetrics.ageColumn)
                """,
                logger: logger
            )
            var ids: [UUID] = []
            for try await (id, age) in rows.decode((UUID, Double).self) {
                ScanEndMetrics.ended(ScanFailure.Code.scanTimeout.rawValue, afterSeconds: age)
                ids.append(id)
            }
            return ids
        }
    }

    /// Pages by `(created_at, id)` in microseconds, the precision PostgreSQL keeps, so no scan is skipped or repeated
    /// between pages.
    func scans(of userID: UUID, after cursor: PageCursor?, limit: Int) async throws -> ScanPage {
        try await withStatementDeadline("scan ledger list", timeout: timeout) {
            let micros = PageCursor.createdAtMicrosecondsSQL
            let rows = try await client.query(
                """
                SELECT \(unescaped: Self.columns), \(unescaped: micros) FROM scans
                WHERE user_id = \(userID) AND (\(cursor == nil) OR (\(unescaped: micros), id) < (\(cursor?.createdAtMicroseconds ?? 0), \(cursor?.id ?? UUID())))
                ORDER BY created_at DESC, id DESC LIMIT \(limit + 1)
                """,
                logger: logger
            )
            var found: [(item: ScanRecord, createdAtMicroseconds: Int64)] = []
            for try await row in rows {
                found.append((try Self.record(row), try row.makeRandomAccess()[11].decode(Int64.self)))
            }
            let page = PageCursor.page(of: found, limit: limit, id: \.id)
            return ScanPage(scans: page.items, next: page.next)
        }
    }

    func scan(_ id: UUID, of userID: UUID) async throws -> ScanRecord? {
        try await withStatementDeadline("scan ledger find", timeout: timeout) {
            try await Self.records(try await client.execute(ScanOfUserStatement(id: id, userID: userID), logger: logger)).first
        }
    }

    /// The day's charges move to `scan_usage`, keyed by the person, in the transaction that deletes the scans.
    func deleteScans(of userID: UUID, quotaKey: Data, today: String) async throws {
        try await withStatementDeadline("scan ledger delete user", timeout: timeout) {
            try await client.withTransaction(logger: logger) { connection in
                try await connection.execute("SELECT pg_advisory_xact_lock(\(Self.lockKey(quotaKey)))", logger: logger)
                try await connection.execute(
                    """
                    INSERT INTO scan_usage (quota_key, scan_date, scan_count)
                    SELECT \(quotaKey), scan_date, count(*) FROM scans
                    WHERE user_id = \(userID) AND scan_date = \(today)::date AND state <> 'failed' GROUP BY scan_date
                    ON CONFLICT (quota_key, scan_date) DO UPDATE SET scan_count = scan_usage.scan_count + EXCLUDED.scan_count
                    """,
                    logger: logger
                )
                try await connection.execute("DELETE FROM scans WHERE user_id = \(userID)", logger: logger)
            }
        }
    }

    func purge(olderThan retention: Duration, today: String) async throws -> Int {
        try await withStatementDeadline("scan ledger purge", timeout: timeout) {
            try await client.withTransaction(logger: logger) { connection in
                let cutoff = Date().addingTimeInterval(-retention.seconds)
                try await connection.execute("UPDATE scans SET result = NULL WHERE result IS NOT NULL AND created_at < \(cutoff)", logger: logger)
                try await connection.execute("DELETE FROM scan_usage WHERE scan_date < \(today)::date", logger: logger)
                let rows = try await connection.query(
                    """
                    WITH purged AS (DELETE FROM scans WHERE created_at < \(cutoff) AND scan_date < \(today)::date RETURNING 1)
                    SELECT count(*) FROM purged
                    """,
                    logger: logger
                )
                for try await count in rows.decode(Int.self) { return count }
                return 0
            }
        }
    }

    /// Under the person's lock, like a reservation: a cancelled scan's charge and a deleted success's charge are
    /// settled with no reservation of theirs in between. A deleted success's charge moves to `scan_usage`.
    func delete(_ id: UUID, of userID: UUID, quotaKey: Data) async throws -> ScanDeletion {
        try await withStatementDeadline("scan ledger delete scan", timeout: timeout) {
            try await client.withTransaction(logger: logger) { connection in
                try await connection.execute("SELECT pg_advisory_xact_lock(\(Self.lockKey(quotaKey)))", logger: logger)
                let rows = try await connection.query(
                    "SELECT state FROM scans WHERE id = \(id) AND user_id = \(userID) FOR UPDATE",
                    logger: logger
                )
                var found: ScanState?
                for try await state in rows.decode(String.self) { found = ScanState(rawValue: state) ?? .failed }
                guard let state = found else { return .notFound }
                if state == .running { return .running }
                if state == .succeeded {
                    try await connection.execute(
                        """
                        INSERT INTO scan_usage (quota_key, scan_date, scan_count)
                        SELECT quota_key, scan_date, 1 FROM scans WHERE id = \(id)
                        ON CONFLICT (quota_key, scan_date) DO UPDATE SET scan_count = scan_usage.scan_count + 1
                        """,
                        logger: logger
                    )
                }
                try await connection.execute("DELETE FROM scans WHERE id = \(id)", logger: logger)
                return state == .queued ? .cancelled : .deleted
            }
        }
    }

    func countByState() async throws -> [ScanState: Int] {
        try await withStatementDeadline("scan ledger count", timeout: timeout) {
            var counts: [ScanState: Int] = [:]
            for try await (state, count) in try await client.query("SELECT state, count(*) FROM scans GROUP BY state", logger: logger)
                .decode((String, Int).self)
            {
                if let state = ScanState(rawValue: state) { counts[state] = count }
            }
            return counts
        }
    }

    func oldestQueued() async throws -> Date? {
        try await withStatementDeadline("scan ledger oldest queued", timeout: timeout) {
            for try await oldest in try await client.query("SELECT min(created_at) FROM scans WHERE state = 'queued'", logger: logger)
                .decode(Date?.self)
            {
                return oldest
            }
            return nil
        }
    }

    /// The advisory lock of a person: the first 8 bytes of their quota key (itself a keyed hash).
    static func lockKey(_ quotaKey: Data) -> Int64 {
        quotaKey.prefix(8).reduce(Int64(0)) { $0 << 8 | Int64($1) }
    }

    private static func records(_ rows: some AsyncSequence<PostgresRow, any Error>) async throws -> [ScanRecord] {
        var records: [ScanRecord] = []
        for try await row in rows { records.append(try record(row)) }
        return records
    }

    /// A scan from a row that starts with ``columns``.
    private static func record(_ row: PostgresRow) throws -> ScanRecord {
        let columns = row.makeRandomAccess()
        let result = try columns[8].decode(String?.self)
        return ScanRecord(
            id: try columns[0].decode(UUID.self),
            userID: try columns[1].decode(UUID.self),
            state: ScanState(rawValue: try columns[2].decode(String.self)) ?? .failed,
            errorCode: try columns[3].decode(String?.self).flatMap(ScanFailure.Code.init(rawValue:)),
            errorMessage: try columns[4].decode(String.self),
            photoSHA256: try columns[5].decode(Data.self),
            deadline: try columns[6].decode(Date.self),
            createdAt: try columns[7].decode(Date.self),
            result: try result.map { try KiwiJSON.decoder().decode(ScanResponse.self, from: Data($0.utf8)) },
            modelTime: try columns[9].decode(Int?.self).map { .milliseconds($0) },
            retryAfterSeconds: try columns[10].decode(Int?.self)
        )
    }
}

// MARK: - The statements of every scan, prepared once per connection (see ``ScanTransitions``)

/// The columns a ``ScanRecord`` is read from.
private enum LedgerColumns: ScanColumns {
    static let sql = PostgresScanLedger.columns
}

/// A person's scans and tokens of `day`, and everyone's spend of it: what ``QuotaPolicy`` decides from.
private struct DailyUsageStatement: PostgresPreparedStatement {
    static let sql = """
        SELECT (SELECT count(*) FROM scans WHERE quota_key = $1 AND scan_date = $2::date AND state <> 'failed')
                + COALESCE(usage.scan_count, 0),
            COALESCE(usage.tokens, 0), COALESCE((SELECT cost_nanousd FROM model_spend WHERE spend_date = $2::date), 0)
        FROM (SELECT 1) AS one
        LEFT JOIN scan_usage AS usage ON usage.quota_key = $1 AND usage.scan_date = $2::date
        """
    typealias Row = (Int, Int, Int64)

    let quotaKey: Data
    let day: String

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings()
        try bindings.append(quotaKey)
        bindings.append(day)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
}

/// One scan of one person.
private struct ScanOfUserStatement: PostgresPreparedStatement {
    static let sql = "SELECT \(PostgresScanLedger.columns) FROM scans WHERE id = $1 AND user_id = $2"
    typealias Row = PostgresRow

    let id: UUID
    let userID: UUID

    func makeBindings() -> PostgresBindings {
        var bindings = PostgresBindings()
        bindings.append(id)
        bindings.append(userID)
        return bindings
    }
}
