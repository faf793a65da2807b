import Foundation
import PostgresNIO

// What most of Kiwi's prepared statements share: the statements every scan runs are prepared, so that PostgreSQL
// parses and plans each once per connection rather than once per scan (docs/decisions.md, "A scan's round trips").

/// A prepared statement whose one binding is an id (`$1`): a scan's or a person's.
public protocol PreparedStatementByID: PostgresPreparedStatement {
    var id: UUID { get }
}

extension PreparedStatementByID {
    public func makeBindings() -> PostgresBindings {
        var bindings = PostgresBindings()
        bindings.append(id)
        return bindings
    }
}

extension PostgresPreparedStatement where Row: PostgresDecodable {
    /// A row of one column, as `Row`.
    public func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
}

extension PostgresPreparedStatement where Row == PostgresRow {
    /// The row itself, for a caller that reads its columns one by one.
    public func decodeRow(_ row: PostgresRow) -> Row { row }
}
