import KiwiDatabase
import KiwiNutrition
import KiwiTestSupport
import Logging
import PostgresNIO
import Testing

@testable import KiwiScanWorker

/// The worker's nutrition table, read from PostgreSQL at its start (docs/architecture.md, "Quantities, scaling and
/// nutrition").
@Suite("Scan worker: the nutrition table it reads", .timeLimit(.minutes(2)))
struct FoodTableLoaderTests {
    let logger = Logger(label: "test.foods")

    /// A table of the committed form with an unknown nutrient and a food without a portion.
    static let table = """
        # A test table: per 100 g.
        sr_legacy\tButter, without salt\tDairy and Egg Products\t717\t0.85\t81.11\t51.37\t0.06\t0.06\t0\t11\t14.2\ttbsp
        sr_legacy\tRice, white, long-grain, regular, enriched, cooked\tCereal Grains and Pasta\t130\t2.69\t0.28\t0.077\t28.17\t\t0.4\t1\t\t

        """

    @Test("the worker reads exactly the foods the database holds, unknown values and missing portions included")
    func readsTheDatabasesFoods() async throws {
        try await withTemporaryDatabase { configuration in
            try await withClient(configuration) { client in
                try await DatabaseMigrator().migrate(client, logger: logger)
                try await FoodTableRefresh(table: Self.table).apply(client, logger: logger)
                let estimator = try await FoodTableLoader(client: client).estimator(logger: logger)
                for food in try FoodTable(tsv: Self.table).foods {
                    #expect(estimator.matcher.food(FoodReference(food.dataset, food.description)) == food)
                }
                #expect(estimator.matcher.food(FoodReference("sr_legacy", "Onions, raw")) == nil)
            }
        }
    }

    @Test("an empty table stops the worker")
    func emptyTableStops() async throws {
        try await withTemporaryDatabase { configuration in
            try await withClient(configuration) { client in
                try await DatabaseMigrator().migrate(client, logger: logger)
                try await client.query("DELETE FROM foods", logger: logger)
                await #expect(throws: FoodTableUnavailable.empty) { try await FoodTableLoader(client: client).estimator(logger: logger) }
            }
        }
    }

    @Test("a table no gateway has created within the worker's patience stops the worker")
    func missingTableStops() async throws {
        try await withTemporaryDatabase { configuration in
            try await withClient(configuration) { client in
                let loader = FoodTableLoader(client: client, patience: .milliseconds(100))
                await #expect(throws: FoodTableUnavailable.missing) { try await loader.estimator(logger: logger) }
            }
        }
    }
}
