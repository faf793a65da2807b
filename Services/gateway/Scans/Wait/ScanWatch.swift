import KiwiConcurrency
import Synchronization

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

    init() {}

    /// Wakes the wait, or the next one, with `news`. News that came together is kept as the most telling of it.
    func wake(_ news: ScanNews) {
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

    /// How many waits began: one more than the news a follower has taken, while it waits for the next.
    var waitsBegun: UInt64 { waits.load(ordering: .relaxed) }

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
