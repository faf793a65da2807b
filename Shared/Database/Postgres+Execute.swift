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

    /// Whether PostgreSQL answers within two seconds as a primary, which takes writes: part of a service's readiness.
    /// A standby (one not yet promoted, or a former primary back as a standby at the address) is not ready for Kiwi.
    public func isWritablePrimary(logger: Logger) async -> Bool {
        (try? await withDeadline(.now + .seconds(2)) { [self] in
            for try await inRecovery in try await query("SELECT pg_is_in_recovery()", logger: logger).decode(Bool.self) {
                return !inRecovery
            }
            return false
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
