import Foundation
import KiwiDatabase
import KiwiModels
import Logging
import PostgresNIO

/// The `pantry_items` table. Days are written and read as days since 1970 and times as microseconds since 1970, so
/// that an item reads back exactly as it was written whatever the session's time zone.
struct PostgresPantryStore: PantryStore {
    let client: PostgresClient
    let logger: Logger
    /// The longest one operation may take; past it the request fails (503) instead of hanging on a stuck database.
    var timeout = StatementTimeout.default

    private static let columns = """
        id, name, key, category, quantity, unit, best_before - DATE '1970-01-01', use_soon_by - DATE '1970-01-01',
        use_soon_estimated, source, scan_id, added_at, last_seen_at, price_amount, price_unit, price_currency
        """

    /// What pages sort by: ``PantryPage/sortMicroseconds(of:)`` in SQL.
    private static let sortKey = """
        COALESCE((extract(epoch FROM use_soon_by::timestamp AT TIME ZONE 'UTC') * 1000000)::bigint, \(PantryPage.keepsMicroseconds))
        """

    /// One transaction under the kitchen's pantry lock (the same lock as ``replace(_:of:)``), so that the count, the capacity
    /// check and the upsert see no other change of theirs between.
    func add(_ items: [PantryItem], for kitchen: Kitchen, capacity: Int) async throws -> PantryAdding {
        try await withStatementDeadline("pantry add", timeout: timeout) {
            try await client.withTransaction(logger: logger) { connection in
                try await PostgresKitchen.lock(.pantry, of: kitchen.id, on: connection, logger: logger)
                return try await Self.write(items, to: kitchen, capacity: capacity, on: connection, logger: logger)
            }
        }
    }

