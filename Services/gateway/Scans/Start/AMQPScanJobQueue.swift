import Foundation
import KiwiMessaging
import KiwiScanMessages
import KiwiScans
import KiwiTracing
import ServiceContextModule
import Tracing

/// Sends scan jobs to the workers on RabbitMQ's job queue, publisher-confirmed (docs/architecture.md, "2. The scan data
/// flow").
struct AMQPScanJobQueue: ScanJobQueue {
    let publisher: AMQPPublisher
    /// The queue's name (`SCAN_JOB_QUEUE`).
    let queue: String
    /// This gateway's instance id, which every job names so that its scan's news comes back here (``ScanJob/gateway``).
    let gateway: String

    /// In a producer span whose context travels in the job's headers: the worker's spans continue it. Only the sealed
    /// photos and profile reach the broker; a job that cannot be sealed throws ``ScanJobEncodingError`` unsent.
    func submit(_ job: consuming ScanJob, sealedWith key: PhotoKey) async throws {
        let scanID = job.scanID.uuidString.lowercased()
        job.gateway = gateway
        var message = try job.message(sealingWith: key)
        try await withSpan("publish \(queue)", ofKind: .producer) { [queue] span in
            span.attributes["messaging.system"] = "rabbitmq"
            span.attributes["messaging.destination.name"] = queue
            span.attributes["kiwi.scan.id"] = scanID
            ServiceContext.propagate(into: &message.properties.headers, using: MessageHeadersInjector())
            do {
                try await publisher.publishJob(message, to: queue)
            } catch let error as AMQPError where error == .notConnected || error == .blocked || error == .nacked {
                throw ScanNotSent(reason: "\(error)")
            }
        }
    }
}
