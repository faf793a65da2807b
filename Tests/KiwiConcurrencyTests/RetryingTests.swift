import KiwiConcurrency
import KiwiTestSupport
import Synchronization
import Testing

@Suite("Retrying", .timeLimit(.minutes(1)))
struct RetryingTests {
    struct Failure: Error, Equatable {
        let number: Int
    }

    /// Waits too short to matter, doubling so that each retry's wait tells which retry it was.
    let tiny = RetrySchedule.doubling(from: .nanoseconds(1), upTo: .nanoseconds(4))

    @Test("a retryable failure is tried again after each of the schedule's waits, until a try succeeds")
    func retriesUntilSuccess() async throws {
        var tries = 0
        var waits: [Duration] = []
        let result = try await retrying(
            tiny,
            until: .now + .seconds(60),
            onRetry: { waits.append($1) },
            operation: {
                tries += 1
                if tries < 4 { throw Failure(number: tries) }
                return tries
            }
        )
        #expect(result == 4)
        #expect(waits == [.nanoseconds(1), .nanoseconds(2), .nanoseconds(4)])
    }

    @Test("a failure isRetryable refuses is thrown after one try")
    func refusedFailureIsThrown() async {
        var tries = 0
        await #expect(throws: Failure(number: 1)) {
            try await retrying(
                tiny,
                until: .now + .seconds(60),
                isRetryable: { _ in false },
                operation: {
                    tries += 1
                    throw Failure(number: tries)
                }
            )
        }
        #expect(tries == 1)
    }

    @Test("a wait that would end past the deadline is not waited: the last failure is thrown")
    func waitPastTheDeadlineGivesUp() async {
        var tries = 0
        var retried = false
        await #expect(throws: Failure(number: 1)) {
            try await retrying(
                .constant(.seconds(3600)),
                until: .now + .seconds(60),
                onRetry: { _, _ in retried = true },
                operation: {
                    tries += 1
                    throw Failure(number: tries)
                }
            )
        }
        #expect(tries == 1)
        #expect(!retried)
    }

    @Test("the first try is made even when the deadline has passed")
    func firstTryIgnoresTheDeadline() async throws {
        #expect(try await retrying(tiny, until: .now - .seconds(1)) { 42 } == 42)
    }

    @Test("cancelling the task during a wait throws the last failure")
    func cancellationDuringAWaitThrowsTheLastFailure() async throws {
        let waiting = Mutex(false)
        let retrier = Task {
            try await retrying(
                .constant(.seconds(3600)),
                until: .now + .seconds(7200),
                onRetry: { _, _ in waiting.withLock { $0 = true } },
                operation: { throw Failure(number: 1) }
            )
        }
        try await eventually { waiting.withLock { $0 } }
        retrier.cancel()
        await #expect(throws: Failure(number: 1)) { try await retrier.value }
    }
}
