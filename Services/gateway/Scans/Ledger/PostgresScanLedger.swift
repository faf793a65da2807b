import Foundation
import KiwiConcurrency
import KiwiDatabase
import KiwiModels
import KiwiScanStore
import KiwiScans
import Logging
import PostgresNIO

/// The `scans` table, and `scan_usage` for the charges outside it (from before the ledger, and of deleted accounts).
/// The database is the authority, so every gateway replica sees the same scans and counts.
struct PostgresScanLedger: ScanLedger {
    let client: PostgresClient
    let logger: Logger
    /// The longest one operation may take; past it the request fails (503) instead of hanging on a stuck database.
    var timeout = StatementTimeout.default

    /// A scan's columns, named as ``record(_:partialsAfter:)`` reads them, its partials after the first
    /// `partialsAfter` (SQL for a number).
    fileprivate static func columns(partialsAfter: String = "0") -> String {
        """
        id, user_id, state, error_code, COALESCE(error_message, '') AS error_message, photo_sha256, deadline, created_at,
        result::text AS result, model_ms, retry_after_seconds, \(StoredPartial.column(ofScan: "scans", after: partialsAfter)) AS partials,
        partial_count, parent_id
        """
    }

    private var transitions: ScanTransitionStore {
        var transitions = ScanTransitionStore(client: client, logger: logger)
        transitions.timeout = timeout
        return transitions
    }

    func usage(of quotaKey: Data, on day: String) async throws -> DailyUsage {
        try await withStatementDeadline("scan ledger used", timeout: timeout) {
            for try await (scans, tokens, spend) in try await client.execute(DailyUsageStatement(quotaKey: quotaKey, day: day), logger: logger) {
                return DailyUsage(scans: scans, tokens: tokens, everyonesSpendNanos: spend)
            }
            return DailyUsage()
        }
    }

    /// One statement, `kiwi_reserve_scan` (KiwiSchema, version 26), under a lock per person (`pg_advisory_xact_lock` on
    /// the quota key): the idempotency key is looked up, the day's usage read, and the new scan inserted, with no other
    /// reservation of the same person in between. 1,000 simultaneous attempts of one person still grant exactly the
    /// limit. A refinement's chain is priced under the lock of its photo scan's row as well. The scan's photo key is
    /// written with it, before its job can be published. Everyone's spend is read without a lock: the budget is checked
    /// before each reservation, not held by it (docs/architecture.md, "Spend and model routes").
    ///
    /// A reservation whose outcome never arrived (the primary died, the link was cut, the deadline passed) may still
    /// have committed: it is resolved by reading the scan's own id, never by reserving again
    /// (``resolveUnknownReservation(of:)``).
    func reserve(_ scan: QueuedScan, policy: QuotaPolicy) async throws -> ScanReservation {
        do {
            return try await withStatementDeadline("scan ledger reserve", timeout: timeout) {
                let statement = ReserveScanStatement(scan: scan, lockKey: Self.lockKey(scan.quotaKey), policy: policy)
                for try await row in try await client.execute(statement, logger: logger) {
                    return try Self.reservation(row, of: scan, policy: policy)
                }
                throw PostgresRowMissing()
            }
        } catch let error where DatabaseFailure(error) == .outage {
            guard let reserved = try await resolveUnknownReservation(of: scan) else { throw error }
            logger.warning("a reservation whose outcome was lost had committed", metadata: ["scanId": "\(scan.id)"])
            return .reserved(reserved)
        }
    }

    /// The scan `scan` reserved, if its reservation committed: read by its id (new with each attempt, so only that
    /// reservation can have written it) on whichever connection reaches the store, a new primary's after a failover,
    /// for up to ``timeout``. Nil when the store has no such scan: the reservation did not commit (or, on a server that
    /// is still running it, commits later, and the sweeper fails that scan past its deadline, free). Throws when no
    /// answer came in time; the sweeper settles that case the same way.
    private func resolveUnknownReservation(of scan: QueuedScan) async throws -> ScanRecord? {
        let giveUp = ContinuousClock.now + timeout
        while true {
            do {
                return try await withStatementDeadline("scan ledger resolve reservation", timeout: .seconds(1)) {
                    try await Self.records(
                        try await client.execute(ScanOfUserStatement(id: scan.id, userID: scan.userID, partialsAfter: 0), logger: logger)
                    ).first
                }
            } catch let error where DatabaseFailure(error) == .outage && ContinuousClock.now + Self.resolvePause < giveUp {
                try await sleep(for: Self.resolvePause)
            }
        }
    }

