import Foundation
import KiwiModels
import KiwiScanStore
import KiwiScans

/// What reserving a scan came to.
enum ScanReservation: Sendable, Hashable {
    /// A new scan, `queued` and charged.
    case reserved(ScanRecord)
    /// The same `Idempotency-Key` with the same photo: that earlier scan, charged once.
    case replay(ScanRecord)
    /// The same `Idempotency-Key` for another scan: other photos, or another refinement.
    case keyReused
    /// An allowance of the day is spent.
    case refused(QuotaPolicy.Refusal)
    /// A refinement's parent is not a scan of the user (or is gone).
    case noParent
    /// A refinement's parent is open, failed, or a dish scan.
    case notRefinable
}

/// What `DELETE /v1/scans/{id}` came to.
enum ScanDeletion: Sendable, Hashable {
    /// A scan no worker had started is gone, and its charge given back.
    case cancelled
    /// A final scan's record and stored result are gone; a success stays charged for its day.
    case deleted
    /// A worker is asking the model: the scan can be neither cancelled nor deleted until it ends.
    case running
    /// There is no such scan of the user.
    case notFound
}

/// One page of a user's scans, newest first.
struct ScanPage: Sendable {
    var scans: [ScanRecord]
    /// Where the next page starts; nil on the last page.
    var next: PageCursor?
}

/// The scan ledger (docs/architecture.md, "4. The quota strategy"): one record per scan, the one source of a person's
/// daily usage. Real: ``PostgresScanLedger`` (the `scans` table); fake: `FakeScanLedger`.
///
/// Every state change is a compare-and-set on the state, so a refund (a scan becoming `failed`) happens at most once,
/// and nothing moves a scan out of a final state. The real ledger makes its changes through ``ScanTransitionStore``, the
/// same compare-and-sets by which the scan worker makes the others (`running`, its outcome).
protocol ScanLedger: Sendable {
    /// What counts against the allowances of the person with `quotaKey` on `day`: their scans that are not
    /// `failed` and the charges kept from before the ledger and from deleted accounts, the tokens their scans spent,
    /// and what everyone's scans cost.
    func usage(of quotaKey: Data, on day: String) async throws -> DailyUsage
    /// Reserves `scan` if `policy` allows another on its day, atomically for the person; or finds the earlier scan
    /// of the same idempotency key. A refinement is priced with its chain locked: free while fewer than
    /// ``QuotaPolicy/freeRefinements`` of the chain's refinements are free and not `failed`, else counted as a scan.
    func reserve(_ scan: QueuedScan, policy: QuotaPolicy) async throws -> ScanReservation
    /// Fails an open scan, which gives its charge back. False when it was no longer open.
    func fail(_ id: UUID, code: ScanFailure.Code) async throws -> Bool
    /// Fails, like ``fail(_:code:)``, a scan still `queued` whose job certainly never reached the workers
    /// (``ScanNotSent``), and frees its idempotency key: the client's retry with the same key starts the scan afresh.
    /// False when it was no longer queued.
    func release(_ id: UUID, code: ScanFailure.Code) async throws -> Bool
    /// The scan `id` of user `userID`, with its partials after the first `seen` only (a reader that has those need not
    /// read them again); nil for another user's, or none.
    func scan(_ id: UUID, of userID: UUID, partialsAfter seen: Int) async throws -> ScanRecord?
    /// The scan user `userID` started with idempotency key `key`; nil when none holds it.
    func scan(idempotencyKey key: String, of userID: UUID) async throws -> ScanRecord?
    /// A page of at most `limit` of the user's scans of `modes`, newest first, starting after `cursor`.
    func scans(of userID: UUID, modes: [ScanMode], after cursor: PageCursor?, limit: Int) async throws -> ScanPage
    /// Makes `correction` to food line `lineID` of the receipt of user `userID`'s succeeded scan `id`, in one step, and
    /// answers the scan as it is then; nil when the user has no such scan, or its receipt no such food line.
    func correct(_ correction: ReceiptLineCorrection, ofLine lineID: UUID, inScan id: UUID, of userID: UUID) async throws -> ScanRecord?
    /// Cancels a scan no worker has started, or deletes a final one (``ScanDeletion``).
    func delete(_ id: UUID, of userID: UUID, quotaKey: Data) async throws -> ScanDeletion
    /// Fails, with `scan_timeout`, open scans whose deadline passed more than `grace` ago: their gateway and worker
    /// are gone. Returns their ids.
    func failOverdue(grace: Duration) async throws -> [UUID]
    /// How many scans are `queued` and how many `running`, for the open-scans gauge. Final scans are not counted:
    /// they are most of the table, and counting them would read all of it.
    func countOpenByState() async throws -> [ScanState: Int]
    /// When the oldest scan still `queued` was created; nil when none is.
    func oldestQueued() async throws -> Date?
    /// Deletes the user's scans. The day's charges stay with the person (`quotaKey`), so that deleting the account
    /// and signing up again does not reset the allowance.
    func deleteScans(of userID: UUID, quotaKey: Data, today: String) async throws
    /// Clears results older than `retention` and deletes scans older than it whose day has ended, and charges of
    /// days before `today`. Returns how many scans were deleted.
    func purge(olderThan retention: Duration, today: String) async throws -> Int
}

extension ScanLedger {
    /// The scan `id` of user `userID`, with all its partials; nil for another user's, or none.
    func scan(_ id: UUID, of userID: UUID) async throws -> ScanRecord? {
        try await scan(id, of: userID, partialsAfter: 0)
    }
}
