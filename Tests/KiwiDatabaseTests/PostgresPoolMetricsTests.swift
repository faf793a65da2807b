import Foundation
import KiwiConcurrency
import KiwiDatabase
import KiwiDevelopment
import KiwiServiceSupport
import KiwiTestSupport
import Logging
import PostgresNIO
import Testing

@Suite("PostgreSQL pool metrics")
struct PostgresPoolMetricsTests {
    @Test("connections PostgreSQL terminates are counted as closed, and the pool's new connections as attempts", .timeLimit(.minutes(1)))
    func reconnectionCounted() async throws {
        PrometheusMetrics.bootstrap()
        try await withTemporaryDatabase { configuration in
            let database = try #require(configuration.database)
            let logger = Logger(label: "test.postgres.metrics")
            let client = PostgresClient(configuration: configuration, countingConnectionsLoggingTo: logger)
            try await whileRunning([client]) {
                try await client.execute("SELECT 1", logger: logger)
                let before = PrometheusText(PrometheusMetrics.exposition())
                #expect(before.value("kiwi_postgres_connect_attempts_total", ["database": database]) >= 1)
                try await withClient(try PostgresClient.Configuration(url: try testDatabaseURL())) { admin in
                    try await admin.execute(
                        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = \(database) AND pid <> pg_backend_pid()",
                        logger: logger
                    )
                }
                // The pool notices the termination when it next uses or checks a connection; retry until a query gets
                // through. Each try has a deadline of its own: a query sent on a connection that is being terminated
                // must not hold the loop (a running query does not end when its task is cancelled).
                let deadline = ContinuousClock.now + .seconds(20)
                while ContinuousClock.now < deadline {
                    if (try? await withDeadline(.now + .seconds(5)) { try await client.execute("SELECT 1", logger: logger) }) != nil,
                        PrometheusText(PrometheusMetrics.exposition()).value("kiwi_postgres_connections_closed_total", ["database": database]) >= 1
                    {
                        break
                    }
                    try await Task.sleep(for: .milliseconds(50))
                }
                let after = PrometheusText(PrometheusMetrics.exposition())
                #expect(after.value("kiwi_postgres_connections_closed_total", ["database": database]) >= 1)
                #expect(
                    after.value("kiwi_postgres_connect_attempts_total", ["database": database])
                        > before.value("kiwi_postgres_connect_attempts_total", ["database": database])
                )
                #expect(after.value("kiwi_postgres_connect_failures_total", ["database": database]) == 0)
            }
        }
    }

    @Test("the pool's open connections are counted as it opens and closes them, against its size", .timeLimit(.minutes(1)))
    func connectionsOpen() async throws {
        PrometheusMetrics.bootstrap()
        try await withTemporaryDatabase { configuration in
            var configuration = configuration
            configuration.options.maximumConnections = 3
            let database = try #require(configuration.database)
            let logger = Logger(label: "test.postgres.metrics")
            let client = PostgresClient(configuration: configuration, countingConnectionsLoggingTo: logger)
            let open = { @Sendable in PrometheusText(PrometheusMetrics.exposition()).value("kiwi_postgres_connections_open", ["database": database]) }
            try await whileRunning([client]) {
                // Two connections held at once: the pool must open two.
                try await client.withConnection { _ in
                    try await client.withConnection { _ in #expect(open() == 2) }
                }
                #expect(PrometheusText(PrometheusMetrics.exposition()).value("kiwi_postgres_connections_max", ["database": database]) == 3)
            }
            // The pool closed them when it shut down.
            #expect(open() == 0)
        }
    }
}
