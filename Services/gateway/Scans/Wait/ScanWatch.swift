import KiwiConcurrency
import Synchronization

/// One waiter's watch on a scan: ``next(within:)`` returns once the scan had news since the last call that the
/// waiter's ``Interest`` asks for.
final class ScanWatch: Sendable {
    /// Which news of the scan wakes the waiter.
    enum Interest: Sendable {
        /// Only news of an end: a request waiting for the scan's answer is not woken, and reads nothing, for each step
        /// a worker shows.
        case outcome
        /// Any news: an event stream sends every step of the scan.
        case everyState
    }

    private enum State {
        case idle
        /// News came while nobody was waiting: the next wait returns at once.
        case woken
        /// A wait, numbered so that a late timeout of an earlier wait cannot end it.
        case waiting(CheckedContinuation<Bool, Never>, wait: UInt64)
    }

    let interest: Interest
    private let state = Mutex(State.idle)
    private let waits = Atomic<UInt64>(0)

    init(interest: Interest) {
        self.interest = interest
    }

    /// Wakes the wait, or the next one. News that came together wakes it once.
    func wake() {
        let waiter: CheckedContinuation<Bool, Never>? = state.withLock { state in
            guard case .waiting(let continuation, _) = state else {
                state = .woken
                return nil
            }
            state = .idle
            return continuation
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

    /// How many waits began: one more than the news a follower has taken, while it waits for the next.
    var waitsBegun: UInt64 { waits.load(ordering: .relaxed) }

    /// Waits for news of the scan since the last call: true when some came, false after `timeout` without any.
    /// Returns at once when the task is cancelled. The timeout is a ``TimerWheel`` timer, gone as soon as news comes.
    func next(within timeout: Duration) async -> Bool {
        let wait = waits.add(1, ordering: .relaxed).newValue
        let timer = Mutex<TimerWheel.Timer?>(nil)
        let news = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let woken = state.withLock { state -> Bool in
                    if case .woken = state {
                        state = .idle
                        return true
                    }
                    state = .waiting(continuation, wait: wait)
                    return false
                }
                if woken { return continuation.resume(returning: true) }
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
