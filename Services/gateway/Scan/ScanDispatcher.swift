import Foundation
import KiwiConcurrency
import KiwiMessaging
import KiwiScanJobs

/// Sends a photo to the scan workers and waits for the answer (DESIGN.md §3): one job on the job queue, its reply
/// on this gateway instance's own reply queue, within the scan timeout.
struct ScanDispatcher: Sendable {
    let requester: AMQPRequester
    let jobQueue: String
    let timeout: Duration

    /// The worker's result and how long the model spent on it, or a thrown `AMQPError` (`timedOut` when no answer
    /// came in time).
    func scan(_ jpeg: [UInt8], userID: UUID, requestID: String) async throws -> (result: ScanJobResult, modelTime: Duration?) {
        let deadline = Date().addingTimeInterval(timeout.seconds)
        let job = ScanJob(image: jpeg, deadline: deadline, requestID: requestID, userKey: ScanJob.userKey(forUserID: userID.uuidString.lowercased()))
        let reply = try await requester.request(job.message(), routingKey: jobQueue, timeout: timeout)
        return (try ScanJobResult(message: reply), ScanJobResult.modelTime(in: reply))
    }
}
