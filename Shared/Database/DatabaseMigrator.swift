import KiwiConcurrency
import Logging
import PostgresNIO

/// Brings a database up to the newest schema, safely when several services start at once.
///
/// All work happens on one connection holding a PostgreSQL advisory lock, so concurrent migrators
/// queue behind each other and the later ones find nothing left to do. Each migration and its row
/// in `schema_migrations` commit in one transaction, so a crash never leaves one half-applied.
public struct DatabaseMigrator: Sendable {
    /// The advisory lock key every Kiwi migrator uses ("KIWI" in ASCII).
    public static let lockKey: Int64 = 0x4B49_5749

    public let migrations: [Migration]

    public init(migrations: [Migration] = KiwiSchema.migrations) {
        precondition(
            zip(migrations, migrations.dropFirst()).allSatisfy { $0.version < $1.version },
            "migrations must be in ascending version order"
        )
        self.migrations = migrations
    }

    /// Applies every migration not yet recorded, and returns the versions this call applied.
    @discardableResult
    public func migrate(_ client: PostgresClient, logger: Logger) async throws -> [Int] {
        try await client.withConnection { connection in
            try await acquireLock(on: connection, logger: logger)
            do {
                let applied = try await applyPending(on: connection, logger: logger)
                try await connection.execute("SELECT pg_advisory_unlock(\(Self.lockKey))", logger: logger)
                return applied
            } catch {
                // Closing the session would release the lock too, but the pool keeps connections open.
                try? await connection.execute("SELECT pg_advisory_unlock(\(Self.lockKey))", logger: logger)
                throw error
            }
        }
    }

    /// Takes the lock, polling with `pg_try_advisory_lock` rather than blocking in `pg_advisory_lock`: a query
    /// cannot be cancelled, but the sleep between tries can, so a caller's timeout still works while another
    /// instance holds the lock.
    private func acquireLock(on connection: PostgresConnection, logger: Logger) async throws {
        while true {
            for try await acquired in try await connection.query("SELECT pg_try_advisory_lock(\(Self.lockKey))", logger: logger).decode(Bool.self)
            where acquired {
                return
            }
            try await sleep(for: .milliseconds(100))
        }
    }

    /// Like ``migrate(_:logger:)``, but gives up when the work is not done within `timeout`, so a service whose
    /// database cannot be reached fails its start-up with a clear error instead of waiting forever.
    @discardableResult
    public func migrate(_ client: PostgresClient, logger: Logger, timeout: Duration) async throws -> [Int] {
        do {
            return try await withDeadline(.now + timeout) { try await migrate(client, logger: logger) }
        } catch is DeadlineExceededError {
            throw MigrationTimeoutError(timeout: timeout)
        }
    }

    private func applyPending(on connection: PostgresConnection, logger: Logger) async throws -> [Int] {
        try await connection.execute(
            """
            CREATE TABLE IF NOT EXISTS schema_migrations (
                version integer PRIMARY KEY,
                name text NOT NULL,
                applied_at timestamptz NOT NULL DEFAULT now()
            )
            """,
            logger: logger
        )
        var done: Set<Int> = []
        for try await version in try await connection.query("SELECT version FROM schema_migrations", logger: logger)
            .decode(Int.self)
        {
            done.insert(version)
        }

        var applied: [Int] = []
        for migration in migrations where !done.contains(migration.version) {
            try await connection.withTransaction(logger: logger) { transaction in
                for statement in migration.statements {
                    try await transaction.execute(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                try await transaction.execute(
                    "INSERT INTO schema_migrations (version, name) VALUES (\(migration.version), \(migration.name))",
                    logger: logger
                )
            }
            logger.info("applied database migration", metadata: ["version": "\(migration.version)", "migration": "\(migration.name)"])
            applied.append(migration.version)
        }
        return applied
    }
}

/// PostgreSQL did not let the migrations finish in time: usually it cannot be reached at all.
public struct MigrationTimeoutError: Error, CustomStringConvertible {
    public let timeout: Duration

    public var description: String {
        "the database migrations did not finish within \(timeout.components.seconds) s: is PostgreSQL reachable at DATABASE_URL?"
    }
}
