import Foundation
import KiwiConcurrency
import KiwiJPEG
import KiwiLogging
import KiwiMessaging
import KiwiModels
import KiwiNutrition
import KiwiOpenAI
import KiwiScanMessages
import KiwiScanStore
import KiwiScans
import KiwiServiceSupport
import Logging

/// What became of one delivery, for the processor's loop to settle it and count it.
struct HandledDelivery: Sendable {
    enum Settlement: Sendable {
        /// Acknowledged: its outcome is recorded, or is no longer this worker's to record.
        case ack
        /// Rejected to the dead-letter queue: it is not a scan job.
        case reject
    }

    var settlement: Settlement
    /// The `outcome` of logs and metrics.
    var outcome: String
    /// The worker's logger with the job's scan, request and user, for what settling it logs.
    var logger: Logger
}

/// Takes one delivered scan job through its steps (docs/architecture.md, "2. The scan data flow"): the message
/// decoded, the scan claimed (marked `running`, ``ScanTransitionStore/start(_:)``), the job opened with the key the claim
/// returns (docs/architecture.md, "Photos at rest: crypto-shredding"), its photos cleaned, the model asked
/// (``ScanPipeline``), and the outcome recorded and announced to the gateways (``ScanEventAnnouncer``). A job whose
/// scan is already final (another worker answered it, the sweeper or its gateway failed it) or gone (cancelled, its
/// account deleted) is settled without asking the model; a final or gone scan has no key. The database is waited
/// for while it is out of reach, until the job's deadline: a recorded answer is worth more than a requeued job that
/// would call OpenAI again.
struct ScanJobHandler: Sendable {
    /// Time kept back from a job's deadline to record its outcome before the gateway stops waiting.
    static let recordAllowance = Duration.milliseconds(250)
    /// The furthest deadline a job may have (`SCAN_TIMEOUT_SECONDS` is at most 600).
    static let longestDeadline: TimeInterval = 3600

    let scans: ScanTransitionStore
    let announcer: ScanEventAnnouncer
    let pipeline: ScanPipeline
    let metrics: WorkerMetrics
    /// What a benchmark leg leaves out of each recipe's labels, allergens or nutrition (``BenchOmissions``); nothing in a
    /// deployment.
    var omissions = BenchOmissions.none

