import Foundation
import KiwiDatabase
import KiwiModels
import Logging
import PostgresNIO

/// The `saved_recipes` table. The recipe and its detected ingredients are kept as the API's JSON, so a saved recipe
/// reads back exactly as it was answered.
struct PostgresSavedRecipeStore: SavedRecipeStore {
    let client: PostgresClient
    let logger: Logger
    /// The longest one operation may take; past it the request fails (503) instead of hanging on a stuck database.
    var timeout = StatementTimeout.default

    private static let columns = "id, scan_id, created_at, recipe::text, detected_ingredients::text, note, rating"
    /// ``columns`` of a row read without a member's note: a new copy's, or a public page's.
    private static let columnsWithoutNote = "id, scan_id, created_at, recipe::text, detected_ingredients::text, NULL::text, NULL::smallint"

    /// One transaction under the kitchen's recipe box lock, so that the count and the insert see no other save of theirs between.
    func save(_ recipe: SavedRecipe, for kitchen: Kitchen, capacity: Int) async throws -> RecipeSaving {
        let encoder = KiwiJSON.encoder()
        let recipeJSON = String(decoding: try encoder.encode(recipe.recipe), as: UTF8.self)
        let ingredientsJSON = String(decoding: try encoder.encode(recipe.detectedIngredients), as: UTF8.self)
        return try await withStatementDeadline("recipe box save", timeout: timeout) {
            try await client.withTransaction(logger: logger) { connection in
                try await PostgresKitchen.lock(.recipeBox, of: kitchen.id, on: connection, logger: logger)
                let earlier = try await connection.query(
                    """
                    SELECT \(unescaped: Self.columns)
                    FROM saved_recipes LEFT JOIN saved_recipe_notes ON saved_recipe_id = id AND user_id = \(kitchen.member)
                    WHERE kitchen_id = \(kitchen.id) AND scan_id = \(recipe.scanId) AND recipe_id = \(recipe.recipe.id)
                    """,
                    logger: logger
                )
                if let found = try await Self.recipes(earlier).first { return .alreadySaved(found) }
                let counted = try await connection.query("SELECT count(*) FROM saved_recipes WHERE kitchen_id = \(kitchen.id)", logger: logger)
                var count = 0
                for try await value in counted.decode(Int.self) { count = value }
                guard count < capacity else { return .full }
                let inserted = try await connection.query(
                    """
                    INSERT INTO saved_recipes (id, kitchen_id, scan_id, recipe_id, recipe, detected_ingredients, search)
                    VALUES (\(recipe.id), \(kitchen.id), \(recipe.scanId), \(recipe.recipe.id), \(recipeJSON)::jsonb,
                            \(ingredientsJSON)::jsonb, \(recipe.searchText))
                    RETURNING \(unescaped: Self.columnsWithoutNote)
                    """,
                    logger: logger
                )
                guard let saved = try await Self.recipes(inserted).first else { throw PostgresRowMissing() }
                return .saved(saved)
            }
        }
    }

    /// Pages by `(created_at, id)` in microseconds, as the scan list does. The query is matched as a substring with
    /// `LIKE`, its own `%`, `_` and `\` taken literally.
    func recipes(of kitchen: Kitchen, matching query: String?, after cursor: PageCursor?, limit: Int) async throws -> RecipePage {
        try await withStatementDeadline("recipe box list", timeout: timeout) {
            let micros = PageCursor.createdAtMicrosecondsSQL
            let pattern = query.map { "%" + Self.likeEscaped($0.lowercased()) + "%" }
            let rows = try await client.query(
                """
                SELECT \(unescaped: Self.columns), \(unescaped: micros)
                FROM saved_recipes LEFT JOIN saved_recipe_notes ON saved_recipe_id = id AND user_id = \(kitchen.member)
                WHERE kitchen_id = \(kitchen.id)
                  AND (\(pattern == nil) OR search LIKE \(pattern ?? "") ESCAPE '\\')
                  AND (\(cursor == nil) OR (\(unescaped: micros), id) < (\(cursor?.createdAtMicroseconds ?? 0), \(cursor?.id ?? UUID())))
                ORDER BY created_at DESC, id DESC LIMIT \(limit + 1)
                """,
                logger: logger
            )
            var found: [(item: SavedRecipe, createdAtMicroseconds: Int64)] = []
            for try await row in rows {
                found.append((try Self.recipe(row), try row.makeRandomAccess()[7].decode(Int64.self)))
            }
            let page = PageCursor.page(of: found, limit: limit, id: \.id)
            return RecipePage(recipes: page.items, next: page.next)
        }
    }

    func recipe(_ id: UUID, of kitchen: Kitchen) async throws -> SavedRecipe? {
        try await withStatementDeadline("recipe box find", timeout: timeout) {
            let rows = try await client.query(
                """
                SELECT \(unescaped: Self.columns)
                FROM saved_recipes LEFT JOIN saved_recipe_notes ON saved_recipe_id = id AND user_id = \(kitchen.member)
                WHERE id = \(id) AND kitchen_id = \(kitchen.id)
                """,
                logger: logger
            )
            return try await Self.recipes(rows).first
        }
    }

