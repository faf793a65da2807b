import Dispatch
import KiwiConcurrency
import Testing

@Suite("Deadlines")
struct DeadlineTests {
    /// Thirty seconds of work that ignores cancellation, as a slow network call can.
    @Sendable func stubbornWork() async -> Int {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().asyncAfter(deadline: .now() + 30) { continuation.resume(returning: 1) }
        }
    }

    @Test("an operation that finishes in time returns its result")
    func finishesInTime() async throws {
        #expect(try await withDeadline(.now + .seconds(5)) { 42 } == 42)
    }

    @Test("at the deadline the caller gets DeadlineExceededError at once, even from work that ignores cancellation")
    func deadlineDoesNotWaitForStubbornWork() async throws {
        let started = ContinuousClock.now
        await #expect(throws: DeadlineExceededError.self) { try await withDeadline(.now + .milliseconds(100), stubbornWork) }
        #expect(ContinuousClock.now - started < .seconds(10))  // far from the 30 s the work takes, with room for a loaded machine
    }

    @Test("an error from the operation reaches the caller")
    func operationErrorsPropagate() async {
        struct Failure: Error {}
        await #expect(throws: Failure.self) { try await withDeadline(.now + .seconds(5)) { throw Failure() } }
    }

    @Test("cancelling the caller ends the wait with CancellationError")
    func callerCancellation() async {
        let task = Task { try await withDeadline(.now + .seconds(60), stubbornWork) }
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
    }
}
