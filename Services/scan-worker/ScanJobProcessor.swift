import CoreMetrics
import Foundation
import KiwiConcurrency
import KiwiJPEG
import KiwiLogging
import KiwiMessaging
import KiwiModels
import KiwiNutrition
import KiwiOpenAI
import KiwiScanJobs
import KiwiScans
import KiwiTracing
import Logging
import ServiceLifecycle
import Synchronization
import Tracing

/// Takes scan jobs off the queue and writes each one's outcome on its scan's record (docs/architecture.md,
/// "2. The scan data flow"): the scan is marked `running`, the model asked, and the answer (or the failure) recorded, each step
/// announced to the gateways (``ScanEventAnnouncer``). A job is acknowledged only once its outcome is recorded; a
/// worker that dies before that leaves the job to be redelivered to another one. A job whose scan is already final
/// (another worker answered it, the sweeper or its gateway failed it) or gone (cancelled, its account deleted) is
/// acknowledged without asking the model. The job's photos are opened with the key its scan's claim returns
/// (docs/architecture.md, "Photos at rest: crypto-shredding"); a final or gone scan has none.
///
/// Before taking a job it reads the nutrition table (``FoodTableLoader``): every recipe it shows gets its nutrition
/// per serving; without the table the worker does not start.
///
/// Every delivery runs as its own task, so up to the consumer's prefetch (`WORKER_CONCURRENCY`) jobs are in
/// flight at once, fewer while OpenAI's rate limit is near (``IntakeGovernor``). On graceful shutdown it stops taking jobs, finishes the ones in flight (each bounded by its own
/// deadline), and returns.
final class ScanJobProcessor: Service, Sendable {
    /// Time kept back from a job's deadline to record its outcome before the gateway stops waiting.
    static let recordAllowance = Duration.milliseconds(250)
    /// The furthest deadline a job may have (`SCAN_TIMEOUT_SECONDS` is at most 600).
    static let longestDeadline: TimeInterval = 3600

    private let consumer: AMQPConsumer
    private let scans: ScanTransitions
    private let events: ScanEventAnnouncer
    private let pipeline: ScanPipeline
    /// The most jobs processed at once: `WORKER_CONCURRENCY` (also the consumer's prefetch), or fewer ahead of
    /// OpenAI's rate limit.
    private let intake: IntakeGovernor
    private let metrics: WorkerMetrics
    private let foods: FoodTableLoader
    /// Set once the nutrition table is read, before the first job.
    private let nutrition = Mutex<NutritionEstimator?>(nil)
    private let logger: Logger

    init(
        consumer: AMQPConsumer,
        scans: ScanTransitions,
        events: ScanEventAnnouncer,
        pipeline: ScanPipeline,
        intake: IntakeGovernor,
        metrics: WorkerMetrics,
        foods: FoodTableLoader,
        logger: Logger
    ) {
        self.consumer = consumer
        self.scans = scans
        self.events = events
        self.pipeline = pipeline
        self.intake = intake
        self.metrics = metrics
        self.foods = foods
        self.logger = logger
    }

