import ServiceLifecycle
import Synchronization

/// Runs the services while `body` runs, then cancels them (which shuts them down) and waits for them.
public func whileRunning<Result: Sendable>(
    _ services: [any Service], _ body: @Sendable () async throws -> Result
) async throws -> Result {
    try await withThrowingTaskGroup(of: Result?.self) { group in
        for service in services {
            group.addTask {
                try await service.run()
                return nil
            }
        }
        defer { group.cancelAll() }
        return try await body()
    }
}

/// A value that concurrent test tasks share.
public final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    public init(_ value: Value) {
        mutex = Mutex(value)
    }

    public func withLock<Result: Sendable>(_ body: (inout Value) -> Result) -> Result {
        mutex.withLock { body(&$0) }
    }
}
