import Foundation
import KiwiDatabase
import KiwiModels
import Logging
import PostgresNIO

/// The `meal_plans` table, with `plan_meal_recipes` and `plan_meal_replacements`. Days are written and read as days since 1970 and times as microseconds since 1970, so that a
/// plan reads back exactly as it was written whatever the session's time zone.
struct PostgresMealPlanStore: MealPlanStore {
    let client: PostgresClient
    let logger: Logger
    /// The longest one operation may take; past it the request fails (503) instead of hanging on a stuck database.
    var timeout = StatementTimeout.default

    private static let columns = """
        id, created_by, first_day - DATE '1970-01-01', days, meal_times, servings, pantry_was_empty,
        (extract(epoch FROM created_at) * 1000000)::bigint, schedule::text
        """

    func create(_ plan: MealPlanRecord, for kitchen: Kitchen) async throws {
        try await withStatementDeadline("meal plan create", timeout: timeout) {
            try await client.execute(
                """
                INSERT INTO meal_plans (id, kitchen_id, created_by, first_day, days, meal_times, servings, pantry_was_empty, created_at)
                VALUES (\(plan.id), \(kitchen.id), \(plan.createdBy), DATE '1970-01-01' + \(plan.request.from.daysSince1970)::integer, \(plan.request.days),
                        \(plan.request.meals.map(\.rawValue)), \(plan.request.servings), \(plan.pantryWasEmpty),
                        timestamptz 'epoch' + \(Int64((plan.createdAt.timeIntervalSince1970 * 1_000_000).rounded())) * interval '1 microsecond')
                ON CONFLICT (id) DO NOTHING
                """,
                logger: logger
            )
        }
    }

    func plan(_ id: UUID, of kitchen: Kitchen) async throws -> MealPlanRecord? {
        try await withStatementDeadline("meal plan read", timeout: timeout) {
            let rows = try await client.query(
                "SELECT \(unescaped: Self.columns) FROM meal_plans WHERE id = \(id) AND kitchen_id = \(kitchen.id)",
                logger: logger
            )
            return try await Self.records(rows).first
        }
    }

    func plans(of kitchen: Kitchen, overlapping days: ClosedRange<CalendarDay>, limit: Int) async throws -> [MealPlanRecord] {
        try await withStatementDeadline("meal plan list", timeout: timeout) {
            let rows = try await client.query(
                """
                SELECT \(unescaped: Self.columns) FROM meal_plans
                WHERE kitchen_id = \(kitchen.id) AND first_day <= DATE '1970-01-01' + \(days.upperBound.daysSince1970)::integer
                  AND first_day + days - 1 >= DATE '1970-01-01' + \(days.lowerBound.daysSince1970)::integer
                ORDER BY first_day, created_at DESC, id LIMIT \(limit)
                """,
                logger: logger
            )
            return try await Self.records(rows)
        }
    }

    func deleteAll(of kitchen: Kitchen) async throws {
        try await withStatementDeadline("meal plan delete", timeout: timeout) {
            try await client.execute("DELETE FROM meal_plans WHERE kitchen_id = \(kitchen.id)", logger: logger)
        }
    }

    func editSchedule(
        of id: UUID,
        in kitchen: Kitchen,
        _ edit: @escaping @Sendable (MealPlanRecord) throws -> [PlannedMeal]
    ) async throws -> MealPlanRecord? {
        let edited: Result<MealPlanRecord, any Error>? = try await withStatementDeadline("meal plan edit", timeout: timeout) {
            try await client.withTransaction(logger: logger) { connection in
                let rows = try await connection.query(
                    "SELECT \(unescaped: Self.columns) FROM meal_plans WHERE id = \(id) AND kitchen_id = \(kitchen.id) FOR UPDATE",
                    logger: logger
                )
                guard var plan = try await Self.records(rows).first else { return nil }
                do {
                    plan.schedule = try edit(plan)
                } catch {
                    // Returned, not thrown: a transaction wraps what its body throws. Nothing was written.
                    return .failure(error)
                }
                let schedule = String(decoding: try KiwiJSON.encoder().encode(plan.schedule), as: UTF8.self)
                try await connection.execute(
                    "UPDATE meal_plans SET schedule = \(schedule)::jsonb, updated_at = now() WHERE id = \(id)",
                    logger: logger
                )
                return .success(plan)
            }
        }
        return try edited?.get()
    }

