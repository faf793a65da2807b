import Foundation
import KiwiModels

/// News that a scan changed state, routed to the gateway replicas that watch the scan (`KiwiTopology.scanNewsExchange`)
/// so that whichever one is waiting for it, or streaming it to a client, looks at its record again. The record in
/// PostgreSQL is the truth; an event only says when to read it.
public struct ScanEvent: Sendable, Hashable, Codable {
    public var scanID: UUID
    public var state: ScanState

    public init(scanID: UUID, state: ScanState) {
        self.scanID = scanID
        self.state = state
    }

    private enum CodingKeys: String, CodingKey {
        case scanID = "scanId"
        case state
    }

    /// The id in lower case, as everywhere else in Kiwi.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(scanID.uuidString.lowercased(), forKey: .scanID)
        try container.encode(state, forKey: .state)
    }
}
