import Logging
import PostgresNIO

extension PostgresClient {
    /// Runs a statement whose rows are not wanted, and waits for its outcome. PostgresNIO hands back a row stream
    /// before the statement has finished; an error raised while executing it (a constraint, a lock timeout)
    /// arrives only in that stream, so a statement whose stream is never read could fail silently.
    public func execute(_ query: PostgresQuery, logger: Logger) async throws {
        for try await _ in try await self.query(query, logger: logger) {}
    }
}

extension PostgresConnection {
    /// Runs a statement whose rows are not wanted, and waits for its outcome (see ``PostgresClient/execute(_:logger:)``).
    public func execute(_ query: PostgresQuery, logger: Logger) async throws {
        for try await _ in try await self.query(query, logger: logger) {}
    }
}
