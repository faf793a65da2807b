import Foundation
import KiwiConcurrency
import KiwiMessaging
import KiwiScans
import Logging
import ServiceLifecycle
import Synchronization

/// Wakes whoever in this gateway waits for a scan (a blocking `POST /v1/scan`, `Prefer: wait`, an event stream)
/// when news of it arrives (``ScanEventListener``). Waiters read the scan's record when woken; the news itself
/// carries nothing they trust.
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

    /// News of scan `id`: wakes its watches.
    func announce(_ id: UUID) {
        for watch in watches.withLock({ $0[id].map { Array($0.values) } ?? [] }) { watch.wake() }
    }

    /// Wakes every watch: news may have been lost (the subscription was down), so everyone looks again.
    func wakeAll() {
        for watch in watches.withLock({ $0.values.flatMap(\.values) }) { watch.wake() }
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

/// One waiter's watch on a scan: ``next(within:)`` returns once the scan had news since the last call.
final class ScanWatch: Sendable {
    private enum State {
        case idle
        /// News came while nobody was waiting: the next wait returns at once.
        case woken
        /// A wait, numbered so that a late timeout of an earlier wait cannot end it.
        case waiting(CheckedContinuation<Bool, Never>, wait: UInt64)
    }

    private let state = Mutex(State.idle)
    private let waits = Atomic<UInt64>(0)

    fileprivate init() {}

    fileprivate func wake() {
        let waiter: CheckedContinuation<Bool, Never>? = state.withLock { state in
            switch state {
            case .waiting(let continuation, _):
                state = .idle
                return continuation
            case .idle, .woken:
                state = .woken
                return nil
            }
        }
        waiter?.resume(returning: true)
    }

    private func timeOut(_ wait: UInt64) {
        let waiter: CheckedContinuation<Bool, Never>? = state.withLock { state in
            guard case .waiting(let continuation, wait) = state else { return nil }
            state = .idle
            return continuation
        }
        waiter?.resume(returning: false)
    }

    /// Waits for news of the scan since the last call: true when it came, false after `timeout` without any. Returns
    /// at once when the task is cancelled. The timeout is a ``TimerWheel`` timer, gone as soon as news comes.
    func next(within timeout: Duration) async -> Bool {
        let wait = waits.add(1, ordering: .relaxed).newValue
        let timer = Mutex<TimerWheel.Timer?>(nil)
        let news = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let now = state.withLock { state -> Bool in
                    if case .woken = state {
                        state = .idle
                        return true
                    }
                    state = .waiting(continuation, wait: wait)
                    return false
                }
                if now { return continuation.resume(returning: true) }
                let scheduled = TimerWheel.shared.schedule(at: .now + timeout) { [self] in timeOut(wait) }
                timer.withLock { $0 = scheduled }
            }
        } onCancel: {
            wake()
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
                hub.announce(event.scanID)
            }
        }
    }
}