    private static let resolvePause = Duration.milliseconds(200)

    /// What `kiwi_reserve_scan` decided: its row is a scan's ``columns``, then the outcome and the usage it read.
    /// A refusal is named by ``QuotaPolicy/refusal(after:)`` from the very usage the function refused on.
    private static func reservation(_ row: PostgresRow, of scan: QueuedScan, policy: QuotaPolicy) throws -> ScanReservation {
        let columns = row.makeRandomAccess()
        switch try columns["outcome"].decode(String.self) {
        case "replay":
            let record = try record(columns)
            return record.photoSHA256 == scan.photoSHA256 ? .replay(record) : .keyReused
        case "reserved":
            return .reserved(try record(columns))
        case "no_parent":
            return .noParent
        case "not_refinable":
            return .notRefinable
        case let outcome:
            let usage = DailyUsage(
                scans: try columns["used_scans"].decode(Int.self),
                tokens: try columns["used_tokens"].decode(Int.self),
                everyonesSpendNanos: try columns["everyones_spend"].decode(Int64.self)
            )
            guard outcome == "refused", let refusal = policy.refusal(after: usage, free: try columns["free"].decode(Bool.self)) else {
                throw ReservationOutcomeUnknown(outcome: outcome)
            }
            return .refused(refusal)
        }
    }

    func fail(_ id: UUID, code: ScanFailure.Code) async throws -> Bool {
        try await transitions.fail(id, ScanFailure(code, ""))
    }

    func release(_ id: UUID, code: ScanFailure.Code) async throws -> Bool {
        try await transitions.release(id, ScanFailure(code, ""))
    }

    func failOverdue(grace: Duration) async throws -> [UUID] {
        try await transitions.failOverdue(grace: grace)
    }

    /// Pages by `(created_at, id)` in microseconds, the precision PostgreSQL keeps, so no scan is skipped or repeated
    /// between pages. A scan reserved before modes were kept has its answer's mode, or none: a fridge scan's.
    func scans(of userID: UUID, modes: [ScanMode], after cursor: PageCursor?, limit: Int) async throws -> ScanPage {
        try await withStatementDeadline("scan ledger list", timeout: timeout) {
            let micros = PageCursor.createdAtMicrosecondsSQL
            let rows = try await client.query(
                """
                SELECT \(unescaped: Self.columns()), \(unescaped: micros) AS created_at_micros FROM scans
                WHERE user_id = \(userID) AND COALESCE(mode, result->>'mode', 'fridge') = ANY(\(modes.map(\.rawValue)))
                    AND (\(cursor == nil) OR (\(unescaped: micros), id) < (\(cursor?.createdAtMicroseconds ?? 0), \(cursor?.id ?? UUID())))
                ORDER BY created_at DESC, id DESC LIMIT \(limit + 1)
                """,
                logger: logger
            )
            var found: [(item: ScanRecord, createdAtMicroseconds: Int64)] = []
            for try await row in rows {
                let columns = row.makeRandomAccess()
                found.append((try Self.record(columns), try columns["created_at_micros"].decode(Int64.self)))
            }
            let page = PageCursor.page(of: found, limit: limit, id: \.id)
            return ScanPage(scans: page.items, next: page.next)
        }
    }

    func scan(_ id: UUID, of userID: UUID, partialsAfter seen: Int) async throws -> ScanRecord? {
        try await withStatementDeadline("scan ledger find", timeout: timeout) {
            let rows = try await client.execute(ScanOfUserStatement(id: id, userID: userID, partialsAfter: seen), logger: logger)
            return try await Self.records(rows, partialsAfter: seen).first
        }
    }

    func scan(idempotencyKey key: String, of userID: UUID) async throws -> ScanRecord? {
        try await withStatementDeadline("scan ledger find key", timeout: timeout) {
            let rows = try await client.query(
                "SELECT \(unescaped: Self.columns()) FROM scans WHERE user_id = \(userID) AND idempotency_key = \(key)",
                logger: logger
            )
            return try await Self.records(rows).first
        }
    }

