import KiwiScanMessages
import KiwiScans

/// News that a scan changed state, sent by a gateway for every gateway replica (this one too): whoever there waits for
/// the scan reads it again. Real: ``ScanEventAnnouncer`` (the scan news exchange on RabbitMQ); fake: `FakeScanAnnouncer`.
protocol ScanAnnouncer: Sendable {
    /// Tells every replica of `event`. Best effort: a replica that misses it reads the scan again on its own
    /// (``ScanCoordinator/recheckInterval``).
    func announce(_ event: ScanEvent) async
}

extension ScanEventAnnouncer: ScanAnnouncer {
    func announce(_ event: ScanEvent) async {
        await announce(event, startedBy: nil)
    }
}
