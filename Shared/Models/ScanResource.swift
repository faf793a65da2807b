import Foundation

/// A scan as the API shows it (`GET /v1/scans/{id}`, `POST /v1/scans`, and each server-sent event of a scan): its
/// state, and its answer or error once it has one.
public struct ScanResource: Codable, Hashable, Sendable {
    public var id: UUID
    /// `queued`, `running`, `succeeded` or `failed`.
    public var status: String
    public var createdAt: Date
    /// For a refinement (`POST /v1/scans/{id}/refinements`), the scan it refines; absent for a photo scan.
    public var parentId: UUID?
    /// A succeeded scan's answer, until its retention period (`SCAN_RESULT_TTL_HOURS`) clears it.
    public var result: ScanResponse?
    /// Why a failed scan failed, as `POST /v1/scan` answered it.
    public var error: ErrorBody?

    public init(id: UUID, status: String, createdAt: Date, parentId: UUID? = nil, result: ScanResponse? = nil, error: ErrorBody? = nil) {
        self.id = id
        self.status = status
        self.createdAt = createdAt
        self.parentId = parentId
        self.result = result
        self.error = error
    }
}

/// A page of the user's scans (`GET /v1/scans`), newest first.
public struct ScanList: Codable, Hashable, Sendable {
    public var scans: [ScanResource]
    /// Pass as `cursor` to get the next page; absent on the last page.
    public var nextCursor: String?

    public init(scans: [ScanResource], nextCursor: String? = nil) {
        self.scans = scans
        self.nextCursor = nextCursor
    }
}
