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
    let client = PostgresClient(configuration: configuration, backgroundLogger: Logger(label: "test.postgres"))
    return try await withThrowingTaskGroup(of: Result?.self) { group in
        group.addTask {
            await client.run()
            return nil
        }
        defer { group.cancelAll() }
        return try await body(client)
    }
}

/// Creates an empty database of its own for one test, hands out its configuration, and drops it afterwards.
public func withTemporaryDatabase<Result: Sendable>(_ body: @Sendable (PostgresClient.Configuration) async throws -> Result) async throws -> Result {
    let admin = try PostgresClient.Configuration(url: try testDatabaseURL())
    let name = "kiwi_test_\(UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: ""))"
    try await withClient(admin) { client in
        try await client.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"))
    }
    var configuration = admin
    configuration.database = name
    do {
        let result = try await body(configuration)
        try await dropDatabase(name, admin: admin)
        return result
    } catch {
        try? await dropDatabase(name, admin: admin)
        throw error
    }
}

private func dropDatabase(_ name: String, admin: PostgresClient.Configuration) async throws {
    try await withClient(admin) { client in
        try await client.query(PostgresQuery(unsafeSQL: "DROP DATABASE IF EXISTS \(name) WITH (FORCE)"))
    }
}