    /// Handles `delivery`, each recipe it shows labelled with `nutrition`; nil when the worker was shut down hard
    /// while the model was asked (the broker requeues the unacknowledged job).
    func handle(_ delivery: AMQPDelivery, nutrition: NutritionEstimator, logger: Logger) async -> HandledDelivery? {
        let started = ContinuousClock.now
        var logger = logger
        // Counted by the consumer's connection as kiwi_amqp_redeliveries_total; the outcome may already be recorded.
        if delivery.redelivered { logger.debug("processing a redelivered job") }
        let sealed: SealedScanJob
        do {
            sealed = try SealedScanJob(message: delivery.message)
            // The job holds the sealed photos now; the delivery is kept only to acknowledge it.
            delivery.discardBody()
        } catch {
            logger.error("rejecting a message that is not a scan job to the dead-letter queue", metadata: ["reason": "\(error)"])
            return HandledDelivery(settlement: .reject, outcome: "rejected", logger: logger)
        }
        let (scanID, gateway) = (sealed.job.scanID, sealed.job.gateway)
        logger[metadataKey: "scanId"] = .string(scanID.uuidString.lowercased())
        logger[metadataKey: "requestId"] = sealed.job.requestID.map { .string($0) }
        logger[metadataKey: "user"] = .string(LogRedaction.userKey(sealed.job.userKey))
        // A deadline further away than any scan timeout is a broken header; it must not keep a job forever.
        let timeLeft = min(sealed.job.deadline.timeIntervalSinceNow, Self.longestDeadline)
        let deadline = started + .milliseconds(timeLeft * 1000)
        // Past its deadline (and the sweeper's grace after it) the scan is the sweeper's to fail.
        let recordingDeadline = deadline + ScanTransitionStore.sweepGrace
        guard timeLeft > 0 else {
            logger.info("failing a scan whose deadline passed before a worker took it", metadata: ["lateMs": "\(Int(-timeLeft * 1000))"])
            await record(.error(ScanFailure(.scanTimeout, "")), usage: nil, of: scanID, startedBy: gateway, until: recordingDeadline, logger: logger)
            return HandledDelivery(settlement: .ack, outcome: "expired", logger: logger)
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
            await announcer.announce(ScanEvent(scanID: scanID, state: state), startedBy: gateway)
            return HandledDelivery(settlement: .ack, outcome: "already_final", logger: logger)
        case .missing?:
            logger.info("the scan is gone (cancelled, or its account deleted); not asking the model")
            return HandledDelivery(settlement: .ack, outcome: "gone", logger: logger)
        case nil:
            // The database stayed out of reach until the deadline: the sweeper fails the scan once it is back.
            return HandledDelivery(settlement: .ack, outcome: "unrecorded", logger: logger)
        }
        var job: ScanJob
        do {
            if photoKey == nil, sealed.job.ingredients == nil, sealed.job.plan == nil, sealed.job.meal == nil, sealed.job.replacement == nil {
                logger.info("the scan has no photo key (a gateway of the release before sealing reserved it): its photos came in the clear")
            }
            job = try (consume sealed).opened(with: photoKey)
        } catch {
            // Noise, tampered with, or a broken gateway: no model call, never a scan unguarded, and the scan refunded.
            // Never the body or the profile in the log.
            logger.error("failing a scan whose job's profile or photos do not open with its key", metadata: ["reason": "\(error)"])
            let failure = ScanFailure(.llmUnavailable, "The scan's job could not be opened.")
            await record(.error(failure), usage: nil, of: scanID, startedBy: gateway, until: recordingDeadline, logger: logger)
            return HandledDelivery(settlement: .ack, outcome: "unopened", logger: logger)
        }
        await announcer.announce(ScanEvent(scanID: scanID, state: .running), startedBy: gateway)

        let photoSize = job.photos.reduce(0) { $0 + $1.count }
        let (result, analysis) = await answer(
            Self.takePhotos(from: &job),
            for: job,
            shown: shown,
            labels: RecipeLabels(
                language: .of(job.profile),
                allergens: !omissions.omits(.labels),
                nutrition: omissions.omits(.nutrition) ? nil : nutrition
            ),
            deadline: deadline - Self.recordAllowance,
            logger: logger
        )
        guard !Task.isCancelled else { return nil }
        let recorded = await record(result, usage: analysis?.usage, of: scanID, startedBy: gateway, until: recordingDeadline, logger: logger)
        let outcome = recorded ? result.metricsLabel : "superseded"
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
        return HandledDelivery(settlement: .ack, outcome: outcome, logger: logger)
    }

    /// Records the outcome on the scan and announces it. False when the scan was final already (another worker
    /// answered it first, or it was failed meanwhile) or the database stayed out of reach: then this answer is dropped.
    @discardableResult
    private func record(
        _ result: ScanOutcome,
        usage: ModelUsage?,
        of scanID: UUID,
        startedBy gateway: String?,
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
        await announcer.announce(ScanEvent(scanID: scanID, state: result.state), startedBy: gateway)
        return true
    }

    /// `body`, tried again while the database is out of reach, until `deadline`; nil if it never got through.
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
        labels: RecipeLabels,
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
            pantry: job.meal.map(PantryQuestion.init(meal:)) ?? (job.plan == nil ? job.pantry.map(PantryQuestion.init) : nil),
            plan: job.plan.map { PlanQuestion($0, items: job.pantry ?? []) } ?? job.replacement.map(PlanQuestion.init(replacing:)),
            mode: job.mode,
            showsPartials: job.showsPartials,
            profile: job.profile,
            table: job.table,
            userKey: job.userKey,
            requestID: job.requestID,
            gateway: job.gateway,
            deadline: deadline,
            shown: ShownState(shown),
            labels: labels
        )
        let analysis = await pipeline.analyze(request, logger: logger)
        switch analysis.result {
        case .success(let response): return (.ok(response), analysis)
        case .failure(let failure): return (.error(failure), analysis)
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
