import Foundation
import KiwiDatabase
import KiwiTestSupport
import Logging
import PostgresNIO
import Testing

@Suite("Database migrations")
struct DatabaseMigratorTests {
    let logger = Logger(label: "test.migrations")

    @Test("a fresh database gets every migration, and a second run applies nothing")
    func applyingTwiceIsANoOp() async throws {
        try await withTemporaryDatabase { configuration in
            try await withClient(configuration) { client in
                let first = try await DatabaseMigrator().migrate(client, logger: logger)
                let second = try await DatabaseMigrator().migrate(client, logger: logger)
                #expect(first == KiwiSchema.migrations.map(\.version))
                #expect(second.isEmpty)
                #expect(try await recordedVersions(client) == KiwiSchema.migrations.map(\.version))
            }
        }
    }

    @Test(
        "each service migrates only the tables it owns, and the schema ends the same whichever starts first",
        arguments: [["gateway", "auth"], ["auth", "gateway"]]
    )
    func ownersMigrateTheirOwnTables(_ order: [String]) async throws {
        @Sendable func tables(_ client: PostgresClient) async throws -> Set<String> {
            var names: Set<String> = []
            let rows = try await client.query("SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'schema_migrations'")
            for try await name in rows.decode(String.self) { names.insert(name) }
            return names
        }
        try await withTemporaryDatabase { configuration in
            try await withClient(configuration) { client in
                var seen: [Set<String>] = []
                for owner in order {
                    try await DatabaseMigrator(migrations: owner == "auth" ? KiwiSchema.auth : KiwiSchema.gateway).migrate(client, logger: logger)
                    seen.append(try await tables(client))
                }
                let gatewayTables: Set = [
                    "scan_usage", "scans", "saved_recipes", "model_spend", "profiles", "model_spend_parts", "pantry_items", "shopping_list_items",
                    "foods", "scan_partials", "food_table_version", "households", "household_members", "household_invitations", "saved_recipe_notes",
                    "meal_plans", "plan_meal_recipes", "plan_meal_replacements", "pantry_receipt_lines", "pantry_prices", "devices",
                    "notifications_sent",
                ]
                #expect(seen[0] == (order[0] == "auth" ? ["users", "sessions"] : gatewayTables))
                #expect(seen[1] == gatewayTables.union(["users", "sessions"]))
                #expect(try await recordedVersions(client) == KiwiSchema.migrations.map(\.version))
            }
        }
    }

