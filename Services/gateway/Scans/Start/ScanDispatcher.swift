import Foundation
import KiwiMessaging
import KiwiScanJobs
import KiwiScans
import KiwiTracing
import ServiceContextModule
import Tracing

/// Sends scan jobs to the workers on the job queue (publisher-confirmed), and scan events to every gateway on the
/// scan event exchange (docs/architecture.md, "2. The scan data flow").
struct ScanDispatcher: ScanBackend {
    let publisher: AMQPPublisher
    let jobQueue: String
    let events: ScanEventAnnouncer

    /// In a producer span whose context travels in the job's headers: the worker's spans continue it.
    func submit(_ job: consuming ScanJob) async throws {
        let scanID = job.scanID.uuidString.lowercased()
        var message = job.message()
        _ = consume job
        try await withSpan("publish \(jobQueue)", ofKind: .producer) { [jobQueue] span in
            span.attributes["messaging.system"] = "rabbitmq"
            span.attributes["messaging.destination.name"] = jobQueue
            span.attributes["kiwi.scan.id"] = scanID
            ServiceContext.propagate(into: &message.properties.headers, using: MessageHeadersInjector())
            do {
                try await publisher.publish(message, routingKey: jobQueue)
            } catch let error as AMQPError where error == .notConnected || error == .blocked {
                throw ScanNotSent(reason: "\(error)")
            }
        }
    }

    func announce(_ event: ScanEvent) async {
        await events.announce(event)
    }
}
