import Crypto
import Foundation
import Logging
import PostgresNIO

/// Brings the `foods` table to a nutrition table (by default the committed ``KiwiSchema/foodTable``) when the one it
/// holds is another (docs/architecture.md, "Quantities, scaling and nutrition"): a corrected table reaches databases
/// that were migrated with an earlier one. The table's version is the SHA-256 of its TSV, recorded in
/// `food_table_version` (migration 20).
///
/// The rows are replaced in one transaction, so a reader sees the old table or the new one, never a mix or none; a
/// lock on the version row makes gateways that start together replace them once, the later ones finding the hash
/// recorded.
public struct FoodTableRefresh: Sendable {
    /// The TSV, in the form of ``KiwiSchema/foodTable``.
    public let table: String

    public init(table: String = KiwiSchema.foodTable) {
        self.table = table
    }

    /// Replaces the rows of `foods` with ``table``'s unless the recorded hash is its own. Returns whether it replaced
    /// them. Run after the gateway's migrations, which create both tables. The common start, with the table current,
    /// reads one row and takes no lock: the hash is computed here, not by sending the table to be hashed.
    @discardableResult
    public func apply(_ client: PostgresClient, logger: Logger) async throws -> Bool {
        let digest = Data(SHA256.hash(data: Data(table.utf8)))
        if try await recordedDigest(client, logger: logger) == digest { return false }
        let replaced = try await client.withTransaction(logger: logger) { connection in
            try await connection.execute("LOCK TABLE food_table_version IN EXCLUSIVE MODE", logger: logger)
            // Another gateway that started together may have replaced the rows while this one waited for the lock.
            let current = try await connection.query("SELECT sha256 FROM food_table_version", logger: logger)
            for try await recorded in current.decode(Data.self) where recorded == digest { return false }
            try await connection.execute("DELETE FROM foods", logger: logger)
            try await connection.execute(PostgresQuery(unsafeSQL: KiwiSchema.insertFoods(from: table)), logger: logger)
            try await connection.execute(
                """
                INSERT INTO food_table_version (id, sha256) VALUES (true, \(digest))
                ON CONFLICT (id) DO UPDATE SET sha256 = EXCLUDED.sha256, loaded_at = now()
                """,
                logger: logger
            )
            return true
        }
        if replaced { logger.info("replaced the nutrition table's rows with this release's table") }
        return replaced
    }

    private func recordedDigest(_ client: PostgresClient, logger: Logger) async throws -> Data? {
        for try await recorded in try await client.query("SELECT sha256 FROM food_table_version", logger: logger).decode(Data.self) {
            return recorded
        }
        return nil
    }
}
