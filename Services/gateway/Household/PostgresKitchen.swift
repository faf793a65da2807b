import Foundation
import KiwiDatabase
import Logging
import PostgresNIO

/// The kitchen's tables (`pantry_items` with `pantry_receipt_lines` and `pantry_prices`, `shopping_list_items`,
/// `saved_recipes` with `saved_recipe_notes`, `meal_plans`) as a whole: their locks, and a kitchen's move into a
/// household, and its deletion, inside a caller's transaction.
enum PostgresKitchen {
    /// Holds the lock of one part of one kitchen to the end of the transaction: every change that counts against a
    /// part's limit takes it, so that no two pass the limit together. A 64-bit hash of the part and the kitchen's id.
    static func lock(_ part: KitchenOverflow.Part, of kitchenID: UUID, on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.execute(
            "SELECT pg_advisory_xact_lock(hashtextextended(\(part.rawValue) || ' ' || \(kitchenID)::text, 0))",
            logger: logger
        )
    }

    /// Merges kitchen `source` into `target` (docs/architecture.md, "Households"), or answers what would pass `limits`
    /// and changes nothing. A pantry item or a list item of a key both have, and a recipe of a scan both kept, is merged
    /// into the target's: a pantry item takes the source's sighting when that is the later one (as finding it again
    /// would), a list item gains the source's recipes and their quantity (``ShoppingListItem/mergingKitchens(_:)``), and a
    /// recipe gains the source's notes.
    static func merge(
        _ source: UUID,
        into target: UUID,
        limits: KitchenLimits,
        on connection: PostgresConnection,
        logger: Logger
    ) async throws -> KitchenOverflow? {
        for part in KitchenOverflow.Part.allCases {
            for kitchen in [target, source] { try await lock(part, of: kitchen, on: connection, logger: logger) }
        }
        let counts = try await connection.query(
            """
            SELECT 'pantry', count(*) FILTER (WHERE kitchen_id = \(target)), count(*) FILTER (WHERE kitchen_id = \(source)), count(DISTINCT key)
            FROM pantry_items WHERE kitchen_id IN (\(target), \(source))
            UNION ALL
            SELECT 'shopping list', count(*) FILTER (WHERE kitchen_id = \(target)), count(*) FILTER (WHERE kitchen_id = \(source)),
                   count(DISTINCT key)
            FROM shopping_list_items WHERE kitchen_id IN (\(target), \(source))
            UNION ALL
            SELECT 'recipe box', count(*) FILTER (WHERE kitchen_id = \(target)), count(*) FILTER (WHERE kitchen_id = \(source)),
                   count(DISTINCT (scan_id, recipe_id))
            FROM saved_recipes WHERE kitchen_id IN (\(target), \(source))
            """,
            logger: logger
        )
        for try await (name, household, yours, merged) in counts.decode((String, Int, Int, Int).self) {
            guard let part = KitchenOverflow.Part(rawValue: name) else { throw PostgresRowMissing() }
            if merged > limits.limit(of: part) {
                return KitchenOverflow(part: part, household: household, yours: yours, merged: merged, limit: limits.limit(of: part))
            }
        }
        for statement in mergeStatements(source, into: target) { try await connection.execute(statement, logger: logger) }
        return nil
    }

    /// Deletes the items of kitchen `kitchenID`'s pantry, the receipts added to it and the prices they paid, in the
    /// transaction of `connection`: under the pantry's lock, so that no receipt's add lands between the deletes.
    static func emptyPantry(of kitchenID: UUID, on connection: PostgresConnection, logger: Logger) async throws {
        try await lock(.pantry, of: kitchenID, on: connection, logger: logger)
        try await connection.execute("DELETE FROM pantry_items WHERE kitchen_id = \(kitchenID)", logger: logger)
        try await connection.execute("DELETE FROM pantry_receipt_lines WHERE kitchen_id = \(kitchenID)", logger: logger)
        try await connection.execute("DELETE FROM pantry_prices WHERE kitchen_id = \(kitchenID)", logger: logger)
    }

    /// Deletes everything kitchen `kitchenID` holds.
    static func empty(_ kitchenID: UUID, on connection: PostgresConnection, logger: Logger) async throws {
        try await emptyPantry(of: kitchenID, on: connection, logger: logger)
        try await connection.execute("DELETE FROM shopping_list_items WHERE kitchen_id = \(kitchenID)", logger: logger)
        try await connection.execute("DELETE FROM saved_recipes WHERE kitchen_id = \(kitchenID)", logger: logger)
        try await connection.execute("DELETE FROM meal_plans WHERE kitchen_id = \(kitchenID)", logger: logger)
    }

    /// Forgets that `userID` asked for the household's plans, and revokes the calendar feeds of those, which read the
    /// meal times of their profile: a member who leaves takes neither their id nor a working link along.
    static func forgetPlans(of userID: UUID, on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.execute(
            "UPDATE meal_plans SET created_by = NULL, calendar_token_sha256 = NULL WHERE created_by = \(userID)",
            logger: logger
        )
    }

