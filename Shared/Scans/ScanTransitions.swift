import CoreMetrics
import Foundation
import KiwiDatabase
import KiwiModels
import KiwiOpenAI
import KiwiScanJobs
import Logging
import PostgresNIO

/// What the model cost for one scan, as the worker records it on the scan.
public struct ModelUsage: Sendable, Hashable {
    /// The model that answered last, as it named itself (a dated snapshot), or the first route's when none did.
    public var model: String
    /// The `LLM_MODELS` route that answered last; nil when none did.
    public var route: String?
    /// The tokens of every completion received for the scan, repairs and answers that failed validation included.
    public var tokens: TokenUsage
    /// What those tokens cost, in nano-dollars (``ModelPrices``).
    public var costNanos: Int64
    /// HTTP attempts made, retries and the repair included.
    public var attempts: Int
    /// The model's own time (OpenAI's `openai-processing-ms`, summed), which the gateway reports as `Server-Timing`.
    public var modelTime: Duration

    /// ``modelTime`` in whole milliseconds, as the record keeps it.
    var milliseconds: Int { Int(modelTime / .milliseconds(1)) }

    public init(model: String, route: String?, tokens: TokenUsage, costNanos: Int64, attempts: Int, modelTime: Duration) {
        self.model = model
        self.route = route
        self.tokens = tokens
        self.costNanos = costNanos
        self.attempts = attempts
        self.modelTime = modelTime
    }
}

/// What a worker found when it claimed a scan to run it (``ScanTransitions/start(_:)``).
public enum ScanClaim: Sendable, Hashable {
    /// The scan is `running` now: call the model.
    case started
    /// The scan is final already (answered by another worker, swept, or failed by its gateway): nothing to do.
    case finished(ScanState)
    /// There is no such scan (cancelled, or its account deleted): nothing to do.
    case missing
}

/// The state changes of a scan's record in the `scans` table that both the gateway and the scan worker make
/// (docs/architecture.md, "4. The quota strategy"). Each is a compare-and-set on the state: a scan leaves `queued` or
/// `running` once, so a refund (becoming `failed`) happens at most once and a late answer changes nothing.
public struct ScanTransitions: Sendable {
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

    /// Marks an open scan `running` (again, after a redelivery).
    public func start(_ id: UUID) async throws -> ScanClaim {
        try await withStatementDeadline("scan start", timeout: timeout) {
            let rows = try await client.execute(StartScanStatement(id: id), logger: logger)
            for try await state in rows {
                let state = ScanState(rawValue: state) ?? .failed
                return state == .running ? .started : .finished(state)
            }
            return .missing
        }
    }

    /// Records the validated answer of an open scan, with what the model cost. False when the scan was no longer open;
    /// what the model cost is counted all the same (``end(_:as:result:failure:usage:)``).
    public func succeed(_ id: UUID, result: ScanResponse, usage: ModelUsage?) async throws -> Bool {
        let json = String(decoding: try KiwiJSON.encoder().encode(result), as: UTF8.self)
        return try await end(id, as: .succeeded, result: json, usage: usage)
    }

    /// Fails an open scan, which gives its charge back; `usage` when the model was asked at all. False when it was
    /// no longer open; what the model cost is counted all the same.
    public func fail(_ id: UUID, _ failure: ScanFailure, usage: ModelUsage? = nil) async throws -> Bool {
        try await end(id, as: .failed, failure: failure, usage: usage)
    }

