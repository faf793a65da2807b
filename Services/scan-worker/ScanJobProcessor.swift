import Foundation
import KiwiJPEG
import KiwiLogging
import KiwiMessaging
import KiwiScanJobs
import Logging
import ServiceLifecycle

/// Takes scan jobs off the queue and answers each on its gateway's reply queue (DESIGN.md §3).
///
/// Every delivery runs as its own task, so up to the consumer's prefetch (`WORKER_CONCURRENCY`) jobs are in
/// flight at once. A job is acknowledged only once its reply is confirmed by the broker; a worker that dies
/// before that leaves the job to be redelivered to another one. On graceful shutdown it stops taking jobs,
/// finishes the ones in flight (each bounded by its own deadline), and returns.
final class ScanJobProcessor: Service, Sendable {
    /// Time kept back from a job's deadline for the reply to travel to the gateway before it stops waiting.
    static let replyAllowance = Duration.milliseconds(250)

    private let consumer: AMQPConsumer
    private let publisher: AMQPPublisher
    private let analyzer: ScanAnalyzer
    private let logger: Logger

    init(consumer: AMQPConsumer, publisher: AMQPPublisher, analyzer: ScanAnalyzer, logger: Logger) {
        self.consumer = consumer
        self.publisher = publisher
        self.analyzer = analyzer
        self.logger = logger
    }

    func run() async {
        await withDiscardingTaskGroup { group in
            await withGracefulShutdownHandler {
                for await delivery in consumer.deliveries {
                    group.addTask { await self.process(delivery) }
                }
            } onGracefulShutdown: {
                self.logger.info("no longer taking scan jobs; finishing the ones in flight")
                self.consumer.stopConsuming()
            }
        }
    }

    func process(_ delivery: AMQPDelivery) async {
        let started = ContinuousClock.now
        var logger = self.logger
        logger[metadataKey: "jobId"] = delivery.message.properties.correlationID.map { .string($0) }
        let job: ScanJob
        do {
            job = try ScanJob(message: delivery.message)
        } catch {
            logger.error("rejecting a message that is not a scan job to the dead-letter queue", metadata: ["reason": "\(error)"])
            await settle("reject", logger: logger) { try await delivery.reject() }
            return
        }
        logger[metadataKey: "requestId"] = job.requestID.map { .string($0) }
        logger[metadataKey: "user"] = .string(LogRedaction.userKey(job.userKey))
        let timeLeft = job.deadline.timeIntervalSinceNow
        guard timeLeft > 0 else {
            logger.info("dropping a job whose deadline has passed", metadata: ["lateMs": "\(Int(-timeLeft * 1000))"])
            await settle("ack", logger: logger) { try await delivery.ack() }
            return
        }

        let (result, analysis) = await answer(job, deadline: started + .milliseconds(timeLeft * 1000) - Self.replyAllowance, logger: logger)
        guard !Task.isCancelled else { return }  // shut down hard: the broker requeues the unacknowledged job

        do {
            try await publisher.reply(to: delivery.message, with: result.message())
        } catch AMQPError.unroutable {
            logger.info("the gateway that asked is gone; nobody to answer")
        } catch {
            logger.warning("could not publish the result; returning the job to the queue", metadata: ["error": "\(error)"])
            await settle("nack", logger: logger) { try await delivery.nack(requeue: true) }
            return
        }
        await settle("ack", logger: logger) { try await delivery.ack() }

        var metadata: Logger.Metadata = [
            "outcome": .string(result.outcome), "latencyMs": "\((ContinuousClock.now - started).milliseconds)", "bytes": "\(job.image.count)",
        ]
        if let analysis {
            metadata["attempts"] = "\(analysis.attempts)"
            metadata["promptTokens"] = "\(analysis.promptTokens)"
            metadata["completionTokens"] = "\(analysis.completionTokens)"
            metadata["llmMs"] = "\(analysis.processingTime.milliseconds)"
        }
        logger.info("scan job answered", metadata: metadata)
    }

    /// Cleans the photo and asks the model; the photo itself is never logged.
    private func answer(_ job: ScanJob, deadline: ContinuousClock.Instant, logger: Logger) async -> (ScanJobResult, ScanAnalyzer.Analysis?) {
        let jpeg: [UInt8]
        do {
            jpeg = try JPEGImage(parsing: job.image).strippingMetadata()
        } catch {
            return (.error(ScanFailure(.invalidImage, "The photo is not a valid JPEG: \(error.reason).")), nil)
        }
        let analysis = await analyzer.analyze(jpeg: jpeg, userKey: job.userKey, deadline: deadline, logger: logger)
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
