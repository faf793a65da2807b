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
    /// fingerprint (the md5 of ``tsv``, one round trip): reading and indexing the 7,349 rows costs about half a second
    /// of CPU in a debug build, which every worker of a process (the tests start dozens) would pay again. The index is
    /// built on a thread of its own (``blockingWork(named:_:)``), so that a worker asked to shut down meanwhile stops
    /// at once.
    func estimator(logger: Logger) async throws -> NutritionEstimator {
        let fingerprint = try await waitingForTheTable(logger: logger) { try await value(of: "md5(\(Self.tsv))", logger: logger) }
        if let built = Self.built.withLock({ $0[fingerprint] }) { return built }
        let tsv = try await waitingForTheTable(logger: logger) { try await value(of: Self.tsv, logger: logger) }
        let estimator = try await blockingWork(named: "nutrition index") {
            let table = try FoodTable(tsv: tsv)
            guard !table.foods.isEmpty else { throw FoodTableUnavailable.empty }
            logger.info("read the nutrition table", metadata: ["foods": "\(table.foods.count)"])
            return NutritionEstimator(table)
        }
        Self.built.withLock { $0[fingerprint] = estimator }
        return estimator
    }

    private static let built = Mutex<[String: NutritionEstimator]>([:])

    /// The table's rows as one text in the committed TSV's form (``FoodTable/init(tsv:)``): read and parsed in a
    /// third of the time the rows take to decode one by one.
    private static let tsv = """
        (SELECT coalesce(string_agg(
            concat_ws(E'\\t', dataset, description, category, coalesce(energy_kcal::text, ''), coalesce(protein_g::text, ''),
                coalesce(fat_g::text, ''), coalesce(saturated_fat_g::text, ''), coalesce(carbohydrate_g::text, ''),
                coalesce(sugars_g::text, ''), coalesce(fibre_g::text, ''), coalesce(sodium_mg::text, ''),
                coalesce(portion_g::text, ''), coalesce(portion_unit, '')),
            E'\\n' ORDER BY dataset, description), '') FROM foods)
        """

    /// The one text value of `expression`.
    private func value(of expression: String, logger: Logger) async throws -> String {
        let rows = try await client.query(PostgresQuery(unsafeSQL: "SELECT \(expression)"), logger: logger)
        for try await value in rows.decode(String.self) { return value }
        return ""
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
