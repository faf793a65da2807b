import KiwiTestSupport
import PostgresNIO
import Testing

@testable import KiwiGateway

/// The reservation as PostgreSQL runs it for every scan: the generic plan a pooled connection keeps for the prepared
/// statement, on the migrated schema.
@Suite("Scan ledger: the reservation's plan, PostgreSQL", .timeLimit(.minutes(2)))
struct ReservationPlanTests {
    @Test("a reservation finds a replayed scan's row by its key instead of reading every scan")
    func reservationLooksTheScanUpByKey() async throws {
        let plan = try await withMigratedDatabase { client in
            try await client.withConnection { connection in
                _ = try await connection.query("SET plan_cache_mode = force_generic_plan", logger: testLogger)
                _ = try await connection.query(PostgresQuery(unsafeSQL: "PREPARE reserve AS \(ReserveScanStatement.sql)"), logger: testLogger)
                let nulls = Array(repeating: "NULL", count: ReserveScanStatement.bindingDataTypes.count).joined(separator: ", ")
                var lines: [String] = []
                for try await line in try await connection.query(PostgresQuery(unsafeSQL: "EXPLAIN EXECUTE reserve(\(nulls))"), logger: testLogger)
                    .decode(String.self)
                {
                    lines.append(line)
                }
                return lines.joined(separator: "\n")
            }
        }
        #expect(plan.contains("Index Scan using scans_pkey on scans earlier"), "\(plan)")
        #expect(!plan.contains("Seq Scan"), "\(plan)")
    }
}
