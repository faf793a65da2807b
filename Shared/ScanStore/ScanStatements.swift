import Foundation
import KiwiDatabase
import KiwiModels
import KiwiScans
import PostgresNIO

// The compare-and-sets of ``ScanTransitionStore``, prepared once per connection (KiwiDatabase's PreparedStatements).

/// Marks an open scan `running`; returns its state either way (none when there is no such scan), and of an open one the
/// partials it stored while running before (a redelivery's) and its photos' key; NULL for any other.
struct StartScanStatement: PreparedStatementByID {
    static let sql = """
        WITH started AS (
            UPDATE scans SET state = 'running', updated_at = now() WHERE id = $1 AND state IN ('queued', 'running')
            RETURNING state, \(StoredPartial.column(ofScan: "scans")) AS partials, photo_key
        )
        SELECT state, partials, photo_key FROM started
        UNION ALL SELECT state, NULL, NULL FROM scans WHERE id = $1 AND NOT EXISTS (SELECT 1 FROM started)
        """
    typealias Row = (String, String?, Data?)

    let id: UUID

    func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
}

/// Stores a partial (`$2`, its stored JSON) of a `running` scan as its next row of `scan_partials`, stamped with its
/// acceptance in epoch milliseconds, while the scan holds fewer than `$3`; returns its position, the scan's new
/// `partial_count`. No row when the scan is not running or holds its most. The count's update locks the scan's row,
/// so one scan's partials are numbered one after another.
struct ShowPartialStatement: PostgresPreparedStatement {
    static let sql = """
        WITH counted AS (
            UPDATE scans SET partial_count = partial_count + 1
            WHERE id = $1 AND state = 'running' AND partial_count < $3
            RETURNING partial_count
        )
        INSERT INTO scan_partials (scan_id, position, entry)
        SELECT $1, partial_count, $2::jsonb || jsonb_build_object('at', (extract(epoch FROM now()) * 1000)::int8) FROM counted
        RETURNING position
        """
    static let bindingDataTypes: [PostgresDataType] = [.uuid, .text, .int8]
    typealias Row = Int

    let id: UUID
    let json: String
    let most: Int

    func makeBindings() -> PostgresBindings {
        var bindings = PostgresBindings()
        bindings.append(id)
        bindings.append(json)
        bindings.append(most)
        return bindings
    }
}

/// The end of one scan: its final state and what the model cost, in one statement; its partials are dropped (their
/// count stays; migration 18's trigger deletes them), and its photos' key (docs/architecture.md, "Photos at rest: crypto-shredding"). Releasing (`$17`) ends a scan only while it is `queued`, and frees its idempotency key.
/// A plan's scan writes the plan's meals with its success (`outlined`), a planned meal's scan the meal's recipe, or why
/// the guard withheld it (`cooked`), and a meal's replacement the new meal in the old one's place, keeping its id, day
/// and meal, and forgetting its recipes (`replaced`, `forgotten`): in the same statement, so that no reader sees the
/// scan ended without them.
struct EndScanStatement: PostgresPreparedStatement {
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
        ), ended AS (
            UPDATE scans SET state = $4, result = $5::jsonb, error_code = $6, error_message = $7, retry_after_seconds = $8,
                model = $9, route = $10, prompt_tokens = $11, cached_prompt_tokens = $12, completion_tokens = $13,
                cost_nanousd = $14, attempts = $15, model_ms = $16, partials = NULL, photo_key = NULL,
                idempotency_key = CASE WHEN $17 THEN NULL ELSE idempotency_key END, updated_at = now()
            WHERE id = $3 AND state IN ('queued', 'running') AND (state = 'queued' OR NOT $17)
            RETURNING id, \(ScanEndMetrics.ageColumn) AS age
        ), outlined AS (
            UPDATE meal_plans SET schedule = $5::jsonb -> 'plan' -> 'meals', updated_at = now()
            WHERE id IN (SELECT id FROM ended) AND $5::jsonb ? 'plan' AND schedule IS NULL
        ), cooked AS (
            UPDATE plan_meal_recipes SET recipe = $5::jsonb -> 'recipes' -> 0,
                withheld_reason = $5::jsonb -> 'withheldRecipes' -> 0 ->> 'reason'
            WHERE scan_id IN (SELECT id FROM ended) AND $5::jsonb IS NOT NULL
        ), replaced AS (
            UPDATE meal_plans AS plan SET schedule = (
                    SELECT jsonb_agg(
                        CASE WHEN old.meal ->> 'id' = replacement.meal_id::text
                            THEN ($5::jsonb -> 'plan' -> 'meals' -> 0)
                                || jsonb_build_object('id', old.meal -> 'id', 'date', old.meal -> 'date', 'meal', old.meal -> 'meal')
                            ELSE old.meal END
                        ORDER BY old.position
                    )
                    FROM jsonb_array_elements(plan.schedule) WITH ORDINALITY AS old (meal, position)
                ), updated_at = now()
            FROM plan_meal_replacements AS replacement
            WHERE replacement.scan_id IN (SELECT id FROM ended) AND plan.id = replacement.plan_id
                AND $5::jsonb -> 'plan' -> 'meals' -> 0 ? 'outline' AND plan.schedule IS NOT NULL
            RETURNING replacement.plan_id, replacement.meal_id
        ), forgotten AS (
            DELETE FROM plan_meal_recipes AS recipe USING replaced
            WHERE recipe.plan_id = replaced.plan_id AND recipe.meal_id = replaced.meal_id
        )
        SELECT age FROM ended
        """
    // Stated, because most of them may be null, which says nothing of their types.
    static let bindingDataTypes: [PostgresDataType] = [
        .int8, .int8, .uuid, .text, .text, .text, .text, .int8, .text, .text, .int8, .int8, .int8, .int8, .int8, .int8, .bool,
    ]
    typealias Row = Double

    let id: UUID
    let state: ScanState
    let result: String?
    let failure: ScanFailure?
    let usage: ModelUsage?
    let releasingKey: Bool

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
        bindings.append(releasingKey)
        return bindings
    }
}

/// Fails with `scan_timeout` up to 1,000 open scans whose deadline passed more than `grace` ago, skipping the rows
/// another replica's sweep holds, and drops their partials (their count stays) and their photos' keys; returns each
/// one's id and age.
struct SweepScansStatement: PostgresPreparedStatement {
    static let sql = """
        WITH overdue AS (
            SELECT id FROM scans WHERE state IN ('queued', 'running') AND deadline < now() - make_interval(secs => $1)
            ORDER BY deadline LIMIT 1000 FOR UPDATE SKIP LOCKED
        )
        UPDATE scans SET state = 'failed', error_code = $2, partials = NULL, photo_key = NULL, updated_at = now()
        FROM overdue WHERE scans.id = overdue.id RETURNING scans.id, \(ScanEndMetrics.ageColumn)
        """
    static let bindingDataTypes: [PostgresDataType] = [.float8, .text]
    typealias Row = (UUID, Double)

    let grace: Duration

    func makeBindings() -> PostgresBindings {
        var bindings = PostgresBindings()
        bindings.append(grace / .seconds(1))
        bindings.append(ScanFailure.Code.scanTimeout.rawValue)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
}
