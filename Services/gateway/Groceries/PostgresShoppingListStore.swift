import Foundation
import KiwiDatabase
import KiwiFood
import KiwiModels
import Logging
import PostgresNIO

/// The `shopping_list_items` table: one row per item, unique by kitchen and key, its recipes a `text[]`, its quantity
/// `quantity` and `unit` (both null when unknown).
struct PostgresShoppingListStore: ShoppingListStore {
    let client: PostgresClient
    let logger: Logger
    /// The longest one operation may take; past it the request fails (503) instead of hanging on a stuck database.
    var timeout = StatementTimeout.default

    private static let columns = "id, key, name, section, checked, for_recipes, added_at, quantity, unit"

    /// One transaction under the kitchen's list lock, so that the count, the items found and the upsert see no other add
    /// of theirs between: two adds at once neither pass the capacity nor double an item, nor lose a quantity. The
    /// items go in one statement, each as ``ShoppingListItem/adding(_:)`` leaves the list's item of its key.
    func add(_ items: [ShoppingListItem], holding held: [String: Quantity], for kitchen: Kitchen, capacity: Int) async throws -> ShoppingListAdding {
        let keys = items.map(\.key)
        return try await withStatementDeadline("shopping list add", timeout: timeout) {
            try await client.withTransaction(logger: logger) { connection in
                try await PostgresKitchen.lock(.shoppingList, of: kitchen.id, on: connection, logger: logger)
                let counted = try await connection.query("SELECT count(*) FROM shopping_list_items WHERE kitchen_id = \(kitchen.id)", logger: logger)
                var count = 0
                for try await all in counted.decode(Int.self) { count = all }
                let found = try await Self.items(
                    try await connection.query(
                        "SELECT \(unescaped: Self.columns) FROM shopping_list_items WHERE kitchen_id = \(kitchen.id) AND key = ANY(\(keys))",
                        logger: logger
                    )
                )
                let merged = Self.merged(items, into: found, holding: held)
                guard count + merged.count - found.count <= capacity else { return .full }
                let recipes = try merged.map { String(decoding: try JSONEncoder().encode($0.forRecipes), as: UTF8.self) }
                // No quantity goes as 0 and no unit as "", which no quantity is (the column holds only more than 0).
                let rows = try await connection.query(
                    """
                    INSERT INTO shopping_list_items (id, kitchen_id, key, name, section, checked, for_recipes, added_at, quantity, unit)
                    SELECT new.id, \(kitchen.id), new.key, new.name, new.section, new.checked,
                           ARRAY(SELECT recipe FROM jsonb_array_elements_text(new.recipes::jsonb) WITH ORDINALITY AS r(recipe, n) ORDER BY n),
                           new.added_at, NULLIF(new.quantity, 0), NULLIF(new.unit, '')
                    FROM unnest(\(merged.map(\.id)), \(merged.map(\.key)), \(merged.map(\.name)), \(merged.map(\.section)),
                                \(merged.map(\.checked)), \(recipes), \(merged.map(\.addedAt)),
                                \(merged.map { $0.quantity ?? 0 }), \(merged.map { $0.unit?.rawValue ?? "" }))
                         AS new(id, key, name, section, checked, recipes, added_at, quantity, unit)
                    ON CONFLICT (kitchen_id, key) DO UPDATE
                        SET for_recipes = EXCLUDED.for_recipes, quantity = EXCLUDED.quantity, unit = EXCLUDED.unit
                    RETURNING \(unescaped: Self.columns)
                    """,
                    logger: logger
                )
                let byKey = Dictionary(uniqueKeysWithValues: try await Self.items(rows).map { ($0.key, $0) })
                return .added(items.compactMap { byKey[$0.key] })
            }
        }
    }

    func items(of kitchen: Kitchen) async throws -> [ShoppingListItem] {
        try await withStatementDeadline("shopping list items", timeout: timeout) {
            let rows = try await client.query(
                "SELECT \(unescaped: Self.columns) FROM shopping_list_items WHERE kitchen_id = \(kitchen.id) ORDER BY added_at, id",
                logger: logger
            )
            return try await Self.items(rows)
        }
    }

    func setChecked(_ id: UUID, _ checked: Bool, of kitchen: Kitchen) async throws -> ShoppingListItem? {
        try await withStatementDeadline("shopping list check", timeout: timeout) {
            let rows = try await client.query(
                """
                UPDATE shopping_list_items SET checked = \(checked) WHERE id = \(id) AND kitchen_id = \(kitchen.id)
                RETURNING \(unescaped: Self.columns)
                """,
                logger: logger
            )
            return try await Self.items(rows).first
        }
    }

    /// Under the list's lock, as ``add(_:holding:for:capacity:)`` is: an add writes back the items it read, and must
    /// not bring back one deleted meanwhile.
    func delete(_ ids: [UUID], of kitchen: Kitchen) async throws -> Int {
        try await withStatementDeadline("shopping list delete", timeout: timeout) {
            try await client.withTransaction(logger: logger) { connection in
                try await PostgresKitchen.lock(.shoppingList, of: kitchen.id, on: connection, logger: logger)
                let rows = try await connection.query(
                    """
                    WITH gone AS (DELETE FROM shopping_list_items WHERE kitchen_id = \(kitchen.id) AND id = ANY(\(ids)) RETURNING 1)
                    SELECT count(*) FROM gone
                    """,
                    logger: logger
                )
                var count = 0
                for try await value in rows.decode(Int.self) { count = value }
                return count
            }
        }
    }

    /// Under the list's lock, as ``delete(_:of:)``.
    func deleteAll(of kitchen: Kitchen) async throws {
        try await withStatementDeadline("shopping list delete kitchen", timeout: timeout) {
            try await client.withTransaction(logger: logger) { connection in
                try await PostgresKitchen.lock(.shoppingList, of: kitchen.id, on: connection, logger: logger)
                try await connection.execute("DELETE FROM shopping_list_items WHERE kitchen_id = \(kitchen.id)", logger: logger)
            }
        }
    }

    private static func items(_ rows: PostgresRowSequence) async throws -> [ShoppingListItem] {
        var items: [ShoppingListItem] = []
        for try await (id, key, name, section, checked, forRecipes, addedAt, quantity, unit) in rows.decode(
            (UUID, String, String, String, Bool, [String], Date, Double?, String?).self
        ) {
            items.append(
                ShoppingListItem(
                    id: id,
                    name: name,
                    key: key,
                    section: section,
                    checked: checked,
                    forRecipes: forRecipes,
                    addedAt: addedAt,
                    quantity: quantity,
                    unit: unit.flatMap(QuantityUnit.init(rawValue:))
                )
            )
        }
        return items
    }
}
