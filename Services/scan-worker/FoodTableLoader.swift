import KiwiConcurrency
import KiwiNutrition
import Logging
import PostgresNIO
import Synchronization

/// Reads the nutrition table (the `foods` table, loaded by the gateway's migration 16) from PostgreSQL when the worker
/// starts, so that every recipe it shows gets its nutrition from the same foods. A worker started before any gateway
/// has migrated the database waits for the table a while; a table that stays missing, or is empty, stops the worker.
struct FoodTableLoader: Sendable {
    let client: PostgresClient
    /// How long to wait for a gateway to create the table.
    var patience: Duration = .seconds(60)

    /// The estimator of the table's foods. Built once per process for each content of the table, known by its
    /// fingerprint (PostgreSQL's md5 of its rows, one round trip): decoding and indexing the 7,349 rows costs about a
    /// second of CPU in a debug build, which every worker of a process (the tests start dozens) would pay again.
    func estimator(logger: Logger) async throws -> NutritionEstimator {
        let fingerprint = try await fingerprint(logger: logger)
        if let built = Self.built.withLock({ $0[fingerprint] }) { return built }
        let estimator = NutritionEstimator(try await load(logger: logger))
        Self.built.withLock { $0[fingerprint] = estimator }
        return estimator
    }

    private static let built = Mutex<[String: NutritionEstimator]>([:])

    /// The md5 of every row in order; waits, as ``load(logger:)`` does, for a gateway to create the table.
    private func fingerprint(logger: Logger) async throws -> String {
        try await waitingForTheTable(logger: logger) {
            let rows = try await client.query("SELECT md5(string_agg(foods::text, E'\\n' ORDER BY dataset, description)) FROM foods", logger: logger)
            for try await fingerprint in rows.decode(String?.self) { return fingerprint ?? "" }
            return ""
        }
    }

    private func load(logger: Logger) async throws -> FoodTable {
        try await waitingForTheTable(logger: logger) {
            let foods = try await read(logger: logger)
            guard !foods.isEmpty else { throw FoodTableUnavailable.empty }
            logger.info("read the nutrition table", metadata: ["foods": "\(foods.count)"])
            return FoodTable(foods: foods)
        }
    }

    /// `read`'s result, tried again every half second while the table does not exist yet, up to ``patience``.
    private func waitingForTheTable<Value>(logger: Logger, _ read: () async throws -> Value) async throws -> Value {
        let deadline = ContinuousClock.now + patience
        while true {
            do {
                return try await read()
            } catch let error as PSQLError where error.serverInfo?[.sqlState] == Self.undefinedTable {
                guard .now < deadline else { throw FoodTableUnavailable.missing }
                logger.info("waiting for a gateway to create the nutrition table (migration 16)")
                try await sleep(for: .milliseconds(500))
            }
        }
    }

    /// PostgreSQL's SQLSTATE for a table that does not exist.
    private static let undefinedTable = "42P01"

    private func read(logger: Logger) async throws -> [Food] {
        let rows = try await client.query(
            """
            SELECT dataset, description, category, energy_kcal, protein_g, fat_g, saturated_fat_g, carbohydrate_g, sugars_g,
                fibre_g, sodium_mg, portion_g
            FROM foods ORDER BY dataset, description
            """,
            logger: logger
        )
        var foods: [Food] = []
        for try await row in rows.decode(
            (String, String, String, Double?, Double?, Double?, Double?, Double?, Double?, Double?, Double?, Double?).self
        ) {
            let (dataset, description, category, energy, protein, fat, saturated, carbohydrate, sugars, fibre, sodium, portion) = row
            foods.append(
                Food(
                    dataset: dataset,
                    description: description,
                    category: category,
                    per100g: [energy, protein, fat, saturated, carbohydrate, sugars, fibre, sodium],
                    portionGrams: portion
                )
            )
        }
        return foods
    }
}

/// Why the worker cannot start: it has no foods to count nutrition from.
enum FoodTableUnavailable: Error, CustomStringConvertible {
    case missing
    case empty

    var description: String {
        switch self {
        case .missing: "the nutrition table (foods) does not exist: start a gateway, whose migration 16 creates it"
        case .empty: "the nutrition table (foods) is empty: migration 16 loads it; the database was changed by hand"
        }
    }
}
