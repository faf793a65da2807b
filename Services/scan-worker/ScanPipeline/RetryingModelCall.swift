import KiwiConcurrency
import KiwiOpenAI
import KiwiScans
import Logging
import NIOCore
import Tracing

/// What calling one route, with its retries, came to: the answer, the end of the scan, or the next route's turn.
enum RouteCallResult {
    case answered(ChatCompletionsClient.Success)
    /// The scan ends with this failure whatever the other routes would say (a bad photo, the deadline).
    case ended(ScanFailure)
    /// This route cannot answer now; the next one may. `retryAfter`: when this one might. `timedOut`: its last
    /// attempt ran out of time with time left in the scan.
    case gaveWay(retryAfter: Duration?, timedOut: Bool = false)
}

/// The pipeline's calling step: one route's completion, its transient failures retried under ``RetryPolicy`` while
/// its circuit breaker lets calls through. A half-open breaker's probe is one call, not retried: its result decides
/// for every scan. Each attempt is a `model call` span, counted in `kiwi_llm_attempts_total`, and its rate-limit
/// headers are fed back (``RateLimitFeedback``); no attempt or wait outlives the scan's deadline. A streamed attempt
/// that breaks off (cut or stalled) is retried like a lost connection, and priced from what arrived.
struct RetryingModelCall: Sendable {
    let retryPolicy: RetryPolicy
    /// The longest one attempt may take (`OPENAI_TIMEOUT_SECONDS`).
    let attemptTimeout: Duration
    let rateLimits: RateLimitFeedback
    let prices: ModelPrices
    let metrics: WorkerMetrics

    /// `route`'s completion of `request`, whose body `body` builds from the route's prompt; every attempt counted in
    /// `spending`, and told to the request's listener as it starts and streams.
    func completion(
        on route: ModelRoute,
        of request: ScanRequest,
        _ body: (ScanPrompt) -> ByteBuffer,
        spending: inout ScanSpending,
        logger: Logger
    ) async -> RouteCallResult {
        let (deadline, listener) = (request.deadline, request.listener)
        var retries = 0
        while true {
            guard ContinuousClock.now < deadline else { return .ended(.modelCallTimeout) }
            let permission = route.breaker.permission()
            if case .refused(let wait) = permission {
                logger.debug("skipping a model route whose circuit breaker is open")
                metrics.routeSkipped(route.name)
                return .gaveWay(retryAfter: wait)
            }
            spending.addAttempt()
            await listener?.attemptStarted()
            let onFragment = listener.map { listener in { @Sendable (fragment: String) in await listener.received(fragment) } }
            let started = ContinuousClock.now
            // Built for each attempt: a body kept for retries would stay in memory while the model answers.
            let outcome = await withSpan("model call", ofKind: .client) { [attempt = spending.usage.attempts] span in
                span.attributes["gen_ai.system"] = "openai"
                span.attributes["gen_ai.request.model"] = route.model
                span.attributes["kiwi.llm.route"] = route.name
                span.attributes["kiwi.llm.attempt"] = attempt
                let outcome = await route.client.send(
                    deadline: min(deadline, .now + attemptTimeout),
                    clientRequestID: request.requestID,
                    onFragment: onFragment
                ) {
                    body(route.prompt)
                }
                let label = outcome.metricsLabel
                span.attributes["kiwi.llm.result"] = label
                if label != "ok" { span.setStatus(SpanStatus(code: .error)) }
                metrics.attemptEnded(label, route: route.name, duration: .now - started)
                return outcome
            }
            rateLimits.observe(outcome, on: route)
            let failure: ChatCompletionsClient.Failure
            switch outcome {
            case .success(let success):
                route.breaker.recordSuccess()
                return .answered(success)
            case .failure(let value): failure = value
            }
            if let broken = failure.brokenStream { spending.add(broken, from: route, prices: prices) }
            let timeLeft = deadline - .now
            if failure.status == 400, let code = failure.code, Self.imageErrorCodes.contains(code) {
                logger.warning("OpenAI could not read the photo", metadata: ["code": "\(code)"])
                return .ended(ScanFailure(.invalidImage, "The photo could not be read; please take another one."))
            }
            // A timeout that leaves too little time to try again is the scan running out of time, not an outage.
            if failure.timedOut, timeLeft <= Self.timeoutTolerance { return .ended(.modelCallTimeout) }
            route.breaker.recordFailure()
            if permission == .probe {
                logger.warning("the probe of a model route failed", metadata: ["reason": "\(failure.summary)"])
                return .gaveWay(retryAfter: route.breaker.settings.coolDown)
            }
            switch retryPolicy.decision(after: failure, retries: retries, timeLeft: timeLeft) {
            case .giveUp(let reason):
                logger.warning("OpenAI call failed", metadata: ["reason": "\(reason)", "attempts": "\(spending.usage.attempts)"])
                return .gaveWay(
                    retryAfter: failure.retryAfter ?? (route.breaker.state == .open ? route.breaker.settings.coolDown : nil),
                    timedOut: failure.timedOut
                )
            case .retry(let wait):
                logger.info("retrying OpenAI call", metadata: ["reason": "\(failure.summary)", "waitMs": "\(wait.milliseconds)"])
                metrics.retrying(after: failure.metricsLabel)
                do {
                    try await sleep(for: wait)
                } catch {
                    return .ended(ScanFailure(.llmUnavailable, "The scan was cancelled."))
                }
                retries += 1
            }
        }
    }

    /// Clocks read a little apart: an attempt that timed out this close to the deadline timed out at it.
    private static let timeoutTolerance = Duration.milliseconds(50)
    /// OpenAI's codes for an image it cannot decode (400): retrying the same photo never helps.
    private static let imageErrorCodes: Set<String> = ["image_parse_error", "invalid_image", "invalid_image_format", "invalid_image_url"]
}

extension ScanFailure {
    /// The scan ran out of time while the model was being asked.
    static let modelCallTimeout = ScanFailure(.scanTimeout, "The scan took too long; please try again.")
}
