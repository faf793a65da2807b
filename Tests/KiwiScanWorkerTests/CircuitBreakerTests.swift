import Synchronization
import Testing

@testable import KiwiScanWorker

@Suite("Circuit breaker")
struct CircuitBreakerTests {
    let settings = CircuitBreaker.Settings(failureThreshold: 3, coolDown: .seconds(30))

    /// A breaker its threshold of failures opened, and when they happened.
    func openedBreaker() -> (CircuitBreaker, opened: ContinuousClock.Instant) {
        let breaker = CircuitBreaker(settings: settings)
        let opened = ContinuousClock.now
        for _ in 1...3 { breaker.recordFailure(at: opened) }
        return (breaker, opened)
    }

    @Test("it opens after the threshold of failures in a row, and a success in between starts the count again")
    func opensAfterFailuresInARow() {
        let breaker = CircuitBreaker(settings: settings)
        breaker.recordFailure()
        breaker.recordFailure()
        breaker.recordSuccess()
        breaker.recordFailure()
        breaker.recordFailure()
        #expect(breaker.state == .closed)
        #expect(breaker.permission() == .allowed)
        breaker.recordFailure()
        #expect(breaker.state == .open)
    }

    @Test("while open it refuses every call with the cool-down left, without waiting")
    func refusesWhileOpen() {
        let (breaker, opened) = openedBreaker()
        #expect(breaker.permission(at: opened + .seconds(10)) == .refused(retryAfter: .seconds(20)))
    }

    @Test("after the cool-down one probe goes through and the others are refused; its success closes the breaker")
    func probeClosesIt() {
        let (breaker, opened) = openedBreaker()
        let later = opened + .seconds(31)
        #expect(breaker.permission(at: later) == .probe)
        #expect(breaker.state == .halfOpen)
        #expect(breaker.permission(at: later + .seconds(1)) == .refused(retryAfter: .seconds(29)))
        breaker.recordSuccess()
        #expect(breaker.state == .closed)
        #expect(breaker.permission(at: later + .seconds(2)) == .allowed)
    }

    @Test("a failed probe opens the breaker for another cool-down")
    func failedProbeReopens() {
        let (breaker, opened) = openedBreaker()
        let probe = opened + .seconds(31)
        #expect(breaker.permission(at: probe) == .probe)
        breaker.recordFailure(at: probe)
        #expect(breaker.state == .open)
        #expect(breaker.permission(at: probe + .seconds(29)) == .refused(retryAfter: .seconds(1)))
        #expect(breaker.permission(at: probe + .seconds(30)) == .probe)
    }

    @Test("a probe that never reports is given up after a cool-down, so the route is not shut for good")
    func lostProbe() {
        let (breaker, opened) = openedBreaker()
        #expect(breaker.permission(at: opened + .seconds(30)) == .probe)
        #expect(breaker.permission(at: opened + .seconds(60)) == .probe)
    }

    @Test("every change of state is reported once: closed → open → half-open → closed")
    func transitionsReported() {
        let seen = Mutex<[String]>([])
        let breaker = CircuitBreaker(settings: settings) { from, to in
            seen.withLock { $0.append("\(from.rawValue)→\(to.rawValue)") }
        }
        let opened = ContinuousClock.now
        for _ in 1...5 { breaker.recordFailure(at: opened) }
        _ = breaker.permission(at: opened + .seconds(30))
        _ = breaker.permission(at: opened + .seconds(31))
        breaker.recordSuccess()
        breaker.recordSuccess()
        #expect(seen.withLock { $0 } == ["closed→open", "open→half_open", "half_open→closed"])
    }
}
