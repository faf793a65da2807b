import Foundation

@testable import KiwiGateway

extension PageCursor {
    /// A page of `items` read the way the PostgreSQL stores read one: newest first by creation time in microseconds,
    /// then by id, the first `limit` of those after `cursor`, whether or not the cursor's own item is still there.
    static func page<Item>(
        of items: [Item],
        after cursor: PageCursor?,
        limit: Int,
        createdAt: (Item) -> Date,
        id: (Item) -> UUID
    ) -> (items: [Item], next: PageCursor?) {
        let newestFirst = items.map { (item: $0, createdAtMicroseconds: Int64(createdAt($0).timeIntervalSince1970 * 1_000_000)) }
            .sorted { precedes(($1.createdAtMicroseconds, id($1.item)), ($0.createdAtMicroseconds, id($0.item))) }
        let after = newestFirst.filter { found in
            cursor.map { precedes((found.createdAtMicroseconds, id(found.item)), ($0.createdAtMicroseconds, $0.id)) } ?? true
        }
        return page(of: Array(after.prefix(limit + 1)), limit: limit, id: id)
    }

    /// Whether one `(created_at, id)` comes before another as PostgreSQL compares the rows: ids byte by byte, which is
    /// the order of their upper-case strings.
    static func precedes(_ one: (Int64, UUID), _ other: (Int64, UUID)) -> Bool {
        one.0 != other.0 ? one.0 < other.0 : one.1.uuidString < other.1.uuidString
    }
}
