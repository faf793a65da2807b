import KiwiDatabase
import KiwiTestSupport
import Logging
import PostgresNIO
import Testing

let testLogger: Logger = {
    var logger = Logger(label: "test.gateway")
    logger.logLevel = .warning
    return logger
}()

/// Which implementation of a port a case runs against: the fake of `Fakes/` that the router tests use, or the
/// PostgreSQL store on a database of the case's own. The port suites run every case against both, so a fake cannot
/// drift from the real store.
enum StoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case fake
    case postgres

    var testDescription: String { rawValue }
}

/// Runs `body` with a client of a migrated database of its own.
func withMigratedDatabase<Result: Sendable>(_ body: @Sendable (PostgresClient) async throws -> Result) async throws -> Result {
    try await withTemporaryDatabase { configuration in
        try await withClient(configuration) { client in
            _ = try await DatabaseMigrator().migrate(client, logger: testLogger)
            return try await body(client)
        }
    }
}

/// A port's fake and its PostgreSQL store, for a port suite to run each case against both.
struct PortImplementations<Port: Sendable>: Sendable {
    let fake: @Sendable () -> Port
    let postgres: @Sendable (PostgresClient) -> Port

    /// Runs `body` with a store of `kind` of its own, the PostgreSQL one on a migrated database of its own.
    func with<Result: Sendable>(_ kind: StoreKind, _ body: @Sendable (Port) async throws -> Result) async throws -> Result {
        switch kind {
        case .fake: try await body(fake())
        case .postgres: try await withMigratedDatabase { client in try await body(postgres(client)) }
        }
    }
}