    func run() async throws {
        let estimator: NutritionEstimator
        do {
            estimator = try await cancelWhenGracefulShutdown { try await self.foods.estimator(logger: self.logger) }
        } catch {
            guard Task.isShuttingDownGracefully else { throw error }
            logger.info("stopped before the nutrition table was ready; no scan job was taken")
            consumer.stopConsuming()
            return
        }
        nutrition.withLock { $0 = estimator }
        await withTaskGroup(of: Void.self) { group in
            await withGracefulShutdownHandler {
                var running = 0
                deliveries: for await delivery in consumer.deliveries {
                    // The prefetch bounds the jobs of one connection. After a reconnect the jobs of the old one may
                    // still be running (the broker has requeued them), so the limit is kept here as well; and it is
                    // lowered ahead of OpenAI's rate limit (``IntakeGovernor``). A job held back when the worker
                    // shuts down is left unacknowledged, for the broker to give to another worker. While it waits, it
                    // counts as held.
                    var held = false
                    while running >= intake.allowedJobs() {
                        if !held {
                            held = true
                            metrics.jobsHeld.increment()
                        }
                        if running > 0 {
                            await group.next()
                            running -= 1
                        } else {
                            let lifts = intake.liftsAt ?? .now + .milliseconds(100)
                            try? await cancelWhenGracefulShutdown { try await sleep(until: lifts) }
                            if Task.isShuttingDownGracefully {
                                metrics.jobsHeld.decrement()
                                break deliveries
                            }
                        }
                    }
                    if held { metrics.jobsHeld.decrement() }
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
            span.attributes["messaging.message.conversation_id"] = delivery.message.properties.headers[ScanJob.Header.scanID]
            await process(delivery, span: span)
        }
    }

    private func process(_ delivery: AMQPDelivery, span: any Span) async {
        let started = ContinuousClock.now
        metrics.jobsInFlight.increment()
        defer { metrics.jobsInFlight.decrement() }
        var logger = self.logger
        // Counted by the consumer's connection as kiwi_amqp_redeliveries_total; the outcome may already be recorded.
        if delivery.redelivered { logger.debug("processing a redelivered job") }
        let sealed: SealedScanJob
        do {
            sealed = try SealedScanJob(message: delivery.message)
            // The job holds the sealed photos now; the delivery is kept only to acknowledge it.
            delivery.discardBody()
        } catch {
            logger.error("rejecting a message that is not a scan job to the dead-letter queue", metadata: ["reason": "\(error)"])
            await settle("reject", logger: logger) { try await delivery.reject() }
            end("rejected", startedAt: started, span: span)
            return
        }
        let scanID = sealed.job.scanID
        logger[metadataKey: "scanId"] = .string(scanID.uuidString.lowercased())
        logger[metadataKey: "requestId"] = sealed.job.requestID.map { .string($0) }
        logger[metadataKey: "user"] = .string(LogRedaction.userKey(sealed.job.userKey))
        // A deadline further away than any scan timeout is a broken header; it must not keep a job forever.
        let timeLeft = min(sealed.job.deadline.timeIntervalSinceNow, Self.longestDeadline)
        let deadline = started + .milliseconds(timeLeft * 1000)
        // Past its deadline (and the sweeper's grace after it) the scan is the sweeper's to fail.
        let recordingDeadline = deadline + ScanTransitions.sweepGrace
        guard timeLeft > 0 else {
            logger.info("failing a scan whose deadline passed before a worker took it", metadata: ["lateMs": "\(Int(-timeLeft * 1000))"])
            await record(.error(ScanFailure(.scanTimeout, "")), usage: nil, of: scanID, until: recordingDeadline, logger: logger)
            await settle("ack", logger: logger) { try await delivery.ack() }
            end("expired", startedAt: started, span: span)
            return
        }
        let shown: [ScanPartial]
        let photoKey: PhotoKey?
        switch await persistently("mark the scan running", until: deadline, logger: logger, { try await scans.start(scanID) }) {
        case .started(let partials, let key)?:
            (shown, photoKey) = (partials, key)
        case .finished(let state)?:
            // A final scan's key is gone: its job could not be opened anyway.
            logger.info("the scan is already final; not asking the model again", metadata: ["state": "\(state.rawValue)"])
            // Said again, in case the first announcement was lost with the worker that made it.
            await events.announce(ScanEvent(scanID: scanID, state: state))
            await settle("ack", logger: logger) { try await delivery.ack() }
            end("already_final", startedAt: started, span: span)
            return
        case .missing?:
            logger.info("the scan is gone (cancelled, or its account deleted); not asking the model")
            await settle("ack", logger: logger) { try await delivery.ack() }
            end("gone", startedAt: started, span: span)
            return
        case nil:
            // The database stayed out of reach until the deadline: the sweeper fails the scan once it is back.
            await settle("ack", logger: logger) { try await delivery.ack() }
            end("unrecorded", startedAt: started, span: span)
            return
        }
        var job: ScanJob
        do {
            if photoKey == nil, sealed.job.ingredients == nil {
                logger.info("the scan has no photo key (a gateway of the release before sealing reserved it): its photos came in the clear")
            }
            job = try (consume sealed).opened(with: photoKey)
        } catch {
            // Noise, tampered with, or a broken gateway: no model call, never a scan unguarded, and the scan refunded.
            // Never the body or the profile in the log.
            logger.error("failing a scan whose job's profile or photos do not open with its key", metadata: ["reason": "\(error)"])
            let failure = ScanFailure(.llmUnavailable, "The scan's job could not be opened.")
            await record(.error(failure), usage: nil, of: scanID, until: recordingDeadline, logger: logger)
            await settle("ack", logger: logger) { try await delivery.ack() }
            end("unopened", startedAt: started, span: span)
            return
        }
        await events.announce(ScanEvent(scanID: scanID, state: .running))

        let photoSize = job.photos.reduce(0) { $0 + $1.count }
        let (result, analysis) = await answer(
            Self.takePhotos(from: &job),
            for: job,
            shown: shown,
            deadline: deadline - Self.recordAllowance,
            logger: logger
        )
        guard !Task.isCancelled else { return }  // shut down hard: the broker requeues the unacknowledged job
        let recorded = await record(result, usage: analysis?.usage, of: job.scanID, until: recordingDeadline, logger: logger)
        await settle("ack", logger: logger) { try await delivery.ack() }
        let outcome = recorded ? result.metricsLabel : "superseded"
        end(outcome, startedAt: started, span: span)

        var metadata: Logger.Metadata = [
            "outcome": .string(outcome), "latencyMs": "\((ContinuousClock.now - started).milliseconds)", "bytes": "\(photoSize)",
        ]
        if let analysis {
            let usage = analysis.usage
            metadata["attempts"] = "\(usage.attempts)"
            metadata["promptTokens"] = "\(usage.tokens.promptTokens)"
            metadata["cachedPromptTokens"] = "\(usage.tokens.cachedPromptTokens)"
            metadata["completionTokens"] = "\(usage.tokens.completionTokens)"
            metadata["costUSD"] = "\(Double(usage.costNanos) / 1e9)"
            metadata["llmMs"] = "\(usage.modelTime.milliseconds)"
            if let route = usage.route { metadata["route"] = .string(route) }
            metrics.spent(analysis.spending, outcome: result.metricsLabel)
        }
        logger.info("scan job answered", metadata: metadata)
    }

    /// Records the outcome on the scan and announces it. False when the scan was final already (another worker
    /// answered it first, or it was failed meanwhile) or the database stayed out of reach: then this answer is dropped.
    @discardableResult
    private func record(
        _ result: ScanOutcome,
        usage: ModelUsage?,
        of scanID: UUID,
        until deadline: ContinuousClock.Instant,
        logger: Logger
    ) async
        -> Bool
    {
        let changed = await persistently("record the scan's outcome", until: deadline, logger: logger) {
            switch result {
            case .ok(let response): try await scans.succeed(scanID, result: response, usage: usage)
            case .error(let failure): try await scans.fail(scanID, failure, usage: usage)
            }
        }
        guard changed == true else {
            if changed == false { logger.info("the scan was already final; this answer is dropped") }
            return false
        }
        await events.announce(ScanEvent(scanID: scanID, state: result.state))
        return true
    }

    /// `body`, tried again while the database is out of reach, until `deadline`; nil if it never got through. A
    /// recorded answer is worth more than a requeued job that would call OpenAI again.
    private func persistently<Value: Sendable>(
        _ action: String,
        until deadline: ContinuousClock.Instant,
        logger: Logger,
        _ body: () async throws -> Value
    ) async -> Value? {
        do {
            return try await retrying(
                .storeOutage,
                until: deadline,
                onRetry: { error, wait in
                    logger.warning("could not \(action); retrying", metadata: ["error": "\(error)", "retryInMs": "\(wait.milliseconds)"])
                },
                operation: body
            )
        } catch {
            logger.error("could not \(action) before the deadline; the sweeper will fail the scan", metadata: ["error": "\(error)"])
            return nil
        }
    }

    private func end(_ outcome: String, startedAt started: ContinuousClock.Instant, span: any Span) {
        metrics.jobEnded(outcome, startedAt: started)
        span.attributes["kiwi.scan.outcome"] = outcome
    }

    /// The job's photos, each cleaned of metadata for the model; or the first that is not a JPEG, and why. The job
    /// gives its copies up, so that while the model thinks (seconds, for hundreds of jobs at once) the worker holds
    /// each photo once.
    private static func takePhotos(from job: inout ScanJob) -> Result<[ScanPrompt.Photo], ScanFailure> {
        let photos = job.photos
        job.photos = []
        var cleaned: [ScanPrompt.Photo] = []
        for (index, photo) in photos.enumerated() {
            do {
                cleaned.append(ScanPrompt.Photo(jpeg: try JPEGImage(parsing: photo).strippingMetadata()))
            } catch {
                let which = photos.count == 1 ? "The photo" : "Photo \(index + 1)"
                return .failure(ScanFailure(.invalidImage, "\(which) is not a valid JPEG: \(error.reason)."))
            }
        }
        return .success(cleaned)
    }

    /// Asks the model about the cleaned photos, confirming or restarting what the scan's client was `shown` of an
    /// earlier delivery; the photos themselves are never logged.
    private func answer(
        _ photos: Result<[ScanPrompt.Photo], ScanFailure>,
        for job: ScanJob,
        shown: [ScanPartial],
        deadline: ContinuousClock.Instant,
        logger: Logger
    ) async -> (ScanOutcome, ScanAnalysis?) {
        let images: [ScanPrompt.Photo]
        switch photos {
        case .success(let cleaned): images = cleaned
        case .failure(let failure): return (.error(failure), nil)
        }
        let request = ScanRequest(
            scanID: job.scanID,
            images: images,
            ingredients: job.ingredients,
            mode: job.mode,
            profile: job.profile,
            userKey: job.userKey,
            requestID: job.requestID,
            deadline: deadline,
            shown: ShownState(shown),
            labels: RecipeLabels(nutrition: nutrition.withLock { $0 })
        )
        let analysis = await pipeline.analyze(request, logger: logger)
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

extension ScanOutcome {
    /// `ok` or the failure code: the `outcome` of logs and metrics.
    var metricsLabel: String {
        switch self {
        case .ok: "ok"
        case .error(let failure): failure.code.rawValue
        }
    }
}
