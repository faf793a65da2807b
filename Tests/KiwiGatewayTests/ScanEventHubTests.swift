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

    @Test("a watch on a scan started here asks for none of its news: the scan's job brings it here")
    func startedHereAsksNothing() async {
        let routing = CountingScanNewsRouting()
        hub.route(with: routing)
        hub.started(id, until: .now + .seconds(60))
        await hub.register(id, for: .everyState).listen()
        #expect(routing.listens(to: id) == 0)
    }

    @Test("a watch on a scan another gateway started asks for its news once, and gives it up when released")
    func startedElsewhereAsksWhileWatched() async {
        let routing = CountingScanNewsRouting()
        hub.route(with: routing)
        var registration: ScanWatchRegistration? = hub.register(id, for: .everyState)
        await registration?.listen()
        await registration?.listen()
        #expect((routing.listens(to: id), routing.stops(of: id)) == (1, 0))
        registration = nil
        #expect(routing.stops(of: id) == 1)
    }

    @Test("a scan started here is watched as another gateway's once its end has passed")
    func startedHereUntilItsEnd() async {
        let routing = CountingScanNewsRouting()
        hub.route(with: routing)
        hub.started(id, until: .now - .seconds(1))
        await hub.register(id, for: .outcome).listen()
        #expect(routing.listens(to: id) == 1)
    }

    @Test("a follower of a scan another gateway started asks for its news as it first reads the record")
    func followerListensAsItReads() async throws {
        let routing = CountingScanNewsRouting()
        hub.route(with: routing)
        var follower = ScanFollower(id, of: UUID(), ledger: FakeScanLedger(), registration: hub.register(id, for: .everyState), known: nil)
        #expect(routing.listens(to: id) == 0)
        guard case .gone? = try await follower.next(until: .now + .seconds(1)) else {
            Issue.record("the fake ledger has no such scan")
            return
        }
        #expect(routing.listens(to: id) == 1)
    }
}
