import CoreMetrics
import KiwiServiceSupport
import Logging

/// Fails the scans a gateway stopped waiting for without recording their outcome: killed, or cut off from
/// PostgreSQL while it tried. Every replica runs it; `FOR UPDATE SKIP LOCKED` keeps them from doing the same work.
enum ScanSweeper {
    /// How long after its deadline an open scan is failed: its own gateway records the timeout at the deadline, and
    /// retries that for about a second.
    static let grace = Duration.seconds(30)
    /// How often each replica sweeps.
    static let interval = Duration.seconds(10)

    /// The periodic task that sweeps `ledger`.
    static func task(ledger: any ScanLedger, metrics: GatewayMetrics, logger: Logger) -> PeriodicTask {
        PeriodicTask("fail overdue scans", every: interval, logger: logger) {
            let failed = try await ledger.failOverdue(grace: grace)
            guard failed > 0 else { return }
            metrics.sweptScans.increment(by: failed)
            logger.warning("failed overdue scans; their gateway did not record an outcome", metadata: ["count": "\(failed)"])
        }
    }
}
