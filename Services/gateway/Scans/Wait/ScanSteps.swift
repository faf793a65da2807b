import KiwiScans

/// What a client watching a scan has not seen of it, in order (``ScanCoordinator/watch(_:of:lastEventID:)``): each
/// step of the scan's path as it is seen, and a ``Element/quiet`` after each ``ScanCoordinator/recheckInterval``
/// without news. Ends after the step of the scan's final state, or when the scan is gone.
struct ScanSteps: AsyncSequence, Sendable {
    enum Element: Sendable {
        /// Step `number` of the path of `scan` (from 1), showing the scan as it was seen at that step.
        case step(Int, of: ScanRecord)
        /// No news for a while; the scan goes on.
        case quiet
    }

    private let follower: ScanFollower
    /// The scan as first read.
    private let first: ScanRecord
    /// How many steps the client has seen.
    private let seen: Int

    init(following follower: ScanFollower, from first: ScanRecord, after seen: Int) {
        self.follower = follower
        self.first = first
        self.seen = seen
    }

    /// Whether the client has seen every step: the scan is final, and its last step was sent.
    var allSeen: Bool { !first.state.isOpen && seen >= first.state.path.count }

    func makeAsyncIterator() -> Iterator {
        Iterator(follower: follower, scan: first, sent: seen)
    }

    struct Iterator: AsyncIteratorProtocol {
        var follower: ScanFollower
        /// The record whose steps are being sent.
        var scan: ScanRecord?
        var sent: Int

        mutating func next() async throws -> Element? {
            while true {
                if let scan {
                    let path = scan.state.path
                    while sent < path.count {
                        sent += 1
                        // `running` is reported only when seen: a scan cancelled or failed in the queue never ran.
                        if path[sent - 1] == .running && scan.state != .running { continue }
                        return .step(sent, of: scan)
                    }
                    self.scan = nil
                }
                switch try await follower.next(until: nil, everyState: true) {
                case .record(let read)?: scan = read
                case .quiet?: return .quiet
                case .gone?, nil: return nil
                }
            }
        }
    }
}
