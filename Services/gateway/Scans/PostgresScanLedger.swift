import Foundation
import KiwiConcurrency
import KiwiDatabase
import KiwiModels
import KiwiScanJobs
import Logging
import PostgresNIO

/// The `scans` table, and `scan_usage` for the charges outside it (from before the ledger, and of deleted accounts).
/// The database is the authority, so every gateway replica sees the same scans and counts.
struct PostgresScanLedger: ScanLedger {
    let client: PostgresClient
    let logger: Logger
    /// The longest one operation may take; past it the request fails (503) instead of hanging on a stuck database.
    var timeout = Duration.seconds(5)

    private static let columns = "id, user_id, state, error_code, photo_sha256, deadline, created_at, result::text"

    func used(by quotaKey: Data, on day: String) async throws -> Int {
        try await withStatementDeadline("scan ledger used", timeout: timeout) {
            try await client.withConnection { try await Self.used(by: quotaKey, on: day, connection: $0, logger: logger) }
        }
    }

    private static func used(by quotaKey: Data, on day: String, connection: PostgresConnection, logger: Logger) async throws -> Int {
        let rows = try await connection.query(
            """
            SELECT (SELECT count(*) FROM scans WHERE quota_key = \(quotaKey) AND scan_date = \(day)::date AND state <> 'failed')
                + COALESCE((SELECT scan_count FROM scan_usage WHERE quota_key = \(quotaKey) AND scan_date = \(day)::date), 0)
            """,
            logger: logger
        )
        for try await count in rows.decode(Int.self) { return count }
        return 0
    }

    /// One transaction under a lock per person (`pg_advisory_xact_lock` on the quota key): the idempotency key is
    /// looked up, the day's scans counted, and the new scan inserted, with no other reservation of the same person in
    /// between. 1,000 simultaneous attempts of one person still grant exactly the limit.
    func reserve(_ scan: NewScan, limit: Int) async throws -> ScanReservation {
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
                guard try await Self.used(by: scan.quotaKey, on: scan.day, connection: connection, logger: logger) < limit else {
                    return .limitReached
                }
                let inserted = try await connection.query(
                    """
                    INSERT INTO scans (id, user_id, quota_key, scan_date, state, idempotency_key, photo_sha256, deadline)
                    VALUES (\(scan.id), \(scan.userID), \(scan.quotaKey), \(scan.day)::date, 'queued', \(scan.idempotencyKey),
                            \(scan.photoSHA256), \(scan.deadline))
                    RETURNING \(unescaped: Self.columns)
                    """,
                    logger: logger
                )
                guard let record = try await Self.records(inserted).first else { throw PostgresRowMissing() }
                return .reserved(record)
            }
        }
    }

    func succeed(_ id: UUID, result: ScanResponse) async throws -> Bool {
        let json = String(decoding: try KiwiJSON.encoder().encode(result), as: UTF8.self)
        return try await transition(
            "scan ledger succeed",
            """
            UPDATE scans SET state = 'succeeded', result = \(json)::jsonb, updated_at = now()
            WHERE id = \(id) AND state IN ('queued', 'running') RETURNING 1
            """
        ) > 0
    }

    func fail(_ id: UUID, code: ScanFailure.Code) async throws -> Bool {
        try await transition(
            "scan ledger fail",
            """
            UPDATE scans SET state = 'failed', error_code = \(code.rawValue), updated_at = now()
            WHERE id = \(id) AND state IN ('queued', 'running') RETURNING 1
            """
        ) > 0
    }

    /// Many replicas sweep at once without doing the same work twice: each takes the overdue rows no other holds.
    func failOverdue(grace: Duration) async throws -> Int {
        try await transition(
            "scan ledger sweep",
            """
            WITH overdue AS (
                SELECT id FROM scans WHERE state IN ('queued', 'running') AND deadline < now() - make_interval(secs => \(grace.seconds))
                ORDER BY deadline LIMIT 1000 FOR UPDATE SKIP LOCKED
            )
            UPDATE scans SET state = 'failed', error_code = \(ScanFailure.Code.scanTimeout.rawValue), updated_at = now()
            FROM overdue WHERE scans.id = overdue.id RETURNING 1
            """
        )
    }

    func scan(_ id: UUID, of userID: UUID) async throws -> ScanRecord? {
        try await withStatementDeadline("scan ledger find", timeout: timeout) {
            let rows = try await client.query(
                "SELECT \(unescaped: Self.columns) FROM scans WHERE id = \(id) AND user_id = \(userID)",
                logger: logger
            )
            return try await Self.records(rows).first
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

    /// Runs one state change and returns how many scans it changed.
    private func transition(_ name: String, _ statement: PostgresQuery) async throws -> Int {
        try await withStatementDeadline(name, timeout: timeout) {
            var changed = 0
            for try await _ in try await client.query(statement, logger: logger).decode(Int.self) { changed += 1 }
            return changed
        }
    }

    /// The advisory lock of a person: the first 8 bytes of their quota key (itself a keyed hash).
    static func lockKey(_ quotaKey: Data) -> Int64 {
        quotaKey.prefix(8).reduce(Int64(0)) { $0 << 8 | Int64($1) }
    }

    private static func records(_ rows: PostgresRowSequence) async throws -> [ScanRecord] {
        var records: [ScanRecord] = []
        for try await (id, userID, state, errorCode, photo, deadline, createdAt, result) in rows.decode(
            (UUID, UUID, String, String?, Data, Date, Date, String?).self
        ) {
            records.append(
                ScanRecord(
                    id: id,
                    userID: userID,
                    state: ScanState(rawValue: state) ?? .failed,
                    errorCode: errorCode.flatMap(ScanFailure.Code.init(rawValue:)),
                    photoSHA256: photo,
                    deadline: deadline,
                    createdAt: createdAt,
                    result: try result.map { try KiwiJSON.decoder().decode(ScanResponse.self, from: Data($0.utf8)) }
                )
            )
        }
        return records
    }
}
