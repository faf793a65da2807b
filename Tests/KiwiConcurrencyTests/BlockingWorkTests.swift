import Foundation
import KiwiConcurrency
import Testing

@Suite("Blocking work on a thread of its own", .timeLimit(.minutes(1)))
struct BlockingWorkTests {
    struct Failure: Error {}

    @Test("the work's result is returned")
    func returnsTheResult() async throws {
        #expect(try await blockingWork(named: "test") { 6 * 7 } == 42)
    }

    @Test("the work's error is thrown")
    func throwsTheError() async {
        await #expect(throws: Failure.self) { try await blockingWork(named: "test") { () throws -> Int in throw Failure() } }
    }

    @Test("a cancelled task stops waiting at once, while the work it waited for runs on")
    func cancelledWaitEndsAtOnce() async throws {
        let (started, release, finished) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        let waiting = Task {
            try await blockingWork(named: "test") {
                started.signal()
                release.wait()
                finished.signal()
            }
        }
        while started.wait(timeout: .now()) != .success { try await sleep(for: .milliseconds(5)) }
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
        release.signal()
        #expect(finished.wait(timeout: .now() + 10) == .success)
    }
}
