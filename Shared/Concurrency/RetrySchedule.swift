/// The waits between tries of something that may work a moment later: a store out of reach for a while, a model
/// that is overloaded. Each wait is the schedule's base wait for that retry, multiplied by its ``Jitter``.
public struct RetrySchedule: Sendable {
    /// A factor each wait is multiplied by, so that many callers that failed together do not try again together.
    public struct Jitter: Sendable {
        /// Nil for none: a wait multiplied by 1.0 could be rounded.
        let factor: (@Sendable () -> Double)?

        /// Each wait multiplied by what `factor` returns.
        public init(factor: @escaping @Sendable () -> Double) {
            self.factor = factor
        }

        private init() {
            self.factor = nil
        }

        /// Waits exactly as scheduled.
        public static let none = Jitter()

        /// Each wait shortened by a random fraction below `fraction` (0.25: a factor in 0.75…1), never lengthened,
        /// so a jittered wait still fits wherever the scheduled one does.
        public static func shortening(byUpTo fraction: Double) -> Jitter {
            Jitter { 1 - fraction * Double.random(in: 0..<1) }
        }
    }

    private let first: Duration
    private let cap: Duration
    private let jitter: Jitter

    /// `first` before the first retry, doubling before each retry after it up to `cap`, where it stays.
    public static func doubling(from first: Duration, upTo cap: Duration, jitter: Jitter = .none) -> RetrySchedule {
        RetrySchedule(first: first, cap: cap, jitter: jitter)
    }

    /// `wait` before every retry.
    public static func constant(_ wait: Duration) -> RetrySchedule {
        RetrySchedule(first: wait, cap: wait, jitter: .none)
    }

    /// 100 ms doubling to 2 s, for a store out of reach: its usual blip is over within the first waits, so it costs
    /// little, and the end of a restart or failover is noticed within 2 s without hammering the store meanwhile.
    public static let storeOutage = doubling(from: .milliseconds(100), upTo: .seconds(2))

    /// The wait before retry number `retries + 1`, that is after `retries` retries have been made.
    public func wait(afterRetries retries: Int) -> Duration {
        var wait = first
        for _ in 0..<max(0, retries) where wait < cap {
            wait *= 2
        }
        guard let factor = jitter.factor else { return min(wait, cap) }
        return min(wait, cap) * factor()
    }

    /// The schedule's waits one at a time, for a loop that waits in its own way (on a watch that can wake early).
    public func waits() -> Waits {
        Waits(schedule: self)
    }

    /// A schedule's waits in turn.
    public struct Waits: Sendable {
        private let schedule: RetrySchedule
        /// Waits handed out so far: the retries made, or about to be.
        public private(set) var retries = 0

        fileprivate init(schedule: RetrySchedule) {
            self.schedule = schedule
        }

        /// The wait before the next retry; each call moves on to the one after it.
        public mutating func next() -> Duration {
            defer { retries += 1 }
            return schedule.wait(afterRetries: retries)
        }
    }
}

/// `operation`'s result, tried again after each of `schedule`'s waits while it throws an error `isRetryable` accepts.
/// The first try is made at once. A wait that would end at or past `deadline` is not waited: the last error is
/// thrown at once, as it is when `isRetryable` refuses it or the task is cancelled (a wait in progress ends at once).
/// `onRetry` sees each error that will be retried, and the wait before the retry. Runs in the caller's isolation, so
/// the closures may use its state.
public func retrying<Value>(
    _ schedule: RetrySchedule,
    isolation: isolated (any Actor)? = #isolation,
    until deadline: ContinuousClock.Instant,
    isRetryable: (any Error) -> Bool = { _ in true },
    onRetry: (any Error, Duration) -> Void = { _, _ in },
    operation: () async throws -> Value
) async throws -> Value {
    var waits = schedule.waits()
    while true {
        do {
            return try await operation()
        } catch let failure {
            let wait = waits.next()
            guard isRetryable(failure), ContinuousClock.now + wait < deadline, !Task.isCancelled else { throw failure }
            onRetry(failure, wait)
            do {
                try await sleep(for: wait)
            } catch {
                throw failure
            }
        }
    }
}
