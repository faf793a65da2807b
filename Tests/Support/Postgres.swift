import Foundation
import KiwiDatabase
import Logging
import PostgresNIO

/// Runs `body` with a client for a client configuration, keeping the client's run loop alive meanwhile.
@discardableResult
public func withClient<Result: Sendable>(
    _ configuration: PostgresClient.Configuration,
    _ body: @Sendable (PostgresClient) async throws -> Result
) async throws -> Result {
    // Errors only: `body` may lease a connection before the task below has started `run()`, which the pool waits for
    // and warns of, hundreds of times a run, drowning what a failed run prints.
    var logger = Logger(label: "test.postgres")
    logger.logLevel = .error
    let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
    return try await withThrowingTaskGroup(of: Result?.self) { group in
        group.addTask {
            await client.run()
            return nil
        }
        defer { group.cancelAll() }
        return try await body(client)
    }
}

/// Creates an empty database of its own for one test and hands out its configuration. The database is left behind:
/// `make test` drops every `kiwi_test_…` database before and after the run (`infra.sh drop-databases`). Dropping it
/// here would stall the whole suite: PostgreSQL ends every `DROP DATABASE` with an immediate checkpoint, which
/// flushes and fsyncs every dirty page of the cluster while the other tests' commits wait for the disk. In one run two
/// dozen such checkpoints ran back to back as the end-to-end tests started, the first 6.5 s long, and their scans
/// took 6–8 s.
public func withTemporaryDatabase<Result: Sendable>(_ body: @Sendable (PostgresClient.Configuration) async throws -> Result) async throws -> Result {
    var configuration = try PostgresClient.Configuration(url: try testDatabaseURL())
    let name = "kiwi_test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
    try await withClient(configuration) { client in
        try await client.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"))
    }
    configuration.database = name
    return try await body(configuration)
}
