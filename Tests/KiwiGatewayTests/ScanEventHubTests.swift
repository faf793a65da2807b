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
        #expect(await hub.register(id, for: .everyState).listen() == false)
        #expect(routing.listens(to: id) == 0)
    }

    @Test("a watch on a scan another gateway started asks for its news once, however often it listens")
    func startedElsewhereAsksOnce() async {
        let routing = CountingScanNewsRouting()
        hub.route(with: routing)
        let registration = hub.register(id, for: .everyState)
        #expect(await registration.listen())
        #expect(await registration.listen() == false)
        #expect(routing.listens(to: id) == 1)
    }

    @Test("a watch that asked for a scan's news gives it up when released")
    func releasedWatchGivesUpNews() async {
        let routing = CountingScanNewsRouting()
        hub.route(with: routing)
        var registration: ScanWatchRegistration? = hub.register(id, for: .everyState)
        _ = await registration?.listen()
        #expect(routing.stops(of: id) == 0)
        registration = nil
        #expect(routing.stops(of: id) == 1)
    }

    @Test("a scan started here is watched as another gateway's once its end has passed")
    func startedHereUntilItsEnd() async {
        let routing = CountingScanNewsRouting()
        hub.route(with: routing)
        hub.started(id, until: .now - .seconds(1))
        #expect(await hub.register(id, for: .outcome).listen())
        #expect(routing.listens(to: id) == 1)
    }

    @Test("a follower of an open scan another gateway started asks for its news once it has read the record")
    func followerOfOpenScanListens() async throws {
        let routing = CountingScanNewsRouting()
        hub.route(with: routing)
        let ledger = FakeScanLedger()
        let user = UUID()
        guard case .reserved(let scan) = try await ledger.reserve(newScan(newQuotaKey(), user: user), policy: QuotaPolicy(limit: 4)) else {
            Issue.record("the fake ledger did not reserve the scan")
            return
        }
        var follower = ScanFollower(scan.id, of: user, ledger: ledger, registration: hub.register(scan.id, for: .everyState), known: nil)
        guard case .record(let seen)? = try await follower.next(until: .now + .seconds(1)) else {
            Issue.record("the follower saw no record")
            return
        }
        #expect(seen.id == scan.id)
        #expect(routing.listens(to: scan.id) == 1)
    }

    @Test("a follower of a scan that is not there asks for no news")
    func followerOfMissingScanAsksNothing() async throws {
        let routing = CountingScanNewsRouting()
        hub.route(with: routing)
        var follower = ScanFollower(id, of: UUID(), ledger: FakeScanLedger(), registration: hub.register(id, for: .everyState), known: nil)
        guard case .gone? = try await follower.next(until: .now + .seconds(1)) else {
            Issue.record("the fake ledger has no such scan")
            return
        }
        #expect(routing.listens(to: id) == 0)
    }
}
