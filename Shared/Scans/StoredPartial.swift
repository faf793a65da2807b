import Foundation
import KiwiModels

/// One of an open scan's stored partials (docs/architecture.md, "Streamed scans"): a ``ScanPartial`` a worker
/// showed, numbered by its place among every partial the scan stored, and when the database accepted it.
public struct StoredPartial: Sendable, Hashable {
    /// The partial's sequence number, from 1: its event's id is 2 + `seq`.
    public let seq: Int
    public let partial: ScanPartial
    /// When the worker's show was accepted, on the database's clock, to the millisecond.
    public let acceptedAt: Date

    public init(seq: Int, partial: ScanPartial, acceptedAt: Date) {
        self.seq = seq
        self.partial = partial
        self.acceptedAt = acceptedAt
    }

    /// The entries of a scan's partials after the first `after` as ``column(ofScan:after:)`` reads them (NULL: none),
    /// in order. An entry this release cannot read (a kind of a later release, during a rollout) is left out, and the
    /// others keep their numbers, so that event ids stay the same on every replica.
    public static func entries(of json: String?, after: Int = 0) throws -> [StoredPartial] {
        guard let json else { return [] }
        let entries = try KiwiJSON.decoder().decode([Readable].self, from: Data(json.utf8))
        return entries.enumerated().compactMap { offset, readable in
            readable.entry.map {
                StoredPartial(seq: after + offset + 1, partial: $0.partial, acceptedAt: Date(timeIntervalSince1970: Double($0.at) / 1000))
            }
        }
    }

    /// SQL for the partials of the scan row `scan` (an alias of `scans`) after the first `after` (SQL for a number: a
    /// reader that has those reads only the rest) as one JSON array in order, NULL when none: its rows of
    /// `scan_partials`, or, when it has none, its `partials` column, which a worker of the previous release appends to
    /// during a rollout (migration 18). A scan's partials are numbered one after another from 1, so the first read is
    /// number `after` + 1 (``entries(of:after:)``).
    public static func column(ofScan scan: String, after: String = "0") -> String {
        """
        COALESCE(
            (SELECT jsonb_agg(entry ORDER BY position) FROM scan_partials WHERE scan_id = \(scan).id AND position > \(after)),
            (SELECT jsonb_agg(legacy.entry ORDER BY legacy.position)
                FROM jsonb_array_elements(\(scan).partials) WITH ORDINALITY AS legacy(entry, position) WHERE legacy.position > \(after))
        )::text
        """
    }

    /// What a client that has followed the whole stream shows: the partials after the last `restart`, in order.
    public static func shown(_ entries: [StoredPartial]) -> [StoredPartial] {
        guard let restart = entries.lastIndex(where: { $0.partial == .restart }) else { return entries }
        return Array(entries[(restart + 1)...])
    }

    /// A stored entry: the partial's fields, and `at`.
    private struct Entry: Decodable {
        let partial: ScanPartial
        let at: Int64

        private enum CodingKeys: String, CodingKey {
            case at
        }

        init(from decoder: any Decoder) throws {
            partial = try ScanPartial(from: decoder)
            at = try decoder.container(keyedBy: CodingKeys.self).decode(Int64.self, forKey: .at)
        }
    }

    /// An entry, or nil when this release cannot read it.
    private struct Readable: Decodable {
        let entry: Entry?

        init(from decoder: any Decoder) throws {
            entry = try? Entry(from: decoder)
        }
    }
}
