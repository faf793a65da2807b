import Foundation
import KiwiScans
import Testing

@testable import KiwiGateway

/// Which followers of a scan the hub wakes, and how news that came together is kept.
@Suite("Gateway: scan event hub")
struct ScanEventHubTests {
    let hub = ScanEventHub()
    let id = UUID()

    @Test("news that a scan is still open wakes a follower of every state")
    func stillOpenWakesEveryState() async {
        let registration = hub.register(id, for: .everyState)
        hub.wake(ScanEvent(scanID: id, state: .running))
        #expect(await registration.watch.next(within: .seconds(60)))
    }

    @Test("news that a scan is still open does not wake a follower of its outcome")
    func stillOpenLeavesOutcomeAsleep() async {
        let registration = hub.register(id, for: .outcome)
        hub.wake(ScanEvent(scanID: id, state: .running))
        #expect(await registration.watch.next(within: .milliseconds(50)) == false)
    }

    @Test("news of the outcome wakes a follower of its outcome")
    func outcomeWakesOutcome() async {
        let registration = hub.register(id, for: .outcome)
        hub.wake(ScanEvent(scanID: id, state: .succeeded))
        #expect(await registration.watch.next(within: .seconds(60)))
    }

    @Test("news of running and then of the outcome, both before the wait, wakes the follower once")
    func newsTogetherWakesOnce() async {
        let registration = hub.register(id, for: .everyState)
        hub.wake(ScanEvent(scanID: id, state: .running))
        hub.wake(ScanEvent(scanID: id, state: .succeeded))
        #expect(await registration.watch.next(within: .seconds(60)))
        #expect(await registration.watch.next(within: .milliseconds(50)) == false)
    }

    @Test("news that may have been lost wakes every follower, of the outcome too")
    func wakeAllWakesOutcome() async {
        let registration = hub.register(id, for: .outcome)
        hub.wakeAll()
        #expect(await registration.watch.next(within: .seconds(60)))
    }

    @Test("a wait without news ends quiet at its timeout; another scan's news does not end it")
    func quietWithoutNews() async {
        let registration = hub.register(id, for: .everyState)
        hub.wake(ScanEvent(scanID: UUID(), state: .failed))
        #expect(await registration.watch.next(within: .milliseconds(50)) == false)
    }
}
