import Foundation

/// A watch on a scan, removed from its hub when this is released.
final class ScanWatchRegistration: Sendable {
    let id: UUID
    let watch: ScanWatch
    private let hub: ScanEventHub

    init(id: UUID, interest: ScanWatch.Interest, hub: ScanEventHub) {
        self.id = id
        self.watch = ScanWatch(interest: interest)
        self.hub = hub
    }

    deinit {
        hub.remove(watch, of: id)
    }
}