    func setCalendar(_ tokenDigest: Data?, of id: UUID, in kitchen: Kitchen) async throws -> Bool {
        try await withStatementDeadline("meal plan calendar", timeout: timeout) {
            let rows = try await client.query(
                "UPDATE meal_plans SET calendar_token_sha256 = \(tokenDigest) WHERE id = \(id) AND kitchen_id = \(kitchen.id) RETURNING 1",
                logger: logger
            )
            for try await _ in rows.decode(Int.self) { return true }
            return false
        }
    }

    func plan(calendar tokenDigest: Data) async throws -> MealPlanRecord? {
        try await withStatementDeadline("meal plan calendar read", timeout: timeout) {
            let rows = try await client.query(
                "SELECT \(unescaped: Self.columns) FROM meal_plans WHERE calendar_token_sha256 = \(tokenDigest)",
                logger: logger
            )
            return try await Self.records(rows).first
        }
    }

    func addMealRecipe(scan scanID: UUID, meal mealID: UUID, of planID: UUID) async throws {
        try await withStatementDeadline("meal recipe add", timeout: timeout) {
            try await client.execute(
                "INSERT INTO plan_meal_recipes (scan_id, plan_id, meal_id) VALUES (\(scanID), \(planID), \(mealID)) ON CONFLICT DO NOTHING",
                logger: logger
            )
        }
    }

    func addReplacement(scan scanID: UUID, meal mealID: UUID, of planID: UUID) async throws {
        try await withStatementDeadline("meal replacement add", timeout: timeout) {
            try await client.execute(
                "INSERT INTO plan_meal_replacements (scan_id, plan_id, meal_id) VALUES (\(scanID), \(planID), \(mealID)) ON CONFLICT DO NOTHING",
                logger: logger
            )
        }
    }

    func mealRecipes(of planID: UUID) async throws -> [MealRecipeRecord] {
        try await withStatementDeadline("meal recipe read", timeout: timeout) {
            let rows = try await client.query(
                """
                SELECT recipe.meal_id, recipe.scan_id, recipe.recipe::text, recipe.withheld_reason,
                    COALESCE(scan.state IN ('queued', 'running'), false)
                FROM plan_meal_recipes AS recipe LEFT JOIN scans AS scan ON scan.id = recipe.scan_id
                WHERE recipe.plan_id = \(planID) ORDER BY recipe.created_at, recipe.scan_id
                """,
                logger: logger
            )
            var records: [MealRecipeRecord] = []
            for try await (mealID, scanID, recipe, withheld, writing) in rows.decode((UUID, UUID, String?, String?, Bool).self) {
                records.append(
                    MealRecipeRecord(
                        mealID: mealID,
                        scanID: scanID,
                        recipe: try recipe.map { try KiwiJSON.decoder().decode(Recipe.self, from: Data($0.utf8)) },
                        withheldReason: withheld,
                        isWriting: writing
                    )
                )
            }
            return records
        }
    }

    func forgetMealRecipes(of mealID: UUID, in planID: UUID) async throws {
        try await withStatementDeadline("meal recipe forget", timeout: timeout) {
            try await client.execute("DELETE FROM plan_meal_recipes WHERE plan_id = \(planID) AND meal_id = \(mealID)", logger: logger)
        }
    }

    private static func records(_ rows: PostgresRowSequence) async throws -> [MealPlanRecord] {
        var records: [MealPlanRecord] = []
        for try await (id, createdBy, firstDay, days, times, servings, pantryWasEmpty, createdAt, schedule) in rows.decode(
            (UUID, UUID?, Int, Int, [String], Int, Bool, Int64, String?).self
        ) {
            records.append(
                MealPlanRecord(
                    id: id,
                    createdBy: createdBy,
                    request: PlanRequest(
                        from: CalendarDay(daysSince1970: firstDay),
                        days: days,
                        meals: times.compactMap(MealTime.init(rawValue:)),
                        servings: servings
                    ),
                    pantryWasEmpty: pantryWasEmpty,
                    createdAt: Date(timeIntervalSince1970: Double(createdAt) / 1_000_000),
                    schedule: try schedule.map { try KiwiJSON.decoder().decode([PlannedMeal].self, from: Data($0.utf8)) }
                )
            )
        }
        return records
    }
}
