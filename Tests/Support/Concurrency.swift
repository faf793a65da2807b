import Foundation
@_exported import KiwiConcurrency
import Synchronization
import Testing

/// A value that concurrent test tasks share.
public final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    public init(_ value: Value) {
        mutex = Mutex(value)
    }

    public func withLock<Result: Sendable>(_ body: (inout Value) -> Result) -> Result {
        mutex.withLock { body(&$0) }
    }
}

/// Runs blocking or CPU-heavy work (megabytes of test data, blocking socket calls) on a thread of its own, off Swift's
/// cooperative pool. On two cores the pool has two threads: work that holds one for seconds stalls every in-process
/// server of every test running meanwhile (the OpenAI stubs), and other tests' timings with them.
public func offThePool<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}

/// Waits until `condition` holds, checking `every` 20 ms (by default) for at most `timeout` (generous: the whole suite
/// shares two cores). A condition that costs more than a glance, such as scraping a service's metrics, is checked less
/// often, so as not to take CPU from the tests running beside it.
public func eventually(
    timeout: Duration = .seconds(30),
    every interval: Duration = .milliseconds(20),
    _ condition: () async throws -> Bool
) async throws {
    let deadline = ContinuousClock.now + timeout
    while try await !condition() {
        try #require(ContinuousClock.now < deadline, "condition not met within \(timeout)")
        try await Task.sleep(for: interval)
    }
}
