import Foundation
import KiwiConcurrency
import KiwiMessaging
import KiwiScans
import Logging
import ServiceLifecycle
import Synchronization

/// Wakes whoever in this gateway waits for a scan (a blocking `POST /v1/scan`, `Prefer: wait`, an event stream)
/// when news of it arrives (``ScanEventListener``). Waiters read the scan's record when woken; the news itself
/// carries nothing they trust, but says whether it is worth a read (``ScanNews``).
final class ScanEventHub: Sendable {
    private let watches = Mutex<[UUID: [ObjectIdentifier: ScanWatch]]>([:])

    init() {}

    /// A watch on scan `id` that stays until the registration is released. A follower registers before it reads the
    /// scan's record, and a new scan is registered before its job is published, so news in between is not missed.
    func register(_ id: UUID) -> ScanWatchRegistration {
        let registration = ScanWatchRegistration(id: id, hub: self)
        watches.withLock { $0[id, default: [:]][ObjectIdentifier(registration.watch)] = registration.watch }
        return registration
    }

    fileprivate func remove(_ watch: ScanWatch, of id: UUID) {
        watches.withLock { watches in
            watches[id]?[ObjectIdentifier(watch)] = nil
            if watches[id]?.isEmpty == true { watches[id] = nil }
        }
    }

    /// News of a scan: wakes its watches.
    func announce(_ event: ScanEvent) {
        let news: ScanNews = event.state.isOpen ? .stillOpen : .changed
        for watch in watches.withLock({ $0[event.scanID].map { Array($0.values) } ?? [] }) { watch.wake(news) }
    }

    /// Wakes every watch: news may have been lost (the subscription was down), so everyone looks again.
    func wakeAll() {
        for watch in watches.withLock({ $0.values.flatMap(\.values) }) { watch.wake(.changed) }
    }

    /// How many scans are watched: a gauge of waiting requests and open event streams.
    var watchedScans: Int { watches.withLock { $0.count } }
}

/// A watch on a scan, removed from its hub when this is released.
final class ScanWatchRegistration: Sendable {
    let id: UUID
    let watch = ScanWatch()
    private let hub: ScanEventHub

    fileprivate init(id: UUID, hub: ScanEventHub) {
        self.id = id
        self.hub = hub
    }

    deinit {
        hub.remove(watch, of: id)
    }
}

/// What a follower of a scan heard while it waited (``ScanWatch/next(within:)``), least to most.
enum ScanNews: Comparable, Sendable {
    /// Nothing, for the whole wait.
    case quiet
    /// Only that the scan is still open (a worker started it): a follower that waits for the outcome alone need not
    /// read the record for it. The news of the outcome comes after it, from the same worker.
    case stillOpen
    /// That the scan may have changed in any way: news of a final state, or news that may have been lost.
    case changed
}

/// One waiter's watch on a scan: ``next(within:)`` returns once the scan had news since the last call.
final class ScanWatch: Sendable {
    private enum State {
        case idle
        /// News came while nobody was waiting: the next wait returns it at once.
        case woken(ScanNews)
        /// A wait, numbered so that a late timeout of an earlier wait cannot end it.
        case waiting(CheckedContinuation<ScanNews, Never>, wait: UInt64)
    }

    private let state = Mutex(State.idle)
    private let waits = Atomic<UInt64>(0)

    fileprivate init() {}

    /// News that came together is kept as the most telling of it.
    fileprivate func wake(_ news: ScanNews) {
        let waiter: CheckedContinuation<ScanNews, Never>? = state.withLock { state in
            switch state {
            case .waiting(let continuation, _):
                state = .idle
                return continuation
            case .idle:
                state = .woken(news)
                return nil
            case .woken(let earlier):
                state = .woken(max(earlier, news))
                return nil
            }
        }
        waiter?.resume(returning: news)
    }

    private func timeOut(_ wait: UInt64) {
        let waiter: CheckedContinuation<ScanNews, Never>? = state.withLock { state in
            guard case .waiting(let continuation, wait) = state else { return nil }
            state = .idle
            return continuation
        }
        waiter?.resume(returning: .quiet)
    }

    /// Waits for news of the scan since the last call: what came, or ``ScanNews/quiet`` after `timeout` without any.
    /// Returns at once when the task is cancelled. The timeout is a ``TimerWheel`` timer, gone as soon as news comes.
    func next(within timeout: Duration) async -> ScanNews {
        let wait = waits.add(1, ordering: .relaxed).newValue
        let timer = Mutex<TimerWheel.Timer?>(nil)
        let news = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<ScanNews, Never>) in
                let earlier = state.withLock { state -> ScanNews? in
                    if case .woken(let news) = state {
                        state = .idle
                        return news
                    }
                    state = .waiting(continuation, wait: wait)
                    return nil
                }
                if let earlier { return continuation.resume(returning: earlier) }
                let scheduled = TimerWheel.shared.schedule(at: .now + timeout) { [self] in timeOut(wait) }
                timer.withLock { $0 = scheduled }
            }
        } onCancel: {
            wake(.changed)
        }
        timer.withLock { $0 }?.cancel()
        return news
    }
}

/// Feeds this gateway's ``ScanEventHub`` from its subscription to the scan event fan-out exchange.
struct ScanEventListener: Service {
    let consumer: AMQPConsumer
    let hub: ScanEventHub
    let logger: Logger

    func run() async {
        // The consumer outlives this service in the group's shutdown order, so stop listening on shutdown rather
        // than waiting for its deliveries to end.
        await cancelWhenGracefulShutdown {
            for await delivery in consumer.deliveries {
                guard let event = ScanEvent(message: delivery.message) else {
                    logger.warning("ignoring a scan event message that does not decode")
                    continue
                }
                hub.announce(event)
            }
        }
    }
}