    /// The result is read under its row's lock and written back in the same transaction, so that two corrections at once
    /// both land, one after the other.
    func correct(_ correction: ReceiptLineCorrection, ofLine lineID: UUID, inScan id: UUID, of userID: UUID) async throws -> ScanRecord? {
        let corrected = try await withStatementDeadline("scan ledger correct receipt", timeout: timeout) {
            try await client.withTransaction(logger: logger) { connection in
                let rows = try await connection.query(
                    "SELECT result::text FROM scans WHERE id = \(id) AND user_id = \(userID) AND state = 'succeeded' FOR UPDATE",
                    logger: logger
                )
                var stored: String?
                for try await result in rows.decode(String?.self) { stored = result }
                guard let stored, var response = try? KiwiJSON.decoder().decode(ScanResponse.self, from: Data(stored.utf8)),
                    let receipt = response.receipt.flatMap({ correction.applied(to: $0, line: lineID) })
                else { return false }
                response.receipt = receipt
                let json = String(decoding: try KiwiJSON.encoder().encode(response), as: UTF8.self)
                try await connection.execute("UPDATE scans SET result = \(json)::jsonb WHERE id = \(id)", logger: logger)
                return true
            }
        }
        return corrected ? try await scan(id, of: userID) : nil
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
                    WHERE user_id = \(userID) AND scan_date = \(today)::date AND state <> 'failed' AND NOT free GROUP BY scan_date
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
    /// settled with no reservation of theirs in between. A deleted success's charge moves to `scan_usage` (a free
    /// refinement has none).
    func delete(_ id: UUID, of userID: UUID, quotaKey: Data) async throws -> ScanDeletion {
        try await withStatementDeadline("scan ledger delete scan", timeout: timeout) {
            try await client.withTransaction(logger: logger) { connection in
                try await connection.execute("SELECT pg_advisory_xact_lock(\(Self.lockKey(quotaKey)))", logger: logger)
                let rows = try await connection.query(
                    "SELECT state, free FROM scans WHERE id = \(id) AND user_id = \(userID) FOR UPDATE",
                    logger: logger
                )
                var found: (state: ScanState, free: Bool)?
                for try await (state, free) in rows.decode((String, Bool).self) { found = (ScanState(rawValue: state) ?? .failed, free) }
                guard let (state, free) = found else { return .notFound }
                if state == .running { return .running }
                if state == .succeeded, !free {
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

    /// Through the `scans_open` partial index: the open scans only, however many final ones the table keeps.
    func countOpenByState() async throws -> [ScanState: Int] {
        try await withStatementDeadline("scan ledger count", timeout: timeout) {
            var counts: [ScanState: Int] = [:]
            let query: PostgresQuery = "SELECT state, count(*) FROM scans WHERE state IN ('queued', 'running') GROUP BY state"
            for try await (state, count) in try await client.query(query, logger: logger).decode((String, Int).self) {
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

    private static func records(_ rows: some AsyncSequence<PostgresRow, any Error>, partialsAfter seen: Int = 0) async throws -> [ScanRecord] {
        var records: [ScanRecord] = []
        for try await row in rows { records.append(try record(row.makeRandomAccess(), partialsAfter: seen)) }
        return records
    }

    /// A scan from a row that holds ``columns(partialsAfter:)``, read by name.
    private static func record(_ columns: PostgresRandomAccessRow, partialsAfter seen: Int = 0) throws -> ScanRecord {
        let result = try columns["result"].decode(String?.self)
        return ScanRecord(
            id: try columns["id"].decode(UUID.self),
            userID: try columns["user_id"].decode(UUID.self),
            state: ScanState(rawValue: try columns["state"].decode(String.self)) ?? .failed,
            errorCode: try columns["error_code"].decode(String?.self).flatMap(ScanFailure.Code.init(rawValue:)),
            errorMessage: try columns["error_message"].decode(String.self),
            photoSHA256: try columns["photo_sha256"].decode(Data.self),
            deadline: try columns["deadline"].decode(Date.self),
            createdAt: try columns["created_at"].decode(Date.self),
            result: try result.map { try KiwiJSON.decoder().decode(ScanResponse.self, from: Data($0.utf8)) },
            modelTime: try columns["model_ms"].decode(Int?.self).map { .milliseconds($0) },
            retryAfterSeconds: try columns["retry_after_seconds"].decode(Int?.self),
            partials: try StoredPartial.entries(of: try columns["partials"].decode(String?.self), after: seen),
            partialCount: try columns["partial_count"].decode(Int.self),
            parentID: try columns["parent_id"].decode(UUID?.self)
        )
    }
}

// MARK: - The statements of every scan, prepared once per connection (KiwiDatabase's PreparedStatements)

/// A person's scans and tokens of `day`, and everyone's spend of it: what ``QuotaPolicy`` decides from.
private struct DailyUsageStatement: PostgresPreparedStatement {
    static let sql = "SELECT used_scans, used_tokens, everyones_spend FROM kiwi_daily_usage($1, $2::date)"
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

/// ``PostgresScanLedger/reserve(_:policy:)``: `kiwi_reserve_scan`'s row, a scan's columns named as
/// ``PostgresScanLedger/columns`` names them, then whether it is (or would have been) a free refinement, the outcome
/// and the usage; a scan included in another's price is free (``QueuedScan/free``). A limit the policy does not set
/// is NULL, no limit. A replayed scan's partials and their count are joined from its row (a new scan has none).
struct ReserveScanStatement: PostgresPreparedStatement {
    static let sql = """
        SELECT r_id AS id, r_user_id AS user_id, r_state AS state, r_error_code AS error_code, r_error_message AS error_message,
            r_photo_sha256 AS photo_sha256, r_deadline AS deadline, r_created_at AS created_at, r_result AS result,
            r_model_ms AS model_ms, r_retry_after_seconds AS retry_after_seconds, \(StoredPartial.column(ofScan: "earlier")) AS partials,
            COALESCE(earlier.partial_count, 0) AS partial_count, r_parent_id AS parent_id, r_free AS free, outcome, used_scans,
            used_tokens, everyones_spend
        FROM kiwi_reserve_scan($1, $2, $3, $4::date, $5, $6, $7, $8, $9, $10, $11, $12, to_jsonb($13::text[]), $14, $15, $16, $17)
        LEFT JOIN scans AS earlier ON earlier.id = r_id
        """
    // Stated, because the idempotency key, the limits and a photo scan's parent may be null, which says nothing of their types.
    static let bindingDataTypes: [PostgresDataType] = [
        .uuid, .uuid, .bytea, .text, .text, .bytea, .timestamptz, .int8, .int8, .int8, .int8, .uuid, .textArray, .int4, .bytea, .bool, .text,
    ]
    typealias Row = PostgresRow

    let scan: QueuedScan
    let lockKey: Int64
    let policy: QuotaPolicy

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings()
        bindings.append(scan.id)
        bindings.append(scan.userID)
        try bindings.append(scan.quotaKey)
        bindings.append(scan.day)
        bindings.append(scan.idempotencyKey)
        try bindings.append(scan.photoSHA256)
        bindings.append(scan.deadline)
        bindings.append(lockKey)
        bindings.append(policy.limit)
        bindings.append(policy.tokenLimit)
        bindings.append(policy.dailyBudgetNanos)
        bindings.append(scan.refinement?.parentID)
        bindings.append(scan.refinement?.ingredients)
        bindings.append(Int32(policy.freeRefinements))
        try bindings.append(scan.photoKey.bytes)
        bindings.append(scan.free)
        bindings.append(scan.mode.rawValue)
        return bindings
    }
}

/// `kiwi_reserve_scan` answered with an outcome this gateway does not know, or refused a scan its policy would allow.
private struct ReservationOutcomeUnknown: Error {
    let outcome: String
}

/// One scan of one person.
private struct ScanOfUserStatement: PostgresPreparedStatement {
    static let sql = "SELECT \(PostgresScanLedger.columns(partialsAfter: "$3")) FROM scans WHERE id = $1 AND user_id = $2"
    static let bindingDataTypes: [PostgresDataType] = [.uuid, .uuid, .int8]
    typealias Row = PostgresRow

    let id: UUID
    let userID: UUID
    let partialsAfter: Int

    func makeBindings() -> PostgresBindings {
        var bindings = PostgresBindings()
        bindings.append(id)
        bindings.append(userID)
        bindings.append(partialsAfter)
        return bindings
    }
}
