import KiwiConcurrency
import Testing

@Suite("Backoff")
struct BackoffTests {
    @Test("the waits start at 100 ms and double up to 2 s, where they stay")
    func doublesUpToTheCap() {
        var backoff = Backoff()
        let waits = (0..<7).map { _ in backoff.nextWait() }
        #expect(
            waits == [.milliseconds(100), .milliseconds(200), .milliseconds(400), .milliseconds(800), .milliseconds(1600), .seconds(2), .seconds(2)]
        )
    }
}
