import KiwiScans
import Synchronization

@testable import KiwiGateway

/// The scan event exchange: every announcement reaches this gateway's hub at once, and is kept for the test to see.
final class FakeScanAnnouncer: ScanAnnouncer {
    private let announcements = Mutex<[ScanEvent]>([])
    private let hub: ScanEventHub

    init(hub: ScanEventHub) {
        self.hub = hub
    }

    /// The events the gateway announced.
    var announced: [ScanEvent] { announcements.withLock { $0 } }

    func announce(_ event: ScanEvent) async {
        announcements.withLock { $0.append(event) }
        hub.wake(event)
    }
}
