import Foundation
import KiwiModels
import KiwiScans
import NIOCore

/// One server-sent event of a scan's stream.
struct ScanServerEvent {
    /// The event's id: the step's position on the scan's path, from 1.
    let step: Int
    /// `status`, `result` or `error`.
    let name: String
    let resource: ScanResource

    /// Step `step` of the scan's path so far, showing `scan` as it stood then: a status event for every step but a
    /// final one.
    init(step: Int, of scan: ScanRecord) {
        let state = scan.state.path[step - 1]
        self.step = step
        switch state {
        case .queued, .running:
            name = "status"
            var resource = scan.resource
            resource.status = state.rawValue
            (resource.result, resource.error) = (nil, nil)
            self.resource = resource
        case .succeeded:
            name = "result"
            resource = scan.resource
        case .failed:
            name = "error"
            resource = scan.resource
        }
    }

    /// `id`, `event` and one `data` line of JSON, then the blank line that ends an event.
    var buffer: ByteBuffer {
        // Encoding the resource cannot fail; JSON without pretty printing has no line breaks.
        let json = String(decoding: try! KiwiJSON.encoder().encode(resource), as: UTF8.self)
        return ByteBuffer(string: "id: \(step)\nevent: \(name)\ndata: \(json)\n\n")
    }
}
