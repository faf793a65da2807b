import Foundation
import Synchronization

/// The result of `work`, a long computation that cannot be cancelled, run on a thread of its own: off the few
/// threads Swift concurrency runs every task on, and waited for only while the task is not cancelled. A cancelled
/// task (a service asked to shut down) stops waiting at once; the work runs on and its result is dropped.
public func blockingWork<Value: Sendable>(named name: String, _ work: @escaping @Sendable () throws -> Value) async throws -> Value {
    let waiter = Waiter<Value>()
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { continuation in
            waiter.wait(continuation)
            // Cancelled before the continuation was stored: the handler below found nothing to resume.
            if Task.isCancelled { return waiter.resume(with: .failure(CancellationError())) }
            let thread = Thread { waiter.resume(with: Result { try work() }) }
            thread.name = name
            thread.start()
        }
    } onCancel: {
        waiter.resume(with: .failure(CancellationError()))
    }
}

/// The one continuation of ``blockingWork(named:_:)``, resumed by whichever comes first: the work's result or the
/// task's cancellation.
private final class Waiter<Value: Sendable>: Sendable {
    private let continuation = Mutex<CheckedContinuation<Value, any Error>?>(nil)

    func wait(_ continuation: CheckedContinuation<Value, any Error>) {
        self.continuation.withLock { $0 = continuation }
    }

    func resume(with result: Result<Value, any Error>) {
        continuation.withLock { continuation in
            defer { continuation = nil }
            return continuation
        }?.resume(with: result)
    }
}
