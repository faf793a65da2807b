import KiwiConcurrency
import Testing

@Suite("Sleeping", .timeLimit(.minutes(1)))
struct SleepTests {
    @Test("a sleep until an instant ends once the instant has passed")
    func sleepUntilEndsAfterTheInstant() async throws {
        let deadline = ContinuousClock.now + .milliseconds(30)
        try await sleep(until: deadline)
        #expect(ContinuousClock.now >= deadline)
    }

    @Test("a sleep for a duration ends once the duration has passed")
    func sleepForEndsAfterTheDuration() async throws {
        let start = ContinuousClock.now
        try await sleep(for: .milliseconds(30))
        #expect(ContinuousClock.now - start >= .milliseconds(30))
    }

    @Test("cancelling a sleeping task throws CancellationError without waiting for the sleep's end")
    func cancelledSleepThrows() async {
        let sleeper = Task { try await sleep(for: .seconds(3600)) }
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
    }
}
