import Synchronization

/// The operation did not finish before its deadline.
public struct DeadlineExceededError: Error, Hashable, Sendable {
    public init() {}
}

/// Runs `operation` and returns its result, unless `deadline` comes first: then the operation is cancelled and this
/// throws ``DeadlineExceededError`` at once. It does not wait for the cancelled operation to wind down: an HTTP call
/// that is slow to notice its cancellation must not make a timeout late. Cancelling the caller cancels both.
public func withDeadline<Result: Sendable>(
    _ deadline: ContinuousClock.Instant,
    _ operation: @escaping @Sendable () async throws -> Result
) async throws -> Result {
    let outcome = FirstOutcome<Result>()
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { continuation in
            outcome.install(continuation)
            let work = Task {
                do {
                    outcome.finish(.success(try await operation()))
                } catch {
                    outcome.finish(.failure(error))
                }
            }
            let timer = TimerWheel.shared.schedule(at: deadline) { outcome.finish(.failure(DeadlineExceededError())) }
            outcome.onFinish {
                work.cancel()
                timer.cancel()
            }
        }
    } onCancel: {
        outcome.finish(.failure(CancellationError()))
    }
}

/// Resumes a continuation with whichever outcome comes first, then runs the clean-up once.
private final class FirstOutcome<Value: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Value, any Error>?
        var early: Result<Value, any Error>?
        var cleanUp: (@Sendable () -> Void)?
        var finished = false
    }

    private let state = Mutex(State())

    func install(_ continuation: CheckedContinuation<Value, any Error>) {
        let early = state.withLock { state -> Result<Value, any Error>? in
            if let early = state.early { return early }
            state.continuation = continuation
            return nil
        }
        if let early { continuation.resume(with: early) }
    }

    func onFinish(_ cleanUp: @escaping @Sendable () -> Void) {
        let finished = state.withLock { state in
            if !state.finished { state.cleanUp = cleanUp }
            return state.finished
        }
        if finished { cleanUp() }
    }

    func finish(_ result: Result<Value, any Error>) {
        let (continuation, cleanUp) = state.withLock { state -> (CheckedContinuation<Value, any Error>?, (@Sendable () -> Void)?) in
            guard !state.finished else { return (nil, nil) }
            state.finished = true
            if state.continuation == nil { state.early = result }
            defer {
                state.continuation = nil
                state.cleanUp = nil
            }
            return (state.continuation, state.cleanUp)
        }
        continuation?.resume(with: result)
        cleanUp?()
    }
}