    @Test("concurrent migrators apply each migration exactly once")
    func concurrentRunnersApplyOnce() async throws {
        try await withTemporaryDatabase { configuration in
            let applied = try await withThrowingTaskGroup(of: [Int].self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        try await withClient(configuration) { client in try await DatabaseMigrator().migrate(client, logger: logger) }
                    }
                }
                return try await group.reduce(into: []) { $0 += $1 }
            }
            #expect(applied.sorted() == KiwiSchema.migrations.map(\.version))
            let recorded = try await withClient(configuration) { client in try await recordedVersions(client) }
            #expect(recorded == KiwiSchema.migrations.map(\.version))
        }
    }

    @Test("a migration that fails leaves neither its changes nor its record behind")
    func failedMigrationRollsBack() async throws {
        let broken = Migration(version: 99, name: "broken", statements: ["CREATE TABLE half_done (id int)", "SELECT no_such_function()"])
        try await withTemporaryDatabase { configuration in
            try await withClient(configuration) { client in
                await #expect(throws: (any Error).self) {
                    try await DatabaseMigrator(migrations: KiwiSchema.migrations + [broken]).migrate(client, logger: logger)
                }
                #expect(try await recordedVersions(client) == KiwiSchema.migrations.map(\.version))
                let rows = try await client.query("SELECT to_regclass('half_done')::text").decode(String?.self)
                for try await table in rows { #expect(table == nil) }
                // The advisory lock was released: another run proceeds instead of waiting forever.
                #expect(try await DatabaseMigrator().migrate(client, logger: logger).isEmpty)
            }
        }
    }

    @Test("an unreachable database fails the migration instead of waiting forever", .timeLimit(.minutes(1)))
    func unreachableDatabaseFails() async throws {
        // Port 1 on loopback: nothing listens there, so every connection attempt is refused.
        let unreachable = try PostgresClient.Configuration(url: "postgres://kiwi:kiwi@127.0.0.1:1/kiwi?sslmode=disable")
        try await withClient(unreachable) { client in
            await #expect(throws: (any Error).self) {
                try await DatabaseMigrator().migrate(client, logger: logger, timeout: .seconds(3))
            }
        }
    }

    @Test("a migrator waiting for another instance's lock gives up at its timeout instead of hanging", .timeLimit(.minutes(1)))
    func lockWaitTimesOut() async throws {
        try await withTemporaryDatabase { configuration in
            try await withClient(configuration) { holder in
                try await holder.withConnection { connection in
                    try await connection.execute("SELECT pg_advisory_lock(\(DatabaseMigrator.lockKey))", logger: logger)
                    let started = ContinuousClock.now
                    await #expect(throws: MigrationTimeoutError.self) {
                        try await withClient(configuration) { client in
                            try await DatabaseMigrator().migrate(client, logger: logger, timeout: .seconds(1))
                        }
                    }
                    #expect(ContinuousClock.now - started < .seconds(10))
                    try await connection.execute("SELECT pg_advisory_unlock(\(DatabaseMigrator.lockKey))", logger: logger)
                }
            }
        }
    }

    @Test("deleting a user deletes their sessions; the day's scan usage, kept by person rather than account, stays")
    func userDeletionCascades() async throws {
        try await withTemporaryDatabase { configuration in
            try await withClient(configuration) { client in
                try await DatabaseMigrator().migrate(client, logger: logger)
                let userID = UUID()
                try await client.query("INSERT INTO users (id, apple_user_id) VALUES (\(userID), 'apple-sub-1')")
                try await client.query(
                    """
                    INSERT INTO sessions (user_id, token_hash, expires_at)
                    VALUES (\(userID), decode(repeat('ab', 32), 'hex'), now() + interval '30 days')
                    """
                )
                try await client.query(
                    "INSERT INTO scan_usage (quota_key, scan_date, scan_count) VALUES (decode(repeat('cd', 32), 'hex'), current_date, 2)"
                )
                try await client.query("DELETE FROM users WHERE id = \(userID)")
                for (table, expected) in [("sessions", 0), ("scan_usage", 1)] {
                    let rows = try await client.query(PostgresQuery(unsafeSQL: "SELECT count(*) FROM \(table)")).decode(Int.self)
                    for try await count in rows { #expect(count == expected, "\(table)") }
                }
            }
        }
    }

    private func recordedVersions(_ client: PostgresClient) async throws -> [Int] {
        var versions: [Int] = []
        for try await version in try await client.query("SELECT version FROM schema_migrations ORDER BY version").decode(Int.self) {
            versions.append(version)
        }
        return versions
    }
}

/// Version 29 writes out "ß", "œ", "æ" and "ø" in stored item keys, as `IngredientKey` now does.
@Suite("Database migrations: written-out keys")
struct WrittenOutKeysMigrationTests {
    let logger = Logger(label: "test.migrations")

    @Test("a kept key is written out, unless another of the kitchen's keys would then be the same")
    func keysAreWrittenOut() async throws {
        try await withTemporaryDatabase { configuration in
            try await withClient(configuration) { client in
                _ = try await DatabaseMigrator(migrations: KiwiSchema.migrations.filter { $0.version < 29 }).migrate(client, logger: logger)
                let kitchen = UUID()
                for key in ["weißwein", "bœuf", "strasse", "straße"] {
                    try await client.query(
                        """
                        INSERT INTO pantry_prices (kitchen_id, key, amount, unit, currency)
                        VALUES (\(kitchen), \(key), 1, 'piece', 'EUR')
                        """
                    )
                }
                _ = try await DatabaseMigrator().migrate(client, logger: logger)
                var keys: Set<String> = []
                for try await key in try await client.query("SELECT key FROM pantry_prices WHERE kitchen_id = \(kitchen)").decode(String.self) {
                    keys.insert(key)
                }
                #expect(keys == ["weisswein", "boeuf", "strasse", "straße"])
            }
        }
    }
}
