import KiwiConcurrency
import Testing

@Suite("Retry schedules")
struct RetryScheduleTests {
    @Test("a store's outage is waited through with 100 ms doubling up to 2 s, where the waits stay")
    func storeOutageDoublesUpToTheCap() {
        var waits = RetrySchedule.storeOutage.waits()
        #expect(
            (0..<7).map { _ in waits.next() }
                == [.milliseconds(100), .milliseconds(200), .milliseconds(400), .milliseconds(800), .milliseconds(1600), .seconds(2), .seconds(2)]
        )
    }

    @Test("the waits handed out one at a time are the schedule's waits after 0, 1, 2, … retries, and are counted")
    func waitsFollowTheSchedule() {
        let schedule = RetrySchedule.doubling(from: .milliseconds(500), upTo: .seconds(8))
        var waits = schedule.waits()
        #expect((0..<7).map { _ in waits.next() } == (0..<7).map(schedule.wait(afterRetries:)))
        #expect(waits.retries == 7)
    }

    @Test("a constant schedule waits the same before every retry")
    func constantWaitsTheSame() {
        #expect((0..<4).map(RetrySchedule.constant(.milliseconds(100)).wait(afterRetries:)) == Array(repeating: .milliseconds(100), count: 4))
    }

    @Test("a schedule many retries in stays at its cap")
    func manyRetriesStayAtTheCap() {
        #expect(RetrySchedule.doubling(from: .milliseconds(500), upTo: .seconds(8)).wait(afterRetries: 10_000) == .seconds(8))
    }

    @Test("jitter multiplies each wait by its factor, after the cap")
    func jitterMultipliesEachWait() {
        let schedule = RetrySchedule.doubling(from: .milliseconds(500), upTo: .seconds(8), jitter: RetrySchedule.Jitter { 0.5 })
        #expect((0..<6).map(schedule.wait(afterRetries:)) == [0.25, 0.5, 1, 2, 4, 4].map { Duration.milliseconds($0 * 1000) })
    }

    @Test("a shortening jitter shortens a wait by less than its fraction and never lengthens it")
    func shorteningJitterBounds() {
        let schedule = RetrySchedule.doubling(from: .milliseconds(500), upTo: .seconds(8), jitter: .shortening(byUpTo: 0.25))
        for _ in 0..<200 {
            let wait = schedule.wait(afterRetries: 1)
            #expect(wait > .milliseconds(749) && wait <= .seconds(1))
        }
    }
}
