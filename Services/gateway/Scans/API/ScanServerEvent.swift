import Foundation
import KiwiModels
import KiwiScans
import NIOCore

/// One server-sent event of a scan's stream (docs/architecture.md, "Streamed scans").
struct ScanServerEvent {
    /// The event's id, its position on the scan's path: `queued` 1, `running` 2, the n-th stored partial 2 + n, the
    /// final event 3 + the scan's partial count.
    let id: Int
    /// `status`, `ingredients`, `recipe`, `meal`, `restart`, `result` or `error`.
    let name: String
    /// The event's data: JSON, which without pretty printing has no line breaks.
    let json: String
    /// For a partial: when the worker's append was accepted; nil for the others.
    let acceptedAt: Date?

    /// The `status` event of `state` (`queued` or `running`), showing `scan` as it stood then.
    static func status(_ state: ScanState, of scan: ScanRecord) -> Self {
        var resource = scan.resource
        resource.status = state.rawValue
        (resource.result, resource.error) = (nil, nil)
        return Self(id: state == .queued ? 1 : 2, name: "status", json: encoded(resource), acceptedAt: nil)
    }

    /// The event of partial `stored` of scan `scanID`: named by its kind, its data the scan's id and its fields.
    static func partial(_ stored: StoredPartial, of scanID: UUID) -> Self {
        let data = ScanPartialEvent(scanID: scanID, partial: stored.partial)
        return Self(id: 2 + stored.seq, name: stored.partial.kind, json: encoded(data), acceptedAt: stored.acceptedAt)
    }

    /// The last event of a final scan: `result`, or `error`, with the scan resource.
    static func end(of scan: ScanRecord) -> Self {
        Self(id: 3 + scan.partialCount, name: scan.state == .succeeded ? "result" : "error", json: encoded(scan.resource), acceptedAt: nil)
    }

    /// `id`, `event` and one `data` line, then the blank line that ends an event.
    var buffer: ByteBuffer {
        ByteBuffer(string: "id: \(id)\nevent: \(name)\ndata: \(json)\n\n")
    }

    private static func encoded(_ value: some Encodable) -> String {
        // Encoding a resource or a partial cannot fail: both are plain values.
        String(decoding: try! KiwiJSON.encoder().encode(value), as: UTF8.self)
    }
}
