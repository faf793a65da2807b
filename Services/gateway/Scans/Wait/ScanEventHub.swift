import Foundation
import KiwiScans
import Synchronization

/// Wakes whoever in this gateway waits for a scan (a blocking `POST /v1/scan`, `Prefer: wait`, an event stream)
/// when news of it arrives (``ScanEventListener``), as far as their ``ScanWatch/Interest`` asks: news that a scan is
/// still open (a worker started it, or showed a step) wakes event streams only, not requests waiting for its answer.
/// Waiters read the scan's record when woken; the news itself carries nothing they trust.
///
/// News of the scans this gateway started comes here unasked (their jobs name it); a watch on any other scan asks for
/// its news through ``ScanNewsRouting`` while it lasts (docs/architecture.md, "Scan events").
final class ScanEventHub: Sendable {
    private let watches = Mutex<[UUID: [ObjectIdentifier: ScanWatch]]>([:])
    private let startedHere = ScansStartedHere()
    private let routing = Mutex<(any ScanNewsRouting)?>(nil)

    init() {}

    /// Asks `routing` for the news of scans watched here that another gateway started; set as the gateway is put
    /// together, since its subscription wakes this hub. Without it (the router tests, whose announcer wakes this hub
    /// directly) every scan's news comes here.
    func route(with routing: any ScanNewsRouting) {
        self.routing.withLock { $0 = routing }
    }

    /// Scan `id` was started here, its job naming this gateway: its news comes here unasked until `end`.
    func started(_ id: UUID, until end: ContinuousClock.Instant) {
        startedHere.add(id, until: end)
    }

    /// A watch on scan `id` that stays until the registration is released. A follower registers before it reads the
    /// scan's record, and a new scan is registered before its job is published, so news in between is not missed.
    func register(_ id: UUID, for interest: ScanWatch.Interest) -> ScanWatchRegistration {
        let asking = startedHere.contains(id) ? nil : routing.withLock { $0 }
        let registration = ScanWatchRegistration(id: id, interest: interest, hub: self, routing: asking)
        watches.withLock { $0[id, default: [:]][ObjectIdentifier(registration.watch)] = registration.watch }
        return registration
    }

    /// Removes `watch` of scan `id`, as its registration is released.
    func remove(_ watch: ScanWatch, of id: UUID) {
        watches.withLock { watches in
            watches[id]?[ObjectIdentifier(watch)] = nil
            if watches[id]?.isEmpty == true { watches[id] = nil }
        }
    }

    /// News of a scan: wakes its watches that ask for it.
    func wake(_ event: ScanEvent) {
        let stillOpen = event.state.isOpen
        let woken = watches.withLock { $0[event.scanID]?.values.filter { !stillOpen || $0.interest == .everyState } ?? [] }
        for watch in woken { watch.wake() }
    }

    /// Wakes every watch: news may have been lost (the subscription was down), so everyone looks again.
    func wakeAll() {
        for watch in watches.withLock({ $0.values.flatMap(\.values) }) { watch.wake() }
    }

    /// How many waits began on scan `id`'s watches (``ScanWatch/waitsBegun``): a follower that took news of it and
    /// waits again has begun one more.
    func waitsBegun(on id: UUID) -> UInt64 {
        watches.withLock { $0[id]?.values.reduce(0) { $0 + $1.waitsBegun } ?? 0 }
    }

    /// How many scans are watched: a gauge of waiting requests and open event streams.
    var watchedScans: Int { watches.withLock { $0.count } }
}
