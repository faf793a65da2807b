import Foundation
import Hummingbird
import KiwiServiceSupport

/// Where a page of a user's list (scans, saved recipes) starts: after the item created at `createdAt` (in
/// microseconds since 1970, as PostgreSQL keeps it) with `id`. Sent to clients as a string they need not read, in a
/// form the API description states exactly (`<microseconds>.<id>`), so that every string of that form is a cursor.
struct PageCursor: Sendable, Hashable {
    let createdAtMicroseconds: Int64
    let id: UUID

    /// The cursor as the lists hand it out: `<microseconds>.<id>`.
    var token: String { "\(createdAtMicroseconds).\(id.uuidString.lowercased())" }

    init(createdAtMicroseconds: Int64, id: UUID) {
        self.createdAtMicroseconds = createdAtMicroseconds
        self.id = id
    }

    /// The SQL of a row's `created_at` in microseconds, what cursors compare.
    static let createdAtMicrosecondsSQL = "(extract(epoch FROM created_at) * 1000000)::bigint"

    /// A page out of up to `limit + 1` rows read newest first, each with its ``createdAtMicrosecondsSQL``: the first
    /// `limit`, and where the next page starts when there was one row more.
    static func page<Item>(
        of found: [(item: Item, createdAtMicroseconds: Int64)],
        limit: Int,
        id: (Item) -> UUID
    ) -> (items: [Item], next: PageCursor?) {
        let next =
            found.count > limit ? PageCursor(createdAtMicroseconds: found[limit - 1].createdAtMicroseconds, id: id(found[limit - 1].item)) : nil
        return (found.prefix(limit).map(\.item), next)
    }

    /// Reads a cursor a client sent back: 1 to 18 digits, a dot and a UUID, as `openapi.yaml`'s pattern says; nil for
    /// anything else.
    init?(token: String) {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...18).contains(parts[0].utf8.count), parts[0].utf8.allSatisfy({ (48...57).contains($0) }),
            let micros = Int64(parts[0]), let id = UUID(uuidString: String(parts[1]))
        else { return nil }
        self.init(createdAtMicroseconds: micros, id: id)
    }
}

/// The page a list request asks for: `limit` (1 to ``largest``, ``standard`` when absent) and `cursor` (a
/// `nextCursor` of an earlier page; empty, like none, for the first page, so that a client may send back an absent
/// `nextCursor` as it is). Anything else is a 400 that says what is allowed.
struct PageRequest: Sendable {
    static let standard = 20
    static let largest = 100

    let limit: Int
    let cursor: PageCursor?

    init(_ query: Parameters) throws {
        limit = try query.wholeNumber("limit", in: 1...Self.largest) ?? Self.standard
        guard let token = query["cursor"], !token.isEmpty else {
            cursor = nil
            return
        }
        guard let read = PageCursor(token: String(token)) else {
            throw APIError.badRequest("cursor must be a nextCursor of an earlier page, as it was given.")
        }
        cursor = read
    }
}
