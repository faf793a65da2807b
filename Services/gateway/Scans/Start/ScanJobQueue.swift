import KiwiScans

/// The workers' job queue, as the gateway reaches it. Real: ``AMQPScanJobQueue`` (RabbitMQ's job queue); fake:
/// `FakeScanJobQueue`.
protocol ScanJobQueue: Sendable {
    /// Hands a scan's job to the workers, its photos sealed under `key` (the scan's): returns once the broker has
    /// taken it, or throws. The job, photo and all, is handed over, not kept while the worker and the model take their
    /// time; the worker records the outcome on the scan's record. Throws ``ScanNotSent`` when the job certainly never
    /// left this gateway, and ``ScanJobEncodingError`` when it could not be sealed to leave.
    func submit(_ job: consuming ScanJob, sealedWith key: PhotoKey) async throws
}

/// A scan job that certainly never reached the broker (no connection, or publishing blocked by a resource alarm), as
/// opposed to one whose fate is unknown (the connection dropped before the broker confirmed it).
struct ScanNotSent: Error, CustomStringConvertible {
    var reason: String
    var description: String { reason }
}
