import KiwiConcurrency
import KiwiTestSupport
import Synchronization
import Testing

@Suite("Timer wheel")
struct TimerWheelTests {
    let wheel = TimerWheel(tick: .milliseconds(10))

    @Test("a scheduled action runs once its deadline has passed")
    func actionRunsAfterDeadline() async throws {
        let deadline = ContinuousClock.now + .milliseconds(50)
        let ranAt = Mutex<ContinuousClock.Instant?>(nil)
        _ = wheel.schedule(at: deadline) { ranAt.withLock { $0 = .now } }
        try await eventually { ranAt.withLock { $0 } != nil }
        let time = try #require(ranAt.withLock { $0 })
        #expect(time >= deadline)
    }

    @Test("an action whose deadline has passed runs at once, without setting an alarm")
    func pastDeadlineRunsAtOnce() {
        let ran = Mutex(false)
        _ = wheel.schedule(at: .now - .seconds(1)) { ran.withLock { $0 = true } }
        #expect(ran.withLock { $0 })
        #expect(!wheel.isArmed)
    }

    @Test("a cancelled timer is forgotten at once and never runs")
    func cancelledTimerNeverRuns() async throws {
        let ran = Mutex(false)
        let timer = wheel.schedule(at: .now + .milliseconds(30)) { ran.withLock { $0 = true } }
        #expect(timer.cancel())
        #expect(wheel.pendingTimers == 0)
        // A timer due after the cancelled one: once it has run, the wheel has passed the cancelled one's deadline.
        let laterRan = Mutex(false)
        _ = wheel.schedule(at: .now + .milliseconds(60)) { laterRan.withLock { $0 = true } }
        try await eventually { laterRan.withLock { $0 } }
        #expect(!ran.withLock { $0 })
    }

    @Test("cancelling a timer that has run reports that it ran")
    func cancelAfterRunReportsFalse() {
        let timer = wheel.schedule(at: .now - .seconds(1)) {}
        #expect(!timer.cancel())
    }

    @Test("no alarm is set once no timer is pending, even when the cancelled ones were due much later")
    func alarmIsDroppedWhenNothingIsPending() {
        let timers = (0..<1000).map { _ in wheel.schedule(at: .now + .seconds(90)) {} }
        #expect(wheel.isArmed)
        for timer in timers { timer.cancel() }
        #expect(!wheel.isArmed)
    }

    @Test("a timer due before the alarm still runs")
    func earlierTimerRuns() async throws {
        let later = wheel.schedule(at: .now + .seconds(60)) {}
        let deadline = ContinuousClock.now + .milliseconds(30)
        let ranAt = Mutex<ContinuousClock.Instant?>(nil)
        _ = wheel.schedule(at: deadline) { ranAt.withLock { $0 = .now } }
        try await eventually { ranAt.withLock { $0 } != nil }
        #expect(try #require(ranAt.withLock { $0 }) >= deadline)
        #expect(wheel.isArmed)
        later.cancel()
    }

    @Test("the wheel wakes once for a timer many ticks away, not on every tick")
    func wakesOnlyWhenATimerIsDue() async throws {
        let ran = Mutex(false)
        _ = wheel.schedule(at: .now + .milliseconds(200)) { ran.withLock { $0 = true } }
        try await eventually { ran.withLock { $0 } }
        #expect(wheel.wakeUps == 1)
        #expect(!wheel.isArmed)
    }

    @Test("cancelled timers do not wake the wheel")
    func cancelledTimersDoNotWake() async throws {
        let ran = Mutex(false)
        let start = ContinuousClock.now
        // The first timer is a second away, so the cancels come long before its alarm could ring, however busy the
        // machine; an alarm that rings late still finds nothing else to run.
        _ = wheel.schedule(at: start + .seconds(1)) { ran.withLock { $0 = true } }
        let cancelled = (1...5).map { wheel.schedule(at: start + .seconds(1) + .milliseconds(100 * $0)) {} }
        for timer in cancelled { timer.cancel() }
        try await eventually { ran.withLock { $0 } }
        // Only the first timer set an alarm; once it has run, the cancelled ones behind it set none.
        #expect(wheel.wakeUps == 1)
        #expect(!wheel.isArmed)
    }

    @Test("a sleep ends when its deadline passes")
    func sleepEnds() async throws {
        let deadline = ContinuousClock.now + .milliseconds(30)
        try await wheel.sleep(until: deadline)
        #expect(ContinuousClock.now >= deadline)
    }

    @Test("cancelling a sleeping task throws CancellationError at once and leaves no timer")
    func cancelledSleepThrows() async throws {
        let wheel = self.wheel
        let sleeper = Task { try await wheel.sleep(until: .now + .seconds(120)) }
        try await eventually { wheel.pendingTimers == 1 }
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(wheel.pendingTimers == 0)
    }
}
