import Foundation
import KiwiDatabase
import KiwiScans
import KiwiTestSupport
import PostgresNIO
import Testing

@testable import KiwiGateway

/// A reservation whose outcome never reaches the gateway, as when the primary dies between committing it and
/// answering, or its address moves mid-statement: the ledger reads whether it committed, on a new connection, and
/// never reserves again (docs/architecture.md, "When the primary dies"). The database sits behind a ``FaultProxy``
/// whose open connections are reset, the request through or not, while new ones still reach it, as they reach a
/// promoted standby.
@Suite("A reservation whose outcome is lost")
struct UnknownReservationTests {
    @Test("a reservation that committed but whose answer was lost is found by reading, and counts once")
    func committedButUnanswered() async throws {
        try await withProxiedLedger { ledger, proxy async throws in
            let scan = newScan(newQuotaKey())
            proxy.setOnOpenConnections(.resetTowardClient)
            let reservation = try await ledger.reserve(scan, policy: QuotaPolicy(limit: 4))
            guard case .reserved(let record) = reservation else {
                Issue.record("not reserved: \(reservation)")
                return
            }
            #expect(record.id == scan.id)
            #expect(try await ledger.usage(of: scan.quotaKey, on: scan.day).scans == 1)
        }
    }

    @Test("a reservation that never reached the database is an outage, and nothing is charged")
    func neverArrived() async throws {
        try await withProxiedLedger { ledger, proxy async throws in
            let scan = newScan(newQuotaKey())
            proxy.setOnOpenConnections(.resetTowardServer)
            let error = await #expect(throws: (any Error).self) { try await ledger.reserve(scan, policy: QuotaPolicy(limit: 4)) }
            #expect(error.flatMap { DatabaseFailure($0) } == .outage)
            #expect(try await ledger.scan(scan.id, of: scan.userID) == nil)
            #expect(try await ledger.usage(of: scan.quotaKey, on: scan.day).scans == 0)
        }
    }

    /// Runs `body` with a ledger on a migrated database of its own, reached through `proxy`, with one connection open.
    private func withProxiedLedger(_ body: @Sendable (PostgresScanLedger, FaultProxy) async throws -> Void) async throws {
        try await withTemporaryDatabase { configuration in
            try await withClient(configuration) { client in _ = try await DatabaseMigrator().migrate(client, logger: testLogger) }
            let host = try #require(configuration.host)
            let proxy = try await FaultProxy.start(forwardingTo: host, port: configuration.port ?? 5432)
            var proxied = PostgresClient.Configuration(
                host: "127.0.0.1",
                port: proxy.port,
                username: configuration.username,
                password: configuration.password,
                database: configuration.database,
                tls: .disable
            )
            proxied.options.minimumConnections = 0
            proxied.options.maximumConnections = 4
            try await withClient(proxied) { client in
                // A deadline well above a statement's time on a machine busy with the whole suite: a reset fails a
                // statement at once, so the deadline only bounds a test that would otherwise hang.
                let ledger = PostgresScanLedger(client: client, logger: testLogger, timeout: .seconds(10))
                // Another person's reservation first, on the one connection: its statement is then prepared there, and
                // the next reservation goes out whole (bind, execute) rather than waiting on a reply to its preparation.
                _ = try await ledger.reserve(newScan(newQuotaKey()), policy: QuotaPolicy(limit: 4))
                try await body(ledger, proxy)
            }
            await proxy.stop()
        }
    }
}
