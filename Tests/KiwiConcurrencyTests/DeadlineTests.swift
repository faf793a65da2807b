import Dispatch
import KiwiConcurrency
import Testing

@Suite("Deadlines")
struct DeadlineTests {
    /// Two minutes of work that ignores cancellation, as a slow network call can.
    @Sendable func stubbornWork() async -> Int {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().asyncAfter(deadline: .now() + 120) { continuation.resume(returning: 1) }
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
        // Far from the 120 s the work takes, with room for a machine whose two cores the whole suite shares at start-up.
        #expect(ContinuousClock.now - started < .seconds(60))
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
