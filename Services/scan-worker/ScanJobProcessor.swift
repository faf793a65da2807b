import CoreMetrics
import Foundation
import KiwiConcurrency
import KiwiJPEG
import KiwiLogging
import KiwiMessaging
import KiwiScanJobs
import KiwiTracing
import Logging
import ServiceLifecycle
import Tracing

/// Takes scan jobs off the queue and answers each on its gateway's reply queue (DESIGN.md §3).
///
/// Every delivery runs as its own task, so up to the consumer's prefetch (`WORKER_CONCURRENCY`) jobs are in
/// flight at once. A job is acknowledged only once its reply is confirmed by the broker; a worker that dies
/// before that leaves the job to be redelivered to another one. On graceful shutdown it stops taking jobs,
/// finishes the ones in flight (each bounded by its own deadline), and returns.
final class ScanJobProcessor: Service, Sendable {
    /// Time kept back from a job's deadline for the reply to travel to the gateway before it stops waiting.
    static let replyAllowance = Duration.milliseconds(250)
    /// The furthest deadline a job may have (`SCAN_TIMEOUT_SECONDS` is at most 600).
    static let longestDeadline: TimeInterval = 3600

    private let consumer: AMQPConsumer
    private let publisher: AMQPPublisher
    private let analyzer: ScanAnalyzer
    /// The most jobs processed at once (`WORKER_CONCURRENCY`, also the consumer's prefetch).
    private let concurrency: Int
    private let metrics: WorkerMetrics
    private let logger: Logger

    init(consumer: AMQPConsumer, publisher: AMQPPublisher, analyzer: ScanAnalyzer, concurrency: Int, metrics: WorkerMetrics, logger: Logger) {
        self.consumer = consumer
        self.concurrency = concurrency
        self.publisher = publisher
        self.analyzer = analyzer
        self.metrics = metrics
        self.logger = logger
    }

    func run() async {
        await withTaskGroup(of: Void.self) { group in
            await withGracefulShutdownHandler {
                var running = 0
                for await delivery in consumer.deliveries {
                    // The prefetch bounds the jobs of one connection. After a reconnect the jobs of the old one may
                    // still be running (the broker has requeued them), so the limit is kept here as well.
                    if running == concurrency {
                        await group.next()
                        running -= 1
                    }
                    group.addTask { await self.process(delivery) }
                    running += 1
                }
            } onGracefulShutdown: {
                self.logger.info("no longer taking scan jobs; finishing the ones in flight")
                self.consumer.stopConsuming()
            }
        }
    }

    /// Answers one delivery in a span that continues the gateway's trace (the job's `traceparent` header).
    func process(_ delivery: AMQPDelivery) async {
        let gateway = ServiceContext.continuing(delivery.message.properties.headers, using: MessageHeadersExtractor())
        await withSpan("process scan job", context: gateway, ofKind: .consumer) { span in
            span.attributes["messaging.system"] = "rabbitmq"
            span.attributes["messaging.message.conversation_id"] = delivery.message.properties.correlationID
            await process(delivery, span: span)
        }
    }

    private func process(_ delivery: AMQPDelivery, span: any Span) async {
        let started = ContinuousClock.now
        metrics.jobsInFlight.increment()
        defer { metrics.jobsInFlight.decrement() }
        var logger = self.logger
        logger[metadataKey: "jobId"] = delivery.message.properties.correlationID.map { .string($0) }
        // Counted by the consumer's connection as kiwi_amqp_redeliveries_total; the answer may already have been sent.
        if delivery.redelivered { logger.debug("processing a redelivered job") }
        var job: ScanJob
        do {
            job = try ScanJob(message: delivery.message)
            // The job holds the photo now; the delivery is kept only to answer and acknowledge.
            delivery.discardBody()
        } catch {
            logger.error("rejecting a message that is not a scan job to the dead-letter queue", metadata: ["reason": "\(error)"])
            await settle("reject", logger: logger) { try await delivery.reject() }
            metrics.jobEnded("rejected", startedAt: started)
            span.attributes["kiwi.scan.outcome"] = "rejected"
            return
        }
        logger[metadataKey: "requestId"] = job.requestID.map { .string($0) }
        logger[metadataKey: "user"] = .string(LogRedaction.userKey(job.userKey))
        // A deadline further away than any scan timeout is a broken header; it must not keep a job forever.
        let timeLeft = min(job.deadline.timeIntervalSinceNow, Self.longestDeadline)
        guard timeLeft > 0 else {
            logger.info("dropping a job whose deadline has passed", metadata: ["lateMs": "\(Int(-timeLeft * 1000))"])
            await settle("ack", logger: logger) { try await delivery.ack() }
            metrics.jobEnded("expired", startedAt: started)
            span.attributes["kiwi.scan.outcome"] = "expired"
            return
        }
        let deadline = started + .milliseconds(timeLeft * 1000)

        let photoSize = job.image.count
        let (result, analysis) = await answer(Self.takePhoto(from: &job), for: job, deadline: deadline - Self.replyAllowance, logger: logger)
        guard !Task.isCancelled else { return }  // shut down hard: the broker requeues the unacknowledged job
        // Reported only when the model answered at all, so a failed call is not mistaken for an instant one.
        let modelTime = analysis.flatMap { $0.processingTime > .zero ? $0.processingTime : nil }
        await reply(result, modelTime: modelTime, to: delivery, until: deadline, logger: logger)
        await settle("ack", logger: logger) { try await delivery.ack() }
        metrics.jobEnded(result.outcome, startedAt: started)
        span.attributes["kiwi.scan.outcome"] = result.outcome

        var metadata: Logger.Metadata = [
            "outcome": .string(result.outcome), "latencyMs": "\((ContinuousClock.now - started).milliseconds)", "bytes": "\(photoSize)",
        ]
        if let analysis {
            metadata["attempts"] = "\(analysis.attempts)"
            metadata["promptTokens"] = "\(analysis.promptTokens)"
            metadata["completionTokens"] = "\(analysis.completionTokens)"
            metadata["llmMs"] = "\(analysis.processingTime.milliseconds)"
            metrics.tokensSpent(prompt: analysis.promptTokens, completion: analysis.completionTokens, outcome: result.outcome)
        }
        logger.info("scan job answered", metadata: metadata)
    }