    /// The member's note and rating are a row of `saved_recipe_notes` of their own, written by an upsert.
    func update(_ id: UUID, of kitchen: Kitchen, _ changes: SavedRecipeChanges) async throws -> SavedRecipe? {
        try await withStatementDeadline("recipe box update", timeout: timeout) {
            let (keepNote, keepRating) = (changes.note == .keep, changes.rating == .keep)
            let rows = try await client.query(
                """
                WITH written AS (
                    INSERT INTO saved_recipe_notes (saved_recipe_id, user_id, note, rating)
                    SELECT id, \(kitchen.member), \(changes.note.applied(to: nil)), \(changes.rating.applied(to: nil))::smallint
                    FROM saved_recipes WHERE id = \(id) AND kitchen_id = \(kitchen.id)
                    ON CONFLICT (saved_recipe_id, user_id) DO UPDATE SET
                        note = CASE WHEN \(keepNote) THEN saved_recipe_notes.note ELSE EXCLUDED.note END,
                        rating = CASE WHEN \(keepRating) THEN saved_recipe_notes.rating ELSE EXCLUDED.rating END
                    RETURNING note, rating
                )
                SELECT id, scan_id, created_at, recipe::text, detected_ingredients::text, written.note, written.rating
                FROM saved_recipes, written WHERE id = \(id)
                """,
                logger: logger
            )
            return try await Self.recipes(rows).first
        }
    }

    func delete(_ id: UUID, of kitchen: Kitchen) async throws -> Bool {
        try await withStatementDeadline("recipe box delete", timeout: timeout) {
            let rows = try await client.query("DELETE FROM saved_recipes WHERE id = \(id) AND kitchen_id = \(kitchen.id) RETURNING 1", logger: logger)
            for try await _ in rows.decode(Int.self) { return true }
            return false
        }
    }

    func deleteAll(of kitchen: Kitchen) async throws {
        try await withStatementDeadline("recipe box delete kitchen", timeout: timeout) {
            try await client.execute("DELETE FROM saved_recipes WHERE kitchen_id = \(kitchen.id)", logger: logger)
        }
    }

    /// Sets the token only where there is none, so two shares at once agree on one link.
    func share(_ id: UUID, of kitchen: Kitchen, token: String) async throws -> RecipeShare? {
        try await withStatementDeadline("recipe box share", timeout: timeout) {
            let rows = try await client.query(
                """
                UPDATE saved_recipes SET share_token = COALESCE(share_token, \(token)), shared_at = COALESCE(shared_at, now())
                WHERE id = \(id) AND kitchen_id = \(kitchen.id) RETURNING share_token, shared_at
                """,
                logger: logger
            )
            for try await (token, sharedAt) in rows.decode((String, Date).self) { return RecipeShare(token: token, sharedAt: sharedAt) }
            return nil
        }
    }

    func shares(of kitchen: Kitchen) async throws -> [UUID: RecipeShare] {
        try await withStatementDeadline("recipe box shares", timeout: timeout) {
            let rows = try await client.query(
                "SELECT id, share_token, shared_at FROM saved_recipes WHERE kitchen_id = \(kitchen.id) AND share_token IS NOT NULL",
                logger: logger
            )
            var shares: [UUID: RecipeShare] = [:]
            for try await (id, token, sharedAt) in rows.decode((UUID, String, Date).self) {
                shares[id] = RecipeShare(token: token, sharedAt: sharedAt)
            }
            return shares
        }
    }

    func unshare(_ id: UUID, of kitchen: Kitchen) async throws -> Bool {
        try await withStatementDeadline("recipe box unshare", timeout: timeout) {
            let rows = try await client.query(
                "UPDATE saved_recipes SET share_token = NULL, shared_at = NULL WHERE id = \(id) AND kitchen_id = \(kitchen.id) RETURNING 1",
                logger: logger
            )
            for try await _ in rows.decode(Int.self) { return true }
            return false
        }
    }

    func sharedRecipe(_ token: String) async throws -> SharedRecipe? {
        try await withStatementDeadline("recipe box shared", timeout: timeout) {
            let rows = try await client.query(
                "SELECT \(unescaped: Self.columnsWithoutNote), share_token, shared_at FROM saved_recipes WHERE share_token = \(token)",
                logger: logger
            )
            for try await row in rows {
                let columns = row.makeRandomAccess()
                let share = RecipeShare(token: try columns[7].decode(String.self), sharedAt: try columns[8].decode(Date.self))
                return SharedRecipe(recipe: try Self.recipe(row), share: share)
            }
            return nil
        }
    }

    /// `text` for a `LIKE … ESCAPE '\'` pattern, matching itself only.
    static func likeEscaped(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_")
    }

    private static func recipes(_ rows: PostgresRowSequence) async throws -> [SavedRecipe] {
        var recipes: [SavedRecipe] = []
        for try await row in rows { recipes.append(try recipe(row)) }
        return recipes
    }

    private static func recipe(_ row: PostgresRow) throws -> SavedRecipe {
        let columns = row.makeRandomAccess()
        let decoder = KiwiJSON.decoder()
        return SavedRecipe(
            id: try columns[0].decode(UUID.self),
            scanId: try columns[1].decode(UUID.self),
            savedAt: try columns[2].decode(Date.self),
            recipe: try decoder.decode(Recipe.self, from: Data(try columns[3].decode(String.self).utf8)),
            detectedIngredients: try decoder.decode([Ingredient].self, from: Data(try columns[4].decode(String.self).utf8)),
            note: try columns[5].decode(String?.self),
            rating: try columns[6].decode(Int16?.self).map(Int.init)
        )
    }
}
