import Foundation
import KiwiScans
import Testing

@testable import KiwiGateway

/// What a follower of a scan hears from the hub, and how news that came together is kept.
@Suite("Gateway: scan event hub")
struct ScanEventHubTests {
    let hub = ScanEventHub()
    let id = UUID()

    @Test("news that a worker started the scan wakes its follower as still open")
    func runningIsStillOpen() async {
        let registration = hub.register(id)
        hub.wake(ScanEvent(scanID: id, state: .running))
        #expect(await registration.watch.next(within: .seconds(60)) == .stillOpen)
    }

    @Test("news of running and then of the outcome, both before the wait, wakes the follower as changed")
    func outcomeOutranksRunning() async {
        let registration = hub.register(id)
        hub.wake(ScanEvent(scanID: id, state: .running))
        hub.wake(ScanEvent(scanID: id, state: .succeeded))
        #expect(await registration.watch.next(within: .seconds(60)) == .changed)
    }

    @Test("news that may have been lost wakes every follower as changed")
    func wakeAllIsChanged() async {
        let registration = hub.register(id)
        hub.wakeAll()
        #expect(await registration.watch.next(within: .seconds(60)) == .changed)
    }

    @Test("a wait without news ends quiet at its timeout; another scan's news does not end it")
    func quietWithoutNews() async {
        let registration = hub.register(id)
        hub.wake(ScanEvent(scanID: UUID(), state: .failed))
        #expect(await registration.watch.next(within: .milliseconds(50)) == .quiet)
    }
}
