import Foundation
import KiwiModels
import KiwiScanJobs

/// Where a scan is in its life. `queued` and `running` are open; `succeeded` and `failed` are final, and a scan never
/// leaves a final state. Every scan that is not `failed` counts against its person's day.
enum ScanState: String, Sendable, Hashable, Codable {
    case queued, running, succeeded, failed
}

/// One scan as the ledger keeps it: never the photo, only its SHA-256.
struct ScanRecord: Sendable, Hashable {
    let id: UUID
    let userID: UUID
    let state: ScanState
    /// Why a `failed` scan failed.
    let errorCode: ScanFailure.Code?
    let photoSHA256: Data
    let deadline: Date
    let createdAt: Date
    /// The validated answer of a `succeeded` scan, until the retention period clears it.
    let result: ScanResponse?
}

/// A scan about to be reserved.
struct NewScan: Sendable {
    var id = UUID()
    let userID: UUID
    /// The person's quota key (``AuthenticatedSession/quotaKey``), which the day's allowance is counted under.
    let quotaKey: Data
    /// The UTC day it counts against.
    let day: String
    /// The client's `Idempotency-Key`, if it sent one.
    let idempotencyKey: String?
    let photoSHA256: Data
    let deadline: Date
}

/// What reserving a scan came to.
enum ScanReservation: Sendable, Hashable {
    /// A new scan, `queued` and charged.
    case reserved(ScanRecord)
    /// The same `Idempotency-Key` with the same photo: that earlier scan, charged once.
    case replay(ScanRecord)
    /// The same `Idempotency-Key` with another photo.
    case keyReused
    /// The day's allowance is spent.
    case limitReached
}

/// The scan ledger (DESIGN.md §4 as changed by the durable-scans issue): one record per scan, the one source of a
/// person's daily usage. Real: ``PostgresScanLedger`` (the `scans` table); fake: `FakeScanLedger`.
///
/// Every state change is a compare-and-set on the state, so a refund (a scan becoming `failed`) happens at most once,
/// and nothing moves a scan out of a final state.
protocol ScanLedger: Sendable {
    /// Scans the person with `quotaKey` has used on `day`: their scans that are not `failed`, and the charges kept
    /// from before the ledger and from deleted accounts.
    func used(by quotaKey: Data, on day: String) async throws -> Int
    /// Reserves `scan` if fewer than `limit` were used on its day, atomically for the person; or finds the earlier
    /// scan of the same idempotency key.
    func reserve(_ scan: NewScan, limit: Int) async throws -> ScanReservation
    /// Records the answer of an open scan. False when the scan was no longer open (the sweeper failed it).
    func succeed(_ id: UUID, result: ScanResponse) async throws -> Bool
    /// Fails an open scan, which gives its charge back. False when it was no longer open.
    func fail(_ id: UUID, code: ScanFailure.Code) async throws -> Bool
    /// The scan `id` of user `userID`; nil for another user's.
    func scan(_ id: UUID, of userID: UUID) async throws -> ScanRecord?
    /// Fails, with `scan_timeout`, open scans whose deadline passed more than `grace` ago: their gateway is gone.
    /// Returns how many.
    func failOverdue(grace: Duration) async throws -> Int
    /// Deletes the user's scans. The day's charges stay with the person (`quotaKey`), so that deleting the account
    /// and signing up again does not reset the allowance.
    func deleteScans(of userID: UUID, quotaKey: Data, today: String) async throws
    /// Clears results older than `retention` and deletes scans older than it whose day has ended, and charges of
    /// days before `today`. Returns how many scans were deleted.
    func purge(olderThan retention: Duration, today: String) async throws -> Int
}
