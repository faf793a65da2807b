import KiwiDatabase
import KiwiTestSupport
import Logging
import PostgresNIO
import Testing

/// The pool every service makes from `DATABASE_URL` (`PostgresClient.Configuration(url:)`) stops when its service does.
@Suite("PostgreSQL pool shutdown")
struct PostgresPoolShutdownTests {
    @Test("a pool whose connections have gone idle and been closed stops at once when it is cancelled", .timeLimit(.minutes(1)))
    func stopsAfterIdleClose() async throws {
        try await withTemporaryDatabase { configuration in
            let client = PostgresClient(configuration: configuration, backgroundLogger: Logger(label: "test.postgres"))
            let stopped = Locked(false)
            let running = Task {
                await client.run()
                stopped.withLock { $0 = true }
            }
            // Several connections at once, all going back idle together, then left idle past the pool's idle close
            // (10 s). With a keep-alive as long as the idle close, both timers fired together and a pool in that state
            // never finished shutting down: a service could hang on SIGTERM until killed.
            try await withThrowingDiscardingTaskGroup { group in
                for _ in 0..<8 { group.addTask { try await client.query("SELECT pg_sleep(0.2)") } }
            }
            try await Task.sleep(for: .seconds(11))
            running.cancel()
            // The pool must stop within 5 s of being cancelled.
            try await eventually(timeout: .seconds(5)) { stopped.withLock { $0 } }
        }
    }
}