    /// One transaction under the pantry lock, as ``add(_:for:capacity:)``: the receipt's earlier scans and lines are
    /// read, and what is left written with the lines it came from, so that two adds at once add each line once.
    func addPurchases(_ purchases: [Purchase], from receipt: ReceiptAddition, for kitchen: Kitchen, capacity: Int) async throws -> PurchaseAdding {
        try await withStatementDeadline("pantry add purchases", timeout: timeout) {
            try await client.withTransaction(logger: logger) { connection in
                try await PostgresKitchen.lock(.pantry, of: kitchen.id, on: connection, logger: logger)
                if let fingerprint = receipt.fingerprint, !receipt.again {
                    let earlier = try await connection.query(
                        """
                        SELECT scan_id FROM pantry_receipt_lines
                        WHERE kitchen_id = \(kitchen.id) AND fingerprint = \(fingerprint) AND scan_id <> \(receipt.scanID)
                        ORDER BY added_at LIMIT 1
                        """,
                        logger: logger
                    )
                    for try await scanID in earlier.decode(UUID.self) { return .sameReceipt(firstScanID: scanID) }
                }
                let addedLines = try await connection.query(
                    "SELECT line_id FROM pantry_receipt_lines WHERE kitchen_id = \(kitchen.id) AND scan_id = \(receipt.scanID)",
                    logger: logger
                )
                var added: Set<UUID> = []
                for try await line in addedLines.decode(UUID.self) { added.insert(line) }
                let new = purchases.filter { !added.contains($0.lineID) }
                let keys = Array(Set(purchases.map(\.item.key)))
                let held = try await connection.query(
                    "SELECT \(unescaped: Self.columns) FROM pantry_items WHERE kitchen_id = \(kitchen.id) AND key = ANY(\(keys))",
                    logger: logger
                )
                let existing = Dictionary(try await Self.items(held).map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
                let items = PantryPurchases.items(adding: new, to: existing)
                switch try await Self.write(items, to: kitchen, capacity: capacity, on: connection, logger: logger) {
                case .full:
                    return .full
                case .added(let written, let count):
                    let lines = new.map(\.lineID)
                    try await connection.execute(
                        """
                        INSERT INTO pantry_receipt_lines (kitchen_id, scan_id, line_id, fingerprint)
                        SELECT \(kitchen.id), \(receipt.scanID), line, \(receipt.fingerprint) FROM unnest(\(lines)::uuid[]) AS line
                        """,
                        logger: logger
                    )
                    try await Self.remember(PantryPurchases.prices(of: new), of: kitchen, on: connection, logger: logger)
                    let byKey = Dictionary((Array(existing.values) + written).map { ($0.key, $0) }, uniquingKeysWith: { _, latest in latest })
                    return .added(PantryPurchases.firstKeys(of: purchases).compactMap { byKey[$0] }, count: count)
                }
            }
        }
    }

    /// Makes `prices` the kitchen's prices of their foods (``PantryStore/prices(of:)``).
    private static func remember(_ prices: [String: PantryPrice], of kitchen: Kitchen, on connection: PostgresConnection, logger: Logger) async throws
    {
        guard !prices.isEmpty else { return }
        let (keys, paid) = (Array(prices.keys), Array(prices.values))
        try await connection.execute(
            """
            INSERT INTO pantry_prices (kitchen_id, key, amount, unit, currency)
            SELECT \(kitchen.id), key, amount, unit, currency
            FROM unnest(\(keys)::text[], \(paid.map(\.amount))::float8[], \(paid.map(\.unit.rawValue))::text[], \(paid.map(\.currency))::text[])
                AS paid(key, amount, unit, currency)
            ON CONFLICT (kitchen_id, key) DO UPDATE
            SET amount = EXCLUDED.amount, unit = EXCLUDED.unit, currency = EXCLUDED.currency, paid_at = EXCLUDED.paid_at
            """,
            logger: logger
        )
    }

    /// Writes `items` (of distinct keys) into the kitchen's pantry, under its lock, as one statement whatever their
    /// number (the items go in as one JSON array): an item of a key the pantry has is found again
    /// (``PantryStore/add(_:for:capacity:)``); ``PantryAdding/full`` past `capacity`.
    private static func write(
        _ items: [PantryItem],
        to kitchen: Kitchen,
        capacity: Int,
        on connection: PostgresConnection,
        logger: Logger
    ) async throws -> PantryAdding {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        let rows = String(decoding: try encoder.encode(items.map(Row.init)), as: UTF8.self)
        let keys = items.map(\.key)
        let counted = try await connection.query(
            "SELECT count(*), count(*) FILTER (WHERE key = ANY(\(keys))) FROM pantry_items WHERE kitchen_id = \(kitchen.id)",
            logger: logger
        )
        var (count, found) = (0, 0)
        for try await (all, existing) in counted.decode((Int, Int).self) { (count, found) = (all, existing) }
        let after = count + keys.count - found
        guard after <= capacity else { return .full }
        guard !items.isEmpty else { return .added([], count: count) }
        let written = try await connection.query(
            """
            INSERT INTO pantry_items (id, kitchen_id, key, name, category, quantity, unit, best_before, use_soon_by,
                                      use_soon_estimated, source, scan_id, added_at, last_seen_at, price_amount, price_unit,
                                      price_currency)
            SELECT r.id, \(kitchen.id), r.key, r.name, r.category, r.quantity, r.unit, DATE '1970-01-01' + r.best_before,
                   DATE '1970-01-01' + r.use_soon_by, r.use_soon_estimated, r.source, r.scan_id,
                   timestamptz 'epoch' + r.added_at * interval '1 microsecond',
                   timestamptz 'epoch' + r.last_seen_at * interval '1 microsecond', r.price_amount, r.price_unit, r.price_currency
            FROM jsonb_to_recordset(\(rows)::jsonb) AS r(
                id uuid, key text, name text, category text, quantity double precision, unit text, best_before integer,
                use_soon_by integer, use_soon_estimated boolean, source text, scan_id uuid, added_at bigint, last_seen_at bigint,
                price_amount double precision, price_unit text, price_currency text)
            ON CONFLICT (kitchen_id, key) DO UPDATE SET
                last_seen_at = EXCLUDED.last_seen_at,
                quantity = COALESCE(EXCLUDED.quantity, pantry_items.quantity),
                unit = CASE WHEN EXCLUDED.quantity IS NULL THEN pantry_items.unit ELSE EXCLUDED.unit END,
                best_before = COALESCE(EXCLUDED.best_before, pantry_items.best_before),
                use_soon_by = CASE WHEN EXCLUDED.best_before IS NULL THEN pantry_items.use_soon_by ELSE EXCLUDED.use_soon_by END,
                use_soon_estimated = CASE WHEN EXCLUDED.best_before IS NULL THEN pantry_items.use_soon_estimated
                                          ELSE EXCLUDED.use_soon_estimated END,
                price_amount = COALESCE(EXCLUDED.price_amount, pantry_items.price_amount),
                price_unit = CASE WHEN EXCLUDED.price_amount IS NULL THEN pantry_items.price_unit ELSE EXCLUDED.price_unit END,
                price_currency = CASE WHEN EXCLUDED.price_amount IS NULL THEN pantry_items.price_currency ELSE EXCLUDED.price_currency END
            RETURNING \(unescaped: Self.columns)
            """,
            logger: logger
        )
        let byKey = Dictionary(try await Self.items(written).map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        let added = keys.compactMap { byKey[$0] }
        guard added.count == keys.count else { throw PostgresRowMissing() }
        return .added(added, count: after)
    }

    /// Pages by ``PantryPage/sortMicroseconds(of:)`` and id, ascending.
    func items(of kitchen: Kitchen, after cursor: PageCursor?, limit: Int) async throws -> PantryPage {
        try await withStatementDeadline("pantry list", timeout: timeout) {
            let rows = try await client.query(
                """
                SELECT \(unescaped: Self.columns), \(unescaped: Self.sortKey) FROM pantry_items
                WHERE kitchen_id = \(kitchen.id)
                  AND (\(cursor == nil) OR (\(unescaped: Self.sortKey), id) > (\(cursor?.createdAtMicroseconds ?? 0), \(cursor?.id ?? UUID())))
                ORDER BY \(unescaped: Self.sortKey), id LIMIT \(limit + 1)
                """,
                logger: logger
            )
            var found: [(item: PantryItem, createdAtMicroseconds: Int64)] = []
            for try await row in rows {
                found.append((try Self.item(row), try row.makeRandomAccess()[16].decode(Int64.self)))
            }
            let page = PageCursor.page(of: found, limit: limit, id: \.id)
            return PantryPage(items: page.items, next: page.next)
        }
    }

    /// In the pages' order.
    func allItems(of kitchen: Kitchen) async throws -> [PantryItem] {
        try await withStatementDeadline("pantry all", timeout: timeout) {
            let rows = try await client.query(
                "SELECT \(unescaped: Self.columns) FROM pantry_items WHERE kitchen_id = \(kitchen.id) ORDER BY \(unescaped: Self.sortKey), id",
                logger: logger
            )
            return try await Self.items(rows)
        }
    }

    func prices(of kitchen: Kitchen) async throws -> [String: PantryPrice] {
        try await withStatementDeadline("pantry prices", timeout: timeout) {
            let rows = try await client.query(
                "SELECT key, amount, unit, currency FROM pantry_prices WHERE kitchen_id = \(kitchen.id)",
                logger: logger
            )
            var prices: [String: PantryPrice] = [:]
            for try await (key, amount, unit, currency) in rows.decode((String, Double, String, String).self) {
                guard let unit = QuantityUnit(rawValue: unit) else { continue }
                prices[key] = PantryPrice(amount: amount, unit: unit, currency: currency)
            }
            return prices
        }
    }

    func item(_ id: UUID, of kitchen: Kitchen) async throws -> PantryItem? {
        try await withStatementDeadline("pantry find", timeout: timeout) {
            let rows = try await client.query(
                "SELECT \(unescaped: Self.columns) FROM pantry_items WHERE id = \(id) AND kitchen_id = \(kitchen.id)",
                logger: logger
            )
            return try await Self.items(rows).first
        }
    }

    /// Under the lock of ``add(_:for:capacity:)``, so that no add of the new key comes between the check and the write.
    func replace(_ item: PantryItem, of kitchen: Kitchen) async throws -> PantryReplacing {
        let row = Row(item)
        return try await withStatementDeadline("pantry replace", timeout: timeout) {
            try await client.withTransaction(logger: logger) { connection in
                try await PostgresKitchen.lock(.pantry, of: kitchen.id, on: connection, logger: logger)
                let others = try await connection.query(
                    """
                    SELECT (SELECT count(*) FROM pantry_items WHERE kitchen_id = \(kitchen.id) AND id = \(item.id)),
                           (SELECT count(*) FROM pantry_items WHERE kitchen_id = \(kitchen.id) AND key = \(item.key) AND id <> \(item.id))
                    """,
                    logger: logger
                )
                for try await (own, taken) in others.decode((Int, Int).self) {
                    guard own > 0 else { return .notFound }
                    guard taken == 0 else { return .keyTaken }
                }
                let written = try await connection.query(
                    """
                    UPDATE pantry_items SET
                        name = \(row.name), key = \(row.key), category = \(row.category), quantity = \(row.quantity), unit = \(row.unit),
                        best_before = DATE '1970-01-01' + \(row.bestBefore)::integer,
                        use_soon_by = DATE '1970-01-01' + \(row.useSoonBy)::integer,
                        use_soon_estimated = \(row.useSoonEstimated), source = \(row.source), scan_id = \(row.scanId),
                        added_at = timestamptz 'epoch' + \(row.addedAt) * interval '1 microsecond',
                        last_seen_at = timestamptz 'epoch' + \(row.lastSeenAt) * interval '1 microsecond',
                        price_amount = \(row.priceAmount), price_unit = \(row.priceUnit), price_currency = \(row.priceCurrency)
                    WHERE id = \(item.id) AND kitchen_id = \(kitchen.id)
                    RETURNING \(unescaped: Self.columns)
                    """,
                    logger: logger
                )
                guard let replaced = try await Self.items(written).first else { throw PostgresRowMissing() }
                return .replaced(replaced)
            }
        }
    }

    func delete(_ id: UUID, of kitchen: Kitchen) async throws -> Bool {
        try await withStatementDeadline("pantry delete", timeout: timeout) {
            let rows = try await client.query("DELETE FROM pantry_items WHERE id = \(id) AND kitchen_id = \(kitchen.id) RETURNING 1", logger: logger)
            for try await _ in rows.decode(Int.self) { return true }
            return false
        }
    }

    func deleteAll(of kitchen: Kitchen) async throws {
        try await withStatementDeadline("pantry delete kitchen", timeout: timeout) {
            try await client.withTransaction(logger: logger) { connection in
                try await PostgresKitchen.emptyPantry(of: kitchen.id, on: connection, logger: logger)
            }
        }
    }

    /// An item as the statements write it: days since 1970, times in microseconds since 1970; the columns' names in
    /// snake case.
    private struct Row: Encodable {
        var id: UUID
        var key: String
        var name: String
        var category: String
        var quantity: Double?
        var unit: String?
        var bestBefore: Int?
        var useSoonBy: Int?
        var useSoonEstimated: Bool
        var source: String
        var scanId: UUID?
        var addedAt: Int64
        var lastSeenAt: Int64
        var priceAmount: Double?
        var priceUnit: String?
        var priceCurrency: String?

        init(_ item: PantryItem) {
            id = item.id
            key = item.key
            name = item.name
            category = item.category
            quantity = item.quantity
            unit = item.unit?.rawValue
            bestBefore = item.bestBefore?.daysSince1970
            useSoonBy = item.useSoonBy?.daysSince1970
            useSoonEstimated = item.useSoonEstimated
            source = item.source.rawValue
            scanId = item.scanId
            addedAt = Self.microseconds(item.addedAt)
            lastSeenAt = Self.microseconds(item.lastSeenAt)
            (priceAmount, priceUnit, priceCurrency) = (item.price?.amount, item.price?.unit.rawValue, item.price?.currency)
        }

        private static func microseconds(_ date: Date) -> Int64 {
            Int64((date.timeIntervalSince1970 * 1_000_000).rounded())
        }
    }

    private static func items(_ rows: PostgresRowSequence) async throws -> [PantryItem] {
        var items: [PantryItem] = []
        for try await row in rows { items.append(try item(row)) }
        return items
    }

    /// A row; the table's checks keep `source` to the two sources, and only ``QuantityUnit``s are written.
    private static func item(_ row: PostgresRow) throws -> PantryItem {
        let columns = row.makeRandomAccess()
        guard let source = PantrySource(rawValue: try columns[9].decode(String.self)) else { throw PostgresRowMissing() }
        return PantryItem(
            id: try columns[0].decode(UUID.self),
            name: try columns[1].decode(String.self),
            key: try columns[2].decode(String.self),
            category: try columns[3].decode(String.self),
            quantity: try columns[4].decode(Double?.self),
            unit: try columns[5].decode(String?.self).flatMap(QuantityUnit.init(rawValue:)),
            bestBefore: try columns[6].decode(Int?.self).map(CalendarDay.init(daysSince1970:)),
            useSoonBy: try columns[7].decode(Int?.self).map(CalendarDay.init(daysSince1970:)),
            useSoonEstimated: try columns[8].decode(Bool.self),
            source: source,
            scanId: try columns[10].decode(UUID?.self),
            addedAt: try columns[11].decode(Date.self),
            lastSeenAt: try columns[12].decode(Date.self),
            price: try columns[13].decode(Double?.self).flatMap { amount in
                guard let unit = try columns[14].decode(String?.self).flatMap(QuantityUnit.init(rawValue:)),
                    let currency = try columns[15].decode(String?.self)
                else { return nil }
                return PantryPrice(amount: amount, unit: unit, currency: currency)
            }
        )
    }
}