    /// Forgets every note and rating of `userID`, on whichever kitchen's recipes.
    static func forgetNotes(of userID: UUID, on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.execute("DELETE FROM saved_recipe_notes WHERE user_id = \(userID)", logger: logger)
    }

    /// The merge, part by part: the duplicates into the target's rows first, then the rest moved, then what is left of
    /// the source deleted.
    private static func mergeStatements(_ source: UUID, into target: UUID) -> [PostgresQuery] {
        [
            """
            UPDATE pantry_items t SET
                last_seen_at = s.last_seen_at,
                quantity = COALESCE(s.quantity, t.quantity),
                unit = CASE WHEN s.quantity IS NULL THEN t.unit ELSE s.unit END,
                best_before = COALESCE(s.best_before, t.best_before),
                use_soon_by = CASE WHEN s.best_before IS NULL THEN t.use_soon_by ELSE s.use_soon_by END,
                use_soon_estimated = CASE WHEN s.best_before IS NULL THEN t.use_soon_estimated ELSE s.use_soon_estimated END,
                price_amount = COALESCE(s.price_amount, t.price_amount),
                price_unit = CASE WHEN s.price_amount IS NULL THEN t.price_unit ELSE s.price_unit END,
                price_currency = CASE WHEN s.price_amount IS NULL THEN t.price_currency ELSE s.price_currency END
            FROM pantry_items s
            WHERE t.kitchen_id = \(target) AND s.kitchen_id = \(source) AND s.key = t.key AND s.last_seen_at > t.last_seen_at
            """,
            """
            UPDATE pantry_items SET kitchen_id = \(target)
            WHERE kitchen_id = \(source) AND key NOT IN (SELECT key FROM pantry_items WHERE kitchen_id = \(target))
            """,
            "DELETE FROM pantry_items WHERE kitchen_id = \(source)",
            """
            INSERT INTO pantry_receipt_lines (kitchen_id, scan_id, line_id, fingerprint, added_at)
            SELECT \(target), scan_id, line_id, fingerprint, added_at FROM pantry_receipt_lines WHERE kitchen_id = \(source)
            ON CONFLICT DO NOTHING
            """,
            "DELETE FROM pantry_receipt_lines WHERE kitchen_id = \(source)",
            """
            INSERT INTO pantry_prices AS t (kitchen_id, key, amount, unit, currency, paid_at)
            SELECT \(target), key, amount, unit, currency, paid_at FROM pantry_prices WHERE kitchen_id = \(source)
            ON CONFLICT (kitchen_id, key) DO UPDATE
            SET amount = EXCLUDED.amount, unit = EXCLUDED.unit, currency = EXCLUDED.currency, paid_at = EXCLUDED.paid_at
            WHERE EXCLUDED.paid_at > t.paid_at
            """,
            "DELETE FROM pantry_prices WHERE kitchen_id = \(source)",
            """
            UPDATE shopping_list_items t SET for_recipes = t.for_recipes || ARRAY(
                SELECT recipe FROM unnest(s.for_recipes) WITH ORDINALITY AS r(recipe, n) WHERE recipe <> ALL (t.for_recipes) ORDER BY n
            ),
            quantity = CASE
                WHEN s.for_recipes <@ t.for_recipes THEN t.quantity
                WHEN cardinality(t.for_recipes) = 0 THEN s.quantity
                WHEN t.unit = s.unit THEN t.quantity + s.quantity
            END,
            unit = CASE
                WHEN s.for_recipes <@ t.for_recipes THEN t.unit
                WHEN cardinality(t.for_recipes) = 0 THEN s.unit
                WHEN t.unit = s.unit THEN t.unit
            END
            FROM shopping_list_items s
            WHERE t.kitchen_id = \(target) AND s.kitchen_id = \(source) AND s.key = t.key
            """,
            """
            UPDATE shopping_list_items SET kitchen_id = \(target)
            WHERE kitchen_id = \(source) AND key NOT IN (SELECT key FROM shopping_list_items WHERE kitchen_id = \(target))
            """,
            "DELETE FROM shopping_list_items WHERE kitchen_id = \(source)",
            """
            INSERT INTO saved_recipe_notes (saved_recipe_id, user_id, note, rating)
            SELECT t.id, n.user_id, n.note, n.rating
            FROM saved_recipes s
            JOIN saved_recipes t ON t.kitchen_id = \(target) AND t.scan_id = s.scan_id AND t.recipe_id = s.recipe_id
            JOIN saved_recipe_notes n ON n.saved_recipe_id = s.id
            WHERE s.kitchen_id = \(source)
            ON CONFLICT (saved_recipe_id, user_id) DO NOTHING
            """,
            """
            UPDATE saved_recipes s SET kitchen_id = \(target)
            WHERE s.kitchen_id = \(source) AND NOT EXISTS (
                SELECT 1 FROM saved_recipes t WHERE t.kitchen_id = \(target) AND t.scan_id = s.scan_id AND t.recipe_id = s.recipe_id
            )
            """,
            "DELETE FROM saved_recipes WHERE kitchen_id = \(source)",
            "UPDATE meal_plans SET kitchen_id = \(target) WHERE kitchen_id = \(source)",
        ]
    }
}
