import ServiceLifecycle

/// Runs the services while `body` runs, then cancels them (which shuts them down) and waits for them.
public func whileRunning<Result: Sendable>(
    _ services: [any Service],
    _ body: @Sendable () async throws -> Result
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
