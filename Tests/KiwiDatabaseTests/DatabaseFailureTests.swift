import KiwiDatabase
import KiwiTestSupport
import Logging
import PostgresNIO
import Testing

/// Which database errors are outages (503), which are a client's text (400) and which are Kiwi's own bugs (500),
/// from errors the real PostgreSQL of `make test` raises.
@Suite("Database failures")
struct DatabaseFailureTests {
    /// The error PostgreSQL raises for `query`, which must fail.
    static func failure(of query: PostgresQuery) async throws -> any Error {
        try await withClient(try PostgresClient.Configuration(url: try testDatabaseURL())) { client in
            do {
                _ = try await client.query(query, logger: Logger(label: "test.postgres")).collect()
            } catch {
                return error
            }
            Issue.record("the query succeeded")
            return CancellationError()
        }
    }

    @Test("text with U+0000, which PostgreSQL cannot store (22021), is the client's text, not an outage")
    func nulIsUnstorableText() async throws {
        let text = "a\u{0}b"
        #expect(DatabaseFailure(try await Self.failure(of: "SELECT \(text)::text")) == .unstorableText)
    }

    @Test("a statement PostgreSQL refuses for what it says (a division by zero, an unknown column) is a bug")
    func refusedStatementIsBug() async throws {
        #expect(DatabaseFailure(try await Self.failure(of: "SELECT 1 / 0")) == .bug)
        #expect(DatabaseFailure(try await Self.failure(of: "SELECT no_such_column FROM pg_class")) == .bug)
    }

    @Test("a statement cancelled by statement_timeout (57014) is an outage, as a database that cannot keep up is")
    func statementTimeoutIsOutage() async throws {
        let error = try await withClient(try PostgresClient.Configuration(url: try testDatabaseURL())) { client in
            try await client.withConnection { connection in
                _ = try await connection.query("SET statement_timeout = 50", logger: Logger(label: "test.postgres")).collect()
                do {
                    _ = try await connection.query("SELECT pg_sleep(5)", logger: Logger(label: "test.postgres")).collect()
                } catch {
                    return error
                }
                Issue.record("the query succeeded")
                return CancellationError()
            }
        }
        #expect(DatabaseFailure(error) == .outage)
    }

    @Test("a deadlock inside a transaction is an outage, as outside one: the transaction's wrapping is looked through")
    func failureInsideTransactionIsReadThrough() async throws {
        let error = try await withClient(try PostgresClient.Configuration(url: try testDatabaseURL())) { client in
            do {
                try await client.withTransaction(logger: Logger(label: "test.postgres")) { connection in
                    // 40P01, raised as a deadlock would be: a transaction that must be tried again.
                    _ = try await connection.query(
                        "DO $$ BEGIN RAISE EXCEPTION 'x' USING ERRCODE = '40P01'; END $$",
                        logger: Logger(label: "test.postgres")
                    )
                    .collect()
                }
            } catch {
                return error
            }
            Issue.record("the transaction succeeded")
            return CancellationError()
        }
        #expect(error is PostgresTransactionError)
        #expect(DatabaseFailure(error) == .outage && DatabaseFailure.code(of: error) == "40P01")
    }

    @Test("a database out of reach (connection refused), and a statement past Kiwi's deadline, are outages")
    func unreachableIsOutage() async throws {
        let refused = PostgresConnection.Configuration(host: "127.0.0.1", port: 1, username: "kiwi", password: nil, database: "kiwi", tls: .disable)
        await #expect {
            _ = try await PostgresConnection.connect(configuration: refused, id: 1, logger: Logger(label: "test.postgres"))
        } throws: { error in
            DatabaseFailure(error) == .outage
        }
        #expect(DatabaseFailure(DatabaseUnavailable(description: "a statement took longer than 2 seconds")) == .outage)
        #expect(DatabaseFailure(CancellationError()) == nil)
    }
}
