import KiwiConcurrency
import Tracing

/// PostgreSQL cannot be used right now: a statement did not finish in time. Services answer 503
/// `service_unavailable`, as they do for PostgresNIO's own connection errors.
public struct DatabaseUnavailable: Error, CustomStringConvertible {
    public let description: String

    public init(description: String) {
        self.description = description
    }
}

/// Runs one database operation in a client span named `name` (its trace shows the statement), failing with
/// ``DatabaseUnavailable`` when it takes longer than `timeout`: a stuck database gives a prompt 503 instead of a hanging
/// request.
public func withStatementDeadline<Value: Sendable>(
    _ name: String,
    timeout: Duration,
    _ operation: @escaping @Sendable () async throws -> Value
) async throws -> Value {
    try await withSpan(name, ofKind: .client) { span in
        span.attributes["db.system.name"] = "postgresql"
        do {
            return try await withDeadline(.now + timeout, operation)
        } catch is DeadlineExceededError {
            span.setStatus(SpanStatus(code: .error))
            throw DatabaseUnavailable(description: "a statement took longer than \(timeout)")
        }
    }
}
