import Foundation
import KiwiDatabase
import KiwiTestSupport
import Logging
import PostgresNIO
import Testing

/// The nutrition table as data with a version (docs/architecture.md, "Quantities, scaling and nutrition"): a database
/// migrated with one table and started with another holds the other, replaced whole.
@Suite("Database: the nutrition table's version")
struct FoodTableRefreshTests {
    let logger = Logger(label: "test.foods")

    /// A nutrition table of the committed form with two foods, the second's energy `kcal`.
    static func table(kcal: Double) -> String {
        """
        # A test table: per 100 g.
        # dataset\tdescription\tcategory\tenergy_kcal\tprotein_g\tfat_g\tsaturated_fat_g\tcarbohydrate_g\tsugars_g\tfibre_g\tsodium_mg\tportion_g\tportion_unit
        sr_legacy\tRice, white, long-grain, regular, enriched, cooked\tCereal Grains and Pasta\t130\t2.69\t0.28\t0.077\t28.17\t0.05\t0.4\t1\t158\tcup
        sr_legacy\tButter, without salt\tDairy and Egg Products\t\(kcal)\t0.85\t81.11\t51.37\t0.06\t0.06\t0\t11\t14.2\ttbsp

        """
    }

    func foods(_ client: PostgresClient) async throws -> [String: Double?] {
        var found: [String: Double?] = [:]
        for try await (description, kcal) in try await client.query("SELECT description, energy_kcal FROM foods", logger: logger)
            .decode((String, Double?).self)
        {
            found[description] = kcal
        }
        return found
    }

    @Test("a database migrated with the committed table and started with another holds the other's rows and hash, and only them")
    func changedTableReplacesTheRows() async throws {
        try await withTemporaryDatabase { configuration in
            try await withClient(configuration) { client in
                try await DatabaseMigrator().migrate(client, logger: logger)
                #expect(try await foods(client).count > 7000)
                #expect(try await FoodTableRefresh(table: Self.table(kcal: 717)).apply(client, logger: logger))
                #expect(
                    try await foods(client) == [
                        "Rice, white, long-grain, regular, enriched, cooked": 130, "Butter, without salt": 717,
                    ]
                )
                #expect(try await FoodTableRefresh(table: Self.table(kcal: 720)).apply(client, logger: logger))
                #expect(try await foods(client)["Butter, without salt"] == 720)
            }
        }
    }

    @Test("a start with the table the database holds changes nothing")
    func sameTableIsKept() async throws {
        try await withTemporaryDatabase { configuration in
            try await withClient(configuration) { client in
                try await DatabaseMigrator().migrate(client, logger: logger)
                #expect(try await FoodTableRefresh().apply(client, logger: logger))
                #expect(try await !FoodTableRefresh().apply(client, logger: logger))
                #expect(try await foods(client).count > 7000)
            }
        }
    }

    @Test("gateways that start together with a new table replace the rows once, and the table is whole after both")
    func concurrentStartsReplaceOnce() async throws {
        try await withTemporaryDatabase { configuration in
            try await withClient(configuration) { client in
                try await DatabaseMigrator().migrate(client, logger: logger)
                let refresh = FoodTableRefresh(table: Self.table(kcal: 717))
                async let first = refresh.apply(client, logger: logger)
                async let second = refresh.apply(client, logger: logger)
                let replaced = try await [first, second]
                #expect(replaced.sorted { !$0 && $1 } == [false, true])
                #expect(try await foods(client).count == 2)
            }
        }
    }
}
