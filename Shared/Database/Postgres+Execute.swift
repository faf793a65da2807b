import KiwiConcurrency
import Logging
import PostgresNIO

extension PostgresClient {
    /// Runs a statement whose rows are not wanted, and waits for its outcome. PostgresNIO hands back a row stream
    /// before the statement has finished; an error raised while executing it (a constraint, a lock timeout)
    /// arrives only in that stream, so a statement whose stream is never read could fail silently.
    public func execute(_ query: PostgresQuery, logger: Logger) async throws {
        for try await _ in try await self.query(query, logger: logger) {}
    }

    /// Whether PostgreSQL answers `SELECT 1` within two seconds: part of a service's readiness.
    public func isReachable(logger: Logger) async -> Bool {
        (try? await withDeadline(.now + .seconds(2)) { [self] in
            try await execute("SELECT 1", logger: logger)
            return true
        }) ?? false
    }
}

extension PostgresConnection {
    /// Runs a statement whose rows are not wanted, and waits for its outcome (see ``PostgresClient/execute(_:logger:)``).
    public func execute(_ query: PostgresQuery, logger: Logger) async throws {
        for try await _ in try await self.query(query, logger: logger) {}
    }
}

/// A statement with `RETURNING` returned no row.
public struct PostgresRowMissing: Error {
    public init() {}
}
