import CoreMetrics

/// `kiwi_scan_duration_seconds{outcome}`: every scan that reached a final state, from its creation to that state,
/// by outcome (`succeeded`, or the error code it failed with). Counted once per scan, by the replica whose
/// compare-and-set ended it, so summing over every gateway and worker counts each scan once: the scan SLOs of
/// docs/operations.md are computed from it.
enum ScanEndMetrics {
    /// The outcome of a scan that succeeded.
    static let succeeded = "succeeded"

    /// The SQL that a state change returns: the scan's age in seconds on the database's clock.
    static let ageColumn = "extract(epoch FROM now() - created_at)::float8"

    /// Counts one scan that ended with `outcome`, `seconds` after it was created.
    static func ended(_ outcome: String, afterSeconds seconds: Double) {
        Timer(label: "kiwi_scan_duration_seconds", dimensions: [("outcome", outcome)]).recordSeconds(max(0, seconds))
    }
}