    /// Publishes the result, retrying while the broker is unreachable or blocked until the gateway stops waiting:
    /// a finished answer is worth more than a requeued job that would call OpenAI again. Past the deadline the
    /// result is dropped: the gateway has already answered 504.
    private func reply(
        _ result: ScanJobResult,
        modelTime: Duration?,
        to delivery: AMQPDelivery,
        until deadline: ContinuousClock.Instant,
        logger: Logger
    ) async {
        var wait = Duration.milliseconds(100)
        while true {
            do {
                try await publisher.reply(to: delivery.message, with: result.message(modelTime: modelTime))
                return
            } catch AMQPError.unroutable {
                logger.info("the gateway that asked is gone; nobody to answer")
                return
            } catch {
                guard ContinuousClock.now + wait < deadline, !Task.isCancelled else {
                    logger.warning("could not publish the result before the deadline; dropping it", metadata: ["error": "\(error)"])
                    return
                }
                logger.warning("could not publish the result; retrying", metadata: ["error": "\(error)", "retryInMs": "\(wait.milliseconds)"])
                try? await Task.sleep(for: wait)
                wait = min(wait * 2, .seconds(2))
            }
        }
    }

    /// The job's photo, cleaned of metadata and base64-encoded for the model. The job gives its copy up, so that while
    /// the model thinks (seconds, for hundreds of jobs at once) the worker holds each photo once, encoded.
    private static func takePhoto(from job: inout ScanJob) -> Result<ScanPrompt.EncodedImage, JPEGFormatError> {
        let photo = job.image
        job.image = []
        return Result { () throws(JPEGFormatError) in ScanPrompt.EncodedImage(jpeg: try JPEGImage(parsing: photo).strippingMetadata()) }
    }

    /// Asks the model about the cleaned photo; the photo itself is never logged.
    private func answer(
        _ photo: Result<ScanPrompt.EncodedImage, JPEGFormatError>,
        for job: ScanJob,
        deadline: ContinuousClock.Instant,
        logger: Logger
    ) async -> (ScanJobResult, ScanAnalyzer.Analysis?) {
        let image: ScanPrompt.EncodedImage
        switch photo {
        case .success(let encoded): image = encoded
        case .failure(let error): return (.error(ScanFailure(.invalidImage, "The photo is not a valid JPEG: \(error.reason).")), nil)
        }
        let analysis = await analyzer.analyze(image: image, userKey: job.userKey, requestID: job.requestID, deadline: deadline, logger: logger)
        switch analysis.result {
        case .success(let response): return (.ok(response), analysis)
        case .failure(let failure): return (.error(failure), analysis)
        }
    }

    /// Settles a delivery. Failing to means its connection is gone, and then the broker has already requeued it.
    private func settle(_ action: String, logger: Logger, _ body: () async throws -> Void) async {
        do {
            try await body()
        } catch {
            logger.warning("could not \(action) the job; the broker will redeliver it", metadata: ["error": "\(error)"])
        }
    }
}

extension ScanJobResult {
    /// `ok` or the failure code, for logs and metrics.
    var outcome: String {
        switch self {
        case .ok: "ok"
        case .error(let failure): failure.code.rawValue
        }
    }
}
