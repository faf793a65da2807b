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

    /// Asks for the scan's news, unless it comes here unasked or was asked for already; true when it asked now, once
    /// the news reaches this gateway (or the asking gave up: ``ScanNewsRouting/listen(to:)``).
    func listen() async -> Bool {
        guard let routing, !listening.exchange(true, ordering: .relaxed) else { return false }
        await routing.listen(to: id)
        return true
    }

    deinit {
        hub.remove(watch, of: id)
        if listening.load(ordering: .relaxed) { routing?.stopListening(to: id) }
    }
}
