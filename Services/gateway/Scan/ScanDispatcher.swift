import Foundation
import KiwiConcurrency
import KiwiScanJobs

/// Sends a photo to the scan workers and waits for the answer (DESIGN.md §3): one job on the job queue, its reply
/// on this gateway instance's own reply queue, within the scan timeout.
struct ScanDispatcher: ScanBackend {
    let jobs: ScanJobSender
    let timeout: Duration

    func scan(_ jpeg: consuming [UInt8], userID: UUID, requestID: String) async throws -> (result: ScanJobResult, modelTime: Duration?) {
        let deadline = Date().addingTimeInterval(timeout.seconds)
        let userKey = ScanJob.userKey(forUserID: userID.uuidString.lowercased())
        return try await jobs.send(ScanJob(image: consume jpeg, deadline: deadline, requestID: requestID, userKey: userKey), timeout: timeout)
    }
}
