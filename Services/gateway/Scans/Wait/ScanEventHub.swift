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
    private struct State {
        var watches: [UUID: [ObjectIdentifier: ScanWatch]] = [:]
        /// The scans this gateway started, each until a worker can have no more news of it.
        var started: [UUID: ContinuousClock.Instant] = [:]
        var nextPrune = ContinuousClock.now
        var routing: (any ScanNewsRouting)?
    }

    private let state = Mutex(State())

    /// How often the scans started here are looked over for those past their end.
    private static let pruneInterval = Duration.seconds(60)

    init() {}

    /// Asks `routing` for the news of scans watched here that another gateway started. Without it (the router tests, whose
    /// announcer wakes this hub directly) every scan's news comes here.
    func route(with routing: any ScanNewsRouting) {
        state.withLock { $0.routing = routing }
    }

    /// Scan `id` was started here, its job naming this gateway: its news comes here unasked until `end`.
    func started(_ id: UUID, until end: ContinuousClock.Instant) {
        let now = ContinuousClock.now
        state.withLock { state in
            state.started[id] = end
            guard now >= state.nextPrune else { return }
            state.started = state.started.filter { $0.value > now }
            state.nextPrune = now + Self.pruneInterval
        }
    }

    /// A watch on scan `id` that stays until the registration is released. A follower registers, and listens
    /// (``ScanWatchRegistration/listen()``), before it reads the scan's record, and a new scan is registered before its
    /// job is published, so news in between is not missed.
    func register(_ id: UUID, for interest: ScanWatch.Interest) -> ScanWatchRegistration {
        let now = ContinuousClock.now
        return state.withLock { state in
            let startedHere = state.started[id].map { $0 > now } ?? false
            let registration = ScanWatchRegistration(id: id, interest: interest, hub: self, routing: startedHere ? nil : state.routing)
            state.watches[id, default: [:]][ObjectIdentifier(registration.watch)] = registration.watch
            return registration
        }
    }

    /// Removes `watch` of scan `id`, as its registration is released.
    func remove(_ watch: ScanWatch, of id: UUID) {
        state.withLock { state in
            state.watches[id]?[ObjectIdentifier(watch)] = nil
            if state.watches[id]?.isEmpty == true { state.watches[id] = nil }
        }
    }

    /// News of a scan: wakes its watches that ask for it.
    func wake(_ event: ScanEvent) {
        let stillOpen = event.state.isOpen
        let woken = state.withLock { $0.watches[event.scanID]?.values.filter { !stillOpen || $0.interest == .everyState } ?? [] }
        for watch in woken { watch.wake() }
    }

    /// Wakes every watch: news may have been lost (the subscription was down), so everyone looks again.
    func wakeAll() {
        for watch in state.withLock({ $0.watches.values.flatMap(\.values) }) { watch.wake() }
    }

    /// How many waits began on scan `id`'s watches (``ScanWatch/waitsBegun``): a follower that took news of it and
    /// waits again has begun one more.
    func waitsBegun(on id: UUID) -> UInt64 {
        state.withLock { $0.watches[id]?.values.reduce(0) { $0 + $1.waitsBegun } ?? 0 }
    }

    /// How many scans are watched: a gauge of waiting requests and open event streams.
    var watchedScans: Int { state.withLock { $0.watches.count } }
}