    /// Moves an open scan to its final `state`, and counts what the model cost whatever becomes of the scan (the
    /// tokens were spent even when another worker answered first or the account is gone): today's (UTC) spend of
    /// everyone in `model_spend_parts` (the part of the day its id picks), and the person's tokens of the scan's day in `scan_usage`. One statement, so that
    /// a worker killed in between cannot record an outcome without its cost, or a cost twice.
    private func end(
        _ id: UUID,
        as state: ScanState,
        result json: String? = nil,
        failure: ScanFailure? = nil,
        usage: ModelUsage?
    ) async throws
        -> Bool
    {
        let outcome = failure?.code.rawValue ?? ScanEndMetrics.succeeded
        return try await withStatementDeadline("scan \(state == .succeeded ? "succeed" : "fail")", timeout: timeout) {
            let rows = try await client.execute(
                EndScanStatement(id: id, state: state, result: json, failure: failure, usage: usage),
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
            INSERT INTO scans (id, user_id, quota_key, scan_date, state, idempotency_key, photo_sha256, deadline)
            VALUES (\(scan.id), \(scan.userID), \(scan.quotaKey), \(scan.day)::date, 'queued', \(scan.idempotencyKey), \(scan.photoSHA256), \(scan.deadline))
            """,
            logger: logger
        )
    }
}

// MARK: - The statements of every scan, prepared once per connection (KiwiDatabase's PreparedStatements)

/// Marks an open scan `running`; returns its state either way (none when there is no such scan).
private struct StartScanStatement: PreparedStatementByID {
    static let sql = """
        WITH started AS (
            UPDATE scans SET state = 'running', updated_at = now() WHERE id = $1 AND state IN ('queued', 'running')
            RETURNING state
        )
        SELECT state FROM started UNION ALL SELECT state FROM scans WHERE id = $1 AND NOT EXISTS (SELECT 1 FROM started)
        """
    typealias Row = String

    let id: UUID
}

/// ``ScanTransitions``' end of a scan: its final state and what the model cost, in one statement.
private struct EndScanStatement: PostgresPreparedStatement {
    static let sql = """
        WITH everyone AS (
            INSERT INTO model_spend_parts AS spend (spend_date, part, cost_nanousd, tokens)
            SELECT (now() AT TIME ZONE 'UTC')::date, get_byte(uuid_send($3), 15) % 16, $1, $2 WHERE $2 > 0
            ON CONFLICT (spend_date, part) DO UPDATE
            SET cost_nanousd = spend.cost_nanousd + EXCLUDED.cost_nanousd, tokens = spend.tokens + EXCLUDED.tokens
        ), person AS (
            INSERT INTO scan_usage (quota_key, scan_date, scan_count, tokens)
            SELECT quota_key, scan_date, 0, $2 FROM scans WHERE id = $3 AND $2 > 0
            ON CONFLICT (quota_key, scan_date) DO UPDATE SET tokens = scan_usage.tokens + EXCLUDED.tokens
        )
        UPDATE scans SET state = $4, result = $5::jsonb, error_code = $6, error_message = $7, retry_after_seconds = $8,
            model = $9, route = $10, prompt_tokens = $11, cached_prompt_tokens = $12, completion_tokens = $13,
            cost_nanousd = $14, attempts = $15, model_ms = $16, updated_at = now()
        WHERE id = $3 AND state IN ('queued', 'running') RETURNING \(ScanEndMetrics.ageColumn)
        """
    // Stated, because most of them may be null, which says nothing of their types.
    static let bindingDataTypes: [PostgresDataType] = [
        .int8, .int8, .uuid, .text, .text, .text, .text, .int8, .text, .text, .int8, .int8, .int8, .int8, .int8, .int8,
    ]
    typealias Row = Double

    let id: UUID
    let state: ScanState
    let result: String?
    let failure: ScanFailure?
    let usage: ModelUsage?

    func makeBindings() -> PostgresBindings {
        var bindings = PostgresBindings()
        bindings.append(usage?.costNanos ?? 0)
        bindings.append(usage?.tokens.total ?? 0)
        bindings.append(id)
        bindings.append(state.rawValue)
        bindings.append(result)
        bindings.append(failure?.code.rawValue)
        bindings.append(failure?.message)
        bindings.append(failure?.retryAfterSeconds)
        bindings.append(usage?.model)
        bindings.append(usage?.route)
        bindings.append(usage?.tokens.promptTokens)
        bindings.append(usage?.tokens.cachedPromptTokens)
        bindings.append(usage?.tokens.completionTokens)
        bindings.append(usage?.costNanos)
        bindings.append(usage?.attempts)
        bindings.append(usage?.milliseconds)
        return bindings
    }
}

/// `kiwi_scan_duration_seconds{outcome}`: every scan that reached a final state, from its creation to that state,
/// by outcome (`succeeded`, or the error code it failed with). Counted once per scan, by the replica whose
/// compare-and-set ended it, so summing over every gateway and worker counts each scan once: the scan SLOs of
/// docs/operations.md are computed from it.
public enum ScanEndMetrics {
    /// The outcome of a scan that succeeded.
    public static let succeeded = "succeeded"

    /// The SQL that a state change returns: the scan's age in seconds on the database's clock.
    public static let ageColumn = "extract(epoch FROM now() - created_at)::float8"

    /// Counts one scan that ended with `outcome`, `seconds` after it was created.
    public static func ended(_ outcome: String, afterSeconds seconds: Double) {
        Timer(label: "kiwi_scan_duration_seconds", dimensions: [("outcome", outcome)]).recordSeconds(max(0, seconds))
    }
}

/// A scan about to be reserved, `queued`.
public struct QueuedScan: Sendable {
    public var id: UUID
    public let userID: UUID
    /// The person's quota key, which the day's allowance is counted under.
    public let quotaKey: Data
    /// The UTC day it counts against, `yyyy-MM-dd`.
    public let day: String
    /// The client's `Idempotency-Key`, if it sent one.
    public let idempotencyKey: String?
    public let photoSHA256: Data
    public let deadline: Date

    public init(id: UUID = UUID(), userID: UUID, quotaKey: Data, day: String, idempotencyKey: String?, photoSHA256: Data, deadline: Date) {
        self.id = id
        self.userID = userID
        self.quotaKey = quotaKey
        self.day = day
        self.idempotencyKey = idempotencyKey
        self.photoSHA256 = photoSHA256
        self.deadline = deadline
    }
}
