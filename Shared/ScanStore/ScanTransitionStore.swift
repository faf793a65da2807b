import Foundation
import KiwiDatabase
import KiwiModels
import KiwiScans
import Logging
import PostgresNIO

/// What a worker found when it claimed a scan to run it (``ScanTransitionStore/start(_:)``).
public enum ScanClaim: Sendable, Equatable {
    /// The scan is `running` now: call the model. `shown`: what its client shows of an earlier attempt (the partials
    /// after the last restart, in order; none on a first delivery), for this attempt to confirm or restart.
    /// `photoKey`: what its job's photos are sealed under; nil for a scan a gateway of the release before sealing
    /// reserved, whose photos travel in the clear (docs/architecture.md, "Photos at rest: crypto-shredding").
    case started(shown: [ScanPartial], photoKey: PhotoKey?)
    /// The scan is final already (answered by another worker, swept, or failed by its gateway): nothing to do.
    case finished(ScanState)
    /// There is no such scan (cancelled, or its account deleted): nothing to do.
    case missing
}

/// Every state change of a scan's record in the `scans` table, whether the gateway or the scan worker makes it
/// (docs/architecture.md, "4. The quota strategy"). Each is a compare-and-set on the state: a scan leaves `queued` or
/// `running` once, so a refund (becoming `failed`) happens at most once, a late answer changes nothing, and each
/// scan's end is counted once in ``ScanEndMetrics``.
public struct ScanTransitionStore: Sendable {
    public let client: PostgresClient
    public let logger: Logger
    /// The longest one statement may take before it fails with ``DatabaseUnavailable``.
    public var timeout = StatementTimeout.default

    /// How long after its deadline an open scan is failed by the gateways' sweeper: until then its own gateway or
    /// worker may still record the outcome.
    public static let sweepGrace = Duration.seconds(30)

    public init(client: PostgresClient, logger: Logger) {
        self.client = client
        self.logger = logger
    }

    /// Marks an open scan `running` (again, after a redelivery), and reads its photos' key with it.
    public func start(_ id: UUID) async throws -> ScanClaim {
        try await withStatementDeadline("scan start", timeout: timeout) {
            let rows = try await client.execute(StartScanStatement(id: id), logger: logger)
            for try await (state, partials, key) in rows {
                let state = ScanState(rawValue: state) ?? .failed
                guard state == .running else { return .finished(state) }
                let shown = StoredPartial.shown(try StoredPartial.entries(of: partials)).map(\.partial)
                return .started(shown: shown, photoKey: key.flatMap(PhotoKey.init))
            }
            return .missing
        }
    }

    /// The most partials one scan stores, restarts included (docs/architecture.md, "Streamed scans"): a receipt's 80
    /// lines twice over, with the restart between.
    public static let mostPartials = 200
    /// The largest partial stored, in bytes of its JSON: a recipe runs to a few KiB.
    public static let largestPartial = 32 * 1024

    /// Stores `partial` with a running scan, for its event streams to send. Returns its sequence number (from
    /// 1); nil when the scan is not running (final, or gone), or when the partial is over ``largestPartial`` or the
    /// scan holds ``mostPartials``: it is not shown, and the result still comes.
    public func show(_ partial: ScanPartial, of id: UUID) async throws -> Int? {
        let json = try KiwiJSON.encoder().encode(partial)
        guard json.count <= Self.largestPartial else { return nil }
        return try await withStatementDeadline("scan show", timeout: timeout) {
            let statement = ShowPartialStatement(id: id, json: String(decoding: json, as: UTF8.self), most: Self.mostPartials)
            for try await seq in try await client.execute(statement, logger: logger) { return seq }
            return nil
        }
    }

    /// Records the validated answer of an open scan, with what the model cost. False when the scan was no longer open;
    /// what the model cost is counted all the same (``end(_:as:result:failure:usage:releasingKey:)``).
    public func succeed(_ id: UUID, result: ScanResponse, usage: ModelUsage?) async throws -> Bool {
        let json = String(decoding: try KiwiJSON.encoder().encode(result), as: UTF8.self)
        return try await end(id, as: .succeeded, result: json, usage: usage)
    }

    /// Fails an open scan, which gives its charge back; `usage` when the model was asked at all. False when it was
    /// no longer open; what the model cost is counted all the same.
    public func fail(_ id: UUID, _ failure: ScanFailure, usage: ModelUsage? = nil) async throws -> Bool {
        try await end(id, as: .failed, failure: failure, usage: usage)
    }

    /// Fails, like ``fail(_:_:usage:)``, a scan still `queued` whose job certainly never reached the workers, and frees
    /// its idempotency key: the client's retry with the same key starts the scan afresh. False when it was no longer
    /// queued.
    public func release(_ id: UUID, _ failure: ScanFailure) async throws -> Bool {
        try await end(id, as: .failed, failure: failure, usage: nil, releasingKey: true)
    }

    /// Fails, with `scan_timeout`, open scans whose deadline passed more than `grace` ago: their gateway and worker are
    /// gone. Many replicas sweep at once without doing the same work twice: each takes the overdue rows no other
    /// holds. Returns their ids.
    public func failOverdue(grace: Duration) async throws -> [UUID] {
        try await withStatementDeadline("scan sweep", timeout: timeout) {
            var ids: [UUID] = []
            for try await (id, age) in try await client.execute(SweepScansStatement(grace: grace), logger: logger) {
                ScanEndMetrics.ended(ScanFailure.Code.scanTimeout.rawValue, afterSeconds: age)
                ids.append(id)
            }
            return ids
        }
    }

    /// Moves an open scan to its final `state`, and counts what the model cost whatever becomes of the scan (the
    /// tokens were spent even when another worker answered first or the account is gone): today's (UTC) spend of
    /// everyone in `model_spend_parts` (the part of the day its id picks), and the person's tokens of the scan's day in
    /// `scan_usage`. One statement, so that a worker killed in between cannot record an outcome without its cost, or a
    /// cost twice. `releasingKey` ends only a `queued` scan, and frees its idempotency key.
    private func end(
        _ id: UUID,
        as state: ScanState,
        result json: String? = nil,
        failure: ScanFailure? = nil,
        usage: ModelUsage?,
        releasingKey: Bool = false
    ) async throws
        -> Bool
    {
        let outcome = failure?.code.rawValue ?? ScanEndMetrics.succeeded
        let name = releasingKey ? "scan release" : "scan \(state == .succeeded ? "succeed" : "fail")"
        return try await withStatementDeadline(name, timeout: timeout) {
            let rows = try await client.execute(
                EndScanStatement(id: id, state: state, result: json, failure: failure, usage: usage, releasingKey: releasingKey),
                logger: logger
            )
            var changed = false
            for try await age in rows {
                ScanEndMetrics.ended(outcome, afterSeconds: age)
                changed = true
            }
            return changed
        }
    }

    /// Inserts a `queued` scan, with no quota: for tools and tests that stand in for a gateway's reservation
    /// (`kiwi_reserve_scan`, KiwiSchema).
    public func insertQueued(_ scan: QueuedScan) async throws {
        try await client.execute(
            """
            INSERT INTO scans (id, user_id, quota_key, scan_date, state, idempotency_key, photo_sha256, deadline, photo_key)
            VALUES (\(scan.id), \(scan.userID), \(scan.quotaKey), \(scan.day)::date, 'queued', \(scan.idempotencyKey), \(scan.photoSHA256), \(scan.deadline), \(scan.photoKey.bytes))
            """,
            logger: logger
        )
    }
}
