import CoreMetrics
import Foundation
import KiwiScanStore
import KiwiScans
import KiwiServiceSupport
import Logging

/// Fails the scans nobody finished: their worker and their gateway died, or lost PostgreSQL, before recording an
/// outcome, or no worker took the job before it expired. Every replica runs it; `FOR UPDATE SKIP LOCKED` keeps them
/// from doing the same work.
enum ScanSweeper {
    /// How long after its deadline an open scan is failed: until then its worker may still record the outcome.
    static let grace = ScanTransitionStore.sweepGrace
    /// How often each replica sweeps.
    static let interval = Duration.seconds(10)

    /// The periodic task that sweeps `ledger` and announces each scan it failed through `announcer`.
    static func task(ledger: any ScanLedger, announcer: any ScanAnnouncer, metrics: GatewayMetrics, logger: Logger) -> PeriodicTask {
        PeriodicTask("fail overdue scans", every: interval, logger: logger) {
            let failed: [UUID]
            do {
                failed = try await ledger.failOverdue(grace: grace)
                metrics.swept(true)
            } catch {
                if !(error is CancellationError) { metrics.swept(false) }
                throw error
            }
            guard !failed.isEmpty else { return }
            metrics.sweptScans.increment(by: failed.count)
            logger.warning("failed overdue scans; nobody recorded their outcome", metadata: ["count": "\(failed.count)"])
            for id in failed { await announcer.announce(ScanEvent(scanID: id, state: .failed)) }
        }
    }
}
