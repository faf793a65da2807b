import Synchronization

/// Bounds how many scan uploads one gateway reads at once. Each holds up to 8 MiB of photos (about twice that while
/// it is read), and the quota check before the upload stops only users with no scans left: without a bound, many
/// simultaneous uploads could exhaust the gateway's memory. Beyond it a scan is refused at once (503) rather than
/// queued, so a client retries instead of holding a connection.
final class UploadLimiter: Sendable {
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
