import Foundation
import KiwiDatabase
import KiwiModels
import Logging
import PostgresNIO

/// The `shopping_list_items` table: one row per item, unique by kitchen and key, its recipes a `text[]`.
struct PostgresShoppingListStore: ShoppingListStore {
    let client: PostgresClient
    let logger: Logger
    /// The longest one operation may take; past it the request fails (503) instead of hanging on a stuck database.
    var timeout = StatementTimeout.default

    private static let columns = "id, key, name, section, checked, for_recipes, added_at"

    /// One transaction under the kitchen's list lock, so that the count and the upsert see no other add of theirs between:
    /// two adds at once neither pass the capacity nor double an item. The items go in one statement; an item whose key
    /// the list has appends the recipes its row lacks, in order, and changes nothing else.
    func add(_ items: [ShoppingListItem], for kitchen: Kitchen, capacity: Int) async throws -> ShoppingListAdding {
        let merged = Self.mergedByKey(items)
        let encoder = JSONEncoder()
        let recipes = try merged.map { String(decoding: try encoder.encode($0.forRecipes), as: UTF8.self) }
        let keys = merged.map(\.key)
        return try await withStatementDeadline("shopping list add", timeout: timeout) {
            try await client.withTransaction(logger: logger) { connection in
                try await PostgresKitchen.lock(.shoppingList, of: kitchen.id, on: connection, logger: logger)
                let counted = try await connection.query(
                    "SELECT count(*), count(*) FILTER (WHERE key = ANY(\(keys))) FROM shopping_list_items WHERE kitchen_id = \(kitchen.id)",
                    logger: logger
                )
                var (count, found) = (0, 0)
                for try await (all, matching) in counted.decode((Int, Int).self) { (count, found) = (all, matching) }
                guard count + merged.count - found <= capacity else { return .full }
                let rows = try await connection.query(
                    """
                    INSERT INTO shopping_list_items (id, kitchen_id, key, name, section, checked, for_recipes, added_at)
                    SELECT new.id, \(kitchen.id), new.key, new.name, new.section, new.checked,
                           ARRAY(SELECT recipe FROM jsonb_array_elements_text(new.recipes::jsonb) WITH ORDINALITY AS r(recipe, n) ORDER BY n),
                           new.added_at
                    FROM unnest(\(merged.map(\.id)), \(keys), \(merged.map(\.name)), \(merged.map(\.section)), \(merged.map(\.checked)),
                                \(recipes), \(merged.map(\.addedAt)))
                         AS new(id, key, name, section, checked, recipes, added_at)
                    ON CONFLICT (kitchen_id, key) DO UPDATE SET for_recipes = shopping_list_items.for_recipes || ARRAY(
                        SELECT recipe FROM unnest(EXCLUDED.for_recipes) WITH ORDINALITY AS r(recipe, n)
                        WHERE recipe <> ALL (shopping_list_items.for_recipes) ORDER BY n
                    )
                    RETURNING \(unescaped: Self.columns)
                    """,
                    logger: logger
                )
                let byKey = Dictionary(uniqueKeysWithValues: try await Self.items(rows).map { ($0.key, $0) })
                return .added(
                    try items.map { item in
                        guard let found = byKey[item.key] else { throw PostgresRowMissing() }
                        return found
                    }
                )
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

    func delete(_ ids: [UUID], of kitchen: Kitchen) async throws -> Int {
        try await withStatementDeadline("shopping list delete", timeout: timeout) {
            let rows = try await client.query(
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

    func deleteAll(of kitchen: Kitchen) async throws {
        try await withStatementDeadline("shopping list delete kitchen", timeout: timeout) {
            try await client.execute("DELETE FROM shopping_list_items WHERE kitchen_id = \(kitchen.id)", logger: logger)
        }
    }

    /// `items` with one item per key, as adding them one after another would leave them: the first of a key, with the
    /// recipes of every item of that key, each once, in order. One `INSERT … ON CONFLICT` may not touch a row twice.
    static func mergedByKey(_ items: [ShoppingListItem]) -> [ShoppingListItem] {
        var merged: [ShoppingListItem] = []
        var index: [String: Int] = [:]
        for item in items {
            if let at = index[item.key] {
                merged[at].forRecipes += item.forRecipes.filter { !merged[at].forRecipes.contains($0) }
            } else {
                index[item.key] = merged.count
                var first = item
                first.forRecipes = item.forRecipes.reduce(into: []) { names, name in if !names.contains(name) { names.append(name) } }
                merged.append(first)
            }
        }
        return merged
    }

    private static func items(_ rows: PostgresRowSequence) async throws -> [ShoppingListItem] {
        var items: [ShoppingListItem] = []
        for try await (id, key, name, section, checked, forRecipes, addedAt) in rows.decode((UUID, String, String, String, Bool, [String], Date).self)
        {
            items.append(ShoppingListItem(id: id, name: name, key: key, section: section, checked: checked, forRecipes: forRecipes, addedAt: addedAt))
        }
        return items
    }
}
