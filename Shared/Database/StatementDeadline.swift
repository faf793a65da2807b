import KiwiConcurrency
import Tracing

/// How long one database operation may take before it fails with ``DatabaseUnavailable``: the one bound every store
/// (the gateway's, the scan worker's and the auth service's) holds its statements to, so that a stuck database gives a
/// prompt 503 instead of a hanging request, whichever service the request reached.
public enum StatementTimeout {
    /// Five seconds: far above a healthy statement's milliseconds, well below a client's patience.
    public static let `default` = Duration.seconds(5)
}

/// Runs one database operation in a client span named `name` (its trace shows the statement), failing with
/// ``DatabaseUnavailable`` when it takes longer than `timeout`: a stuck database gives a prompt 503 instead of a hanging
/// request.
public func withStatementDeadline<Value: Sendable>(
    _ name: String,
    timeout: Duration = StatementTimeout.default,
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
