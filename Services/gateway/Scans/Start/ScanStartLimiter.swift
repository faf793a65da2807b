import Synchronization

/// Bounds how many scans one gateway starts at once: from the quota check through the upload and the reservation to
/// the job's publish. Each start holds up to 8 MiB of photos (about twice that while they are read), and the quota
/// check stops only users with no scans left: without a bound, many simultaneous uploads could exhaust the gateway's
/// memory, and on a saturated machine starts would queue for PostgreSQL until their statements time out, having done
/// most of their work for nothing. Beyond the bound a scan is refused at once (503 with `Retry-After`), before its
/// quota is read or its body is, so a client retries later instead of holding a connection.
final class ScanStartLimiter: Sendable {
    private let inFlight = Mutex(0)
    let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// Runs `body` if a slot is free; returns nil at once when none is.
    func withSlot<Result: Sendable>(_ body: () async throws -> Result) async rethrows -> Result? {
        let admitted = inFlight.withLock { count in
            guard count < capacity else { return false }
            count += 1
            return true
        }
        guard admitted else { return nil }
        defer { inFlight.withLock { $0 -= 1 } }
        return try await body()
    }
}
