import Foundation
import Synchronization

/// A watch on a scan, removed from its hub when this is released, with the news it asked for.
final class ScanWatchRegistration: Sendable {
    let id: UUID
    let watch: ScanWatch
    private let hub: ScanEventHub
    /// Where to ask for the scan's news, for a scan another gateway started; nil when it comes here unasked.
    private let routing: (any ScanNewsRouting)?
    private let listening = Atomic(false)

    init(id: UUID, interest: ScanWatch.Interest, hub: ScanEventHub, routing: (any ScanNewsRouting)?) {
        self.id = id
        self.watch = ScanWatch(interest: interest)
        self.hub = hub
        self.routing = routing
    }

    /// Returns once the scan's news reaches this gateway: at once when it comes unasked, or has been asked for already.
    func listen() async {
        guard let routing, !listening.exchange(true, ordering: .relaxed) else { return }
        await routing.listen(to: id)
    }

    deinit {
        hub.remove(watch, of: id)
        if listening.load(ordering: .relaxed) { routing?.stopListening(to: id) }
    }
}
