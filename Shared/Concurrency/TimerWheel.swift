import HeapModule
import Synchronization

/// Timers that are forgotten the moment they are cancelled. On Linux a cancelled `Task.sleep` keeps its dispatch timer
/// until the original deadline, so a service that cancels thousands of long timeouts (every statement's deadline, every
/// waiting scan's) keeps waking up for minutes after the load has stopped. Here deadlines are rounded up to a ``tick``
/// and kept in buckets; one alarm, a `Task.sleep` that is never cancelled, wakes the wheel at the earliest tick that
/// still has a pending timer, and none is set while no timer is pending. An alarm passed over (an earlier timer came,
/// or every timer was cancelled) still wakes the wheel once at its time, and is ignored. Scheduling and cancelling are
/// O(log n) at most. A timer fires up to one tick late.
public final class TimerWheel: Sendable {
    /// The process's wheel, with 10 ms ticks.
    public static let shared = TimerWheel(tick: .milliseconds(10))

    /// A scheduled action; ``cancel()`` forgets it unless it has run.
    public struct Timer: Sendable {
        fileprivate let id: UInt64
        fileprivate let wheel: TimerWheel

        /// Forgets the action. Returns false when it has run (or is running) already.
        @discardableResult
        public func cancel() -> Bool {
            wheel.state.withLock { $0.cancel(id) }
        }
    }

    /// The timers due at one tick; ids of cancelled ones are skipped when it comes.
    private struct Bucket {
        var ids: [UInt64] = []
        var pending = 0
    }

    private struct State {
        var actions: [UInt64: (tick: Int64, action: @Sendable () -> Void)] = [:]
        var buckets: [Int64: Bucket] = [:]
        /// The buckets' ticks, earliest first.
        var ticks = Heap<Int64>()
        var nextID: UInt64 = 0
        /// The tick the current alarm rings at; nil while no timer is pending.
        var alarmTick: Int64?
        /// Tells the current alarm from those passed over.
        var alarmGeneration: UInt64 = 0
        var wakeUps = 0

        /// Sets the alarm for `tick`; returns it for the caller to start outside the lock.
        mutating func setAlarm(_ tick: Int64) -> (tick: Int64, generation: UInt64) {
            alarmGeneration &+= 1
            alarmTick = tick
            return (tick, alarmGeneration)
        }

        mutating func add(_ id: UInt64, at tick: Int64, _ action: @escaping @Sendable () -> Void) {
            actions[id] = (tick, action)
            if buckets[tick] == nil {
                buckets[tick] = Bucket()
                ticks.insert(tick)
            }
            buckets[tick]!.ids.append(id)
            buckets[tick]!.pending += 1
        }

        mutating func cancel(_ id: UInt64) -> Bool {
            guard let (tick, _) = actions.removeValue(forKey: id) else { return false }
            buckets[tick]?.pending -= 1
            if actions.isEmpty {
                // Nothing is pending: forget the buckets, and the alarm rings for nothing.
                buckets.removeAll()
                ticks = Heap()
                alarmTick = nil
            }
            return true
        }

        /// Removes the actions due at or before `tick`, and drops the emptied buckets at the front.
        mutating func takeActions(dueThrough tick: Int64) -> [@Sendable () -> Void] {
            var due: [@Sendable () -> Void] = []
            while let earliest = ticks.min, earliest <= tick || buckets[earliest]?.pending == 0 {
                ticks.removeMin()
                for id in buckets.removeValue(forKey: earliest)?.ids ?? [] {
                    if let (_, action) = actions.removeValue(forKey: id) { due.append(action) }
                }
            }
            return due
        }
    }

    /// How finely deadlines are kept, and so how late a timer may fire.
    public let tick: Duration
    private let origin = ContinuousClock.now
    private let state = Mutex(State())

    public init(tick: Duration) {
        self.tick = tick
    }

    /// Timers scheduled and neither run nor cancelled.
    public var pendingTimers: Int { state.withLock { $0.actions.count } }

    /// Whether an alarm is set: only while a timer is pending.
    public var isArmed: Bool { state.withLock { $0.alarmTick != nil } }

    /// How many times an alarm has woken the wheel, those passed over included: what the wheel costs while idle.
    public var wakeUps: Int { state.withLock { $0.wakeUps } }

    /// Runs `action` once `deadline` has passed (at once, on the caller's thread, if it has), unless the returned timer
    /// is cancelled first. `action` runs on the wheel's task: it must be quick and must not block.
    public func schedule(at deadline: ContinuousClock.Instant, _ action: @escaping @Sendable () -> Void) -> Timer {
        let tick = tickIndex(deadline, roundingUp: true)
        let (id, due, alarm) = state.withLock { state -> (UInt64, Bool, (tick: Int64, generation: UInt64)?) in
            state.nextID &+= 1
            let id = state.nextID
            guard tick > tickIndex(ContinuousClock.now, roundingUp: false) else { return (id, true, nil) }
            state.add(id, at: tick, action)
            if let alarmTick = state.alarmTick, alarmTick <= tick { return (id, false, nil) }
            return (id, false, state.setAlarm(tick))
        }
        if due {
            action()
        } else if let alarm {
            startAlarm(alarm)
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

    /// Sleeps until the alarm's tick, then runs what is due and sets the next alarm, unless it was passed over.
    private func startAlarm(_ alarm: (tick: Int64, generation: UInt64)) {
        let ringsAt = origin + tick * Int(alarm.tick)
        Task.detached {
            try? await Task.sleep(until: ringsAt, clock: .continuous)  // never cancelled, so it leaves nothing behind
            let (due, next) = self.state.withLock { state -> ([@Sendable () -> Void], (tick: Int64, generation: UInt64)?) in
                state.wakeUps += 1
                guard state.alarmGeneration == alarm.generation else { return ([], nil) }
                let now = max(alarm.tick, self.tickIndex(ContinuousClock.now, roundingUp: false))
                let due = state.takeActions(dueThrough: now)
                guard let earliest = state.ticks.min else {
                    state.alarmTick = nil
                    return (due, nil)
                }
                return (due, state.setAlarm(earliest))
            }
            if let next { self.startAlarm(next) }
            for action in due { action() }
        }
    }

    /// Which tick `instant` falls in, counted from the wheel's creation.
    private func tickIndex(_ instant: ContinuousClock.Instant, roundingUp: Bool) -> Int64 {
        let ticks = (instant - origin) / tick
        return Int64(roundingUp ? ticks.rounded(.up) : ticks.rounded(.down))
    }
}
