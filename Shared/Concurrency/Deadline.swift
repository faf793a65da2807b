/// The operation did not finish before its deadline.
public struct DeadlineExceededError: Error, Hashable, Sendable {
    public init() {}
}

/// Runs `operation` and returns its result, unless `deadline` comes first: then the operation is cancelled
/// and this throws ``DeadlineExceededError`` without waiting for anything more than the cancellation.
public func withDeadline<Result: Sendable>(
    _ deadline: ContinuousClock.Instant, _ operation: @escaping @Sendable () async throws -> Result
) async throws -> Result {
    try await withThrowingTaskGroup(of: Result?.self) { group in
        group.addTask { try await operation() }
        group.addTask {
            try await Task.sleep(until: deadline)
            return nil
        }
        defer { group.cancelAll() }
        guard let result = try await group.next()! else { throw DeadlineExceededError() }
        return result
    }
}
