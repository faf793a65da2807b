import Foundation
import Synchronization

/// The scans this gateway started, each until a worker can have no more news of it: their jobs name this gateway, so
/// their news comes here unasked (``ScanEventHub``).
final class ScansStartedHere: Sendable {
    private struct State {
        var ends: [UUID: ContinuousClock.Instant] = [:]
        var nextPrune = ContinuousClock.now
    }

    private let state = Mutex(State())

    /// How often the scans are looked over for those past their end.
    private static let pruneInterval = Duration.seconds(60)

    /// Scan `id` was started here; its news comes here until `end`.
    func add(_ id: UUID, until end: ContinuousClock.Instant) {
        let now = ContinuousClock.now
        state.withLock { state in
            state.ends[id] = end
            guard now >= state.nextPrune else { return }
            state.ends = state.ends.filter { $0.value > now }
            state.nextPrune = now + Self.pruneInterval
        }
    }

    /// Whether scan `id` was started here and its news still comes here unasked.
    func contains(_ id: UUID) -> Bool {
        let now = ContinuousClock.now
        return state.withLock { $0.ends[id].map { $0 > now } ?? false }
    }
}
