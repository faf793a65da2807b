import Foundation
import KiwiModels
import KiwiScans
import KiwiServiceSupport

/// One scan as the ledger keeps it: never the photo, only its SHA-256.
struct ScanRecord: Sendable, Hashable {
    let id: UUID
    let userID: UUID
    let state: ScanState
    /// Why a `failed` scan failed, and the sentence for the client the worker gave with it (may be empty).
    let errorCode: ScanFailure.Code?
    var errorMessage = ""
    let photoSHA256: Data
    let deadline: Date
    let createdAt: Date
    /// The validated answer of a `succeeded` scan, until the retention period clears it.
    var result: ScanResponse?
    /// The model's own time on the scan, once a worker asked it.
    var modelTime: Duration?
    /// For `llm_unavailable`: when the worker said trying again may help, in seconds.
    var retryAfterSeconds: Int?
    /// What a worker showed of the answer so far, in order (docs/architecture.md, "Streamed scans"): kept while the
    /// scan is open, none once it is final. A reader that had some read only those after them.
    var partials: [StoredPartial] = []
    /// How many partials the scan stored in all, kept after it ends: the final event's id is 3 + this.
    var partialCount = 0
    /// The scan a refinement refines; nil for a photo scan.
    var parentID: UUID?
}

extension ScanRecord {
    /// This record in another state; a final one keeps its partials' count, not the partials.
    init(copying record: ScanRecord, state: ScanState, errorCode: ScanFailure.Code?, result: ScanResponse? = nil) {
        self.init(
            id: record.id,
            userID: record.userID,
            state: state,
            errorCode: errorCode,
            photoSHA256: record.photoSHA256,
            deadline: record.deadline,
            createdAt: record.createdAt,
            result: result,
            partials: state.isOpen ? record.partials : [],
            partialCount: record.partialCount,
            parentID: record.parentID
        )
    }

    /// The instant of the deadline on this process's clock.
    var deadlineInstant: ContinuousClock.Instant { .now + .seconds(deadline.timeIntervalSinceNow) }

    /// Why a failed scan failed; nil for any other.
    var failure: ScanFailure? {
        state == .failed ? ScanFailure(errorCode ?? .llmUnavailable, errorMessage, retryAfterSeconds: retryAfterSeconds) : nil
    }

    /// The outcome of a final scan; nil while it is open. A success whose result the retention period cleared reads
    /// as a failure to read recipes, since there is nothing to show.
    var outcome: ScanOutcome? {
        switch state {
        case .queued, .running: nil
        case .succeeded: result.map { .ok($0) } ?? .error(ScanFailure(.invalidModelResponse, ""))
        case .failed: failure.map { .error($0) }
        }
    }
}

// MARK: - The scan as the API shows it

extension ScanRecord {
    /// The path of the scan's resource.
    var location: String { "/v1/scans/\(id.uuidString.lowercased())" }

    /// The scan as the API shows it.
    var resource: ScanResource {
        ScanResource(
            id: id,
            status: state.rawValue,
            createdAt: createdAt,
            parentId: parentID,
            result: state == .succeeded ? result : nil,
            error: failure.map { ScanAPIErrors.apiError(for: $0).body }
        )
    }
}
