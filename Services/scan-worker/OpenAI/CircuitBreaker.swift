import Synchronization

/// One model route's circuit breaker, in one worker: after ``Settings/failureThreshold`` failed calls in a row it
/// opens, and for ``Settings/coolDown`` every call skips the route at once; then one call goes through as a probe
/// (half-open): its success closes the breaker, its failure opens it for another cool-down.
final class CircuitBreaker: Sendable {
    enum State: String, Sendable {
        case closed
        case open
        case halfOpen = "half_open"

        /// `kiwi_llm_breaker_state`'s value: 0 closed, 1 half-open, 2 open.
        var gaugeValue: Double {
            switch self {
            case .closed: 0
            case .halfOpen: 1
            case .open: 2
            }
        }
    }

    struct Settings: Sendable, Hashable {
        /// Failed calls in a row that open the breaker (`LLM_BREAKER_FAILURES`).
        var failureThreshold = 5
        /// How long it stays open before a probe (`LLM_BREAKER_COOLDOWN_SECONDS`).
        var coolDown = Duration.seconds(30)
    }

    /// Whether a call may go to the route now.
    enum Permission: Sendable, Equatable {
        case allowed
        /// The one call of a half-open breaker: its result decides.
        case probe
        /// The route is skipped; it may be tried again after this long.
        case refused(retryAfter: Duration)
    }

    private struct Inner {
        var state = State.closed
        var failuresInARow = 0
        /// While open, until when; while half-open, when the probe went out.
        var since = ContinuousClock.now
    }

    let settings: Settings
    private let inner = Mutex(Inner())
    private let transitioned: @Sendable (_ from: State, _ to: State) -> Void

    /// - Parameter transitioned: Told of every change of state, outside the breaker's lock.
    init(settings: Settings, transitioned: @escaping @Sendable (_ from: State, _ to: State) -> Void = { _, _ in }) {
        self.settings = settings
        self.transitioned = transitioned
    }

    var state: State { inner.withLock { $0.state } }

    /// Asks to call the route at `now`. A probe that never reported (its scan was cancelled) is given up after a
    /// cool-down, so a lost probe cannot keep the route shut.
    func permission(at now: ContinuousClock.Instant = .now) -> Permission {
        let (permission, change) = inner.withLock { inner -> (Permission, (State, State)?) in
            guard inner.state != .closed else { return (.allowed, nil) }
            // Open: until the cool-down ends. Half-open: while the probe that went out may still report.
            let ends = inner.since + settings.coolDown
            guard now >= ends else { return (.refused(retryAfter: ends - now), nil) }
            let previous = inner.state
            (inner.state, inner.since) = (.halfOpen, now)
            return (.probe, previous == .halfOpen ? nil : (previous, .halfOpen))
        }
        if let change { transitioned(change.0, change.1) }
        return permission
    }

    /// A call to the route answered.
    func recordSuccess() {
        change { inner in
            inner.failuresInARow = 0
            inner.state = .closed
        }
    }

    /// A call to the route failed in a way that says the route is in trouble (see ``RetryingModelCall``).
    func recordFailure(at now: ContinuousClock.Instant = .now) {
        change { inner in
            inner.failuresInARow += 1
            if inner.state == .halfOpen || (inner.state == .closed && inner.failuresInARow >= settings.failureThreshold) {
                (inner.state, inner.since) = (.open, now)
            }
        }
    }

    private func change(_ body: (inout Inner) -> Void) {
        let (before, after) = inner.withLock { inner in
            let before = inner.state
            body(&inner)
            return (before, inner.state)
        }
        if before != after { transitioned(before, after) }
    }
}
