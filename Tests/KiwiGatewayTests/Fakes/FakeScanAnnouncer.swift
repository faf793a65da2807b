import KiwiScans
import Synchronization

@testable import KiwiGateway

/// The scan event exchange: every announcement reaches this gateway's hub at once, and is kept for the test to see.
final class FakeScanAnnouncer: ScanAnnouncer {
    private let announcements = Mutex<[ScanEvent]>([])
    private let events: ScanEventHub

    init(events: ScanEventHub) {
        self.events = events
    }

    /// The events the gateway announced.
    var announced: [ScanEvent] { announcements.withLock { $0 } }

    func announce(_ event: ScanEvent) async {
        announcements.withLock { $0.append(event) }
        events.announce(event)
    }
}
