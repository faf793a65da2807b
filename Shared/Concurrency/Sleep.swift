/// Suspends for `duration` on the process's ``TimerWheel``. Throws `CancellationError` at once when the task is
/// cancelled, and leaves no timer behind: a cancelled `Task.sleep` keeps its timer until its deadline on Linux.
/// Ends up to one tick (10 ms) late.
public func sleep(for duration: Duration) async throws {
    try await TimerWheel.shared.sleep(until: .now + duration)
}

/// Suspends until `deadline` on the process's ``TimerWheel``, returning at once when it has passed. Throws
/// `CancellationError` at once when the task is cancelled, leaving no timer behind. Ends up to one tick (10 ms) late.
public func sleep(until deadline: ContinuousClock.Instant) async throws {
    try await TimerWheel.shared.sleep(until: deadline)
}
