import Synchronization

/// Timers that are forgotten the moment they are cancelled. On Linux a cancelled `Task.sleep` keeps its dispatch timer
/// until the original deadline, so a service that cancels thousands of long timeouts (every statement's deadline, every
/// waiting scan's) keeps waking up for minutes after the load has stopped. Here one driving task ticks every ``tick``
/// while any timer is pending and stops when none is; scheduling and cancelling are O(1). A timer fires up to one tick
/// late.
public final class TimerWheel: Sendable {
    /// The process's wheel, ticking every 10 ms while a timer is pending.
    public static let shared = TimerWheel(tick: .milliseconds(10))

    /// A scheduled action; ``cancel()`` forgets it unless it has run.
    public struct Timer: Sendable {
        fileprivate let id: UInt64
        fileprivate let wheel: TimerWheel

        /// Forgets the action. Returns false when it has run (or is running) already.
        @discardableResult
        public func cancel() -> Bool {
            wheel.state.withLock { $0.actions.removeValue(forKey: id) } != nil
        }
    }

    private struct State {
        var actions: [UInt64: @Sendable () -> Void] = [:]
        /// Timer ids by the tick they fire at; ids of cancelled timers are skipped when their tick comes.
        var buckets: [Int64: [UInt64]] = [:]
        /// The last tick whose timers were fired.
        var firedThrough: Int64 = 0
        var nextID: UInt64 = 0
        var driving = false
    }

    /// How often the driving task looks for due timers, and so how late a timer may fire.
    public let tick: Duration
    private let origin = ContinuousClock.now
    private let state = Mutex(State())

    public init(tick: Duration) {
        self.tick = tick
    }

    /// Timers scheduled and neither run nor cancelled.
    public var pendingTimers: Int { state.withLock { $0.actions.count } }

    /// Whether the driving task is running: only while a timer is pending.
    public var isDriving: Bool { state.withLock { $0.driving } }

    /// Runs `action` once `deadline` has passed (at once, on the caller's thread, if it has), unless the returned timer
    /// is cancelled first. `action` runs on the wheel's task: it must be quick and must not block.
    public func schedule(at deadline: ContinuousClock.Instant, _ action: @escaping @Sendable () -> Void) -> Timer {
        let (id, due, startDriving) = state.withLock { state -> (UInt64, Bool, Bool) in
            state.nextID &+= 1
            let id = state.nextID
            let firedThrough = state.driving ? state.firedThrough : tickIndex(ContinuousClock.now, roundingUp: false)
            let tick = tickIndex(deadline, roundingUp: true)
            guard tick > firedThrough else { return (id, true, false) }
            let startDriving = !state.driving
            if startDriving { (state.driving, state.firedThrough) = (true, firedThrough) }
            state.actions[id] = action
            state.buckets[tick, default: []].append(id)
            return (id, false, startDriving)
        }
        if due {
            action()
        } else if startDriving {
            Task.detached { await self.drive() }
        }
        return Timer(id: id, wheel: self)
    }

    /// Suspends until `deadline`. Throws `CancellationError` at once, and forgets the timer, when the task is cancelled.
    public func sleep(until deadline: ContinuousClock.Instant) async throws {
        let wakeUp = Mutex<CheckedContinuation<Void, any Error>?>(nil)
        let timer = Mutex<Timer?>(nil)
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                wakeUp.withLock { $0 = continuation }
                let scheduled = schedule(at: deadline) { wakeUp.withLock { $0.take() }?.resume() }
                timer.withLock { $0 = scheduled }
                if Task.isCancelled, scheduled.cancel() { wakeUp.withLock { $0.take() }?.resume(throwing: CancellationError()) }
            }
        } onCancel: {
            if timer.withLock({ $0 })?.cancel() == true { wakeUp.withLock { $0.take() }?.resume(throwing: CancellationError()) }
        }
    }

    private func drive() async {
        while true {
            try? await Task.sleep(for: tick)  // never cancelled, so it leaves nothing behind
            let (due, idle) = state.withLock { state -> ([@Sendable () -> Void], Bool) in
                let now = tickIndex(ContinuousClock.now, roundingUp: false)
                var due: [@Sendable () -> Void] = []
                if now > state.firedThrough {
                    for tick in (state.firedThrough + 1)...now {
                        for id in state.buckets.removeValue(forKey: tick) ?? [] {
                            if let action = state.actions.removeValue(forKey: id) { due.append(action) }
                        }
                    }
                    state.firedThrough = now
                }
                if state.actions.isEmpty {
                    state.buckets.removeAll()
                    state.driving = false
                    return (due, true)
                }
                return (due, false)
            }
            for action in due { action() }
            if idle { return }
        }
    }

    /// Which tick `instant` falls in, counted from the wheel's creation.
    private func tickIndex(_ instant: ContinuousClock.Instant, roundingUp: Bool) -> Int64 {
        let ticks = (instant - origin) / tick
        return Int64(roundingUp ? ticks.rounded(.up) : ticks.rounded(.down))
    }
}
