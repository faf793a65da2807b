import CoreMetrics
import Foundation
import KiwiConcurrency
import KiwiDietGuard
import KiwiModels
import KiwiOpenAI
import KiwiScanJobs
import Logging
import NIOCore
import Tracing

/// Turns a scan's (already cleaned) photos into a validated ``ScanResponse``, guarded against the user's
/// allergies and diets and each recipe labelled with its allergens (``DietGuard``), by asking the model, absorbing what goes
/// wrong with real calls: transient failures are retried under ``RetryPolicy``; a route that keeps failing, has no
/// quota left or whose circuit breaker is open gives way to the next route (`LLM_MODELS`); an unusable answer (a
/// refusal, a cut-off, not JSON, or JSON that breaks the contract) gets one repair attempt; nothing outlives the
/// deadline.
struct ScanAnalyzer: Sendable {
    /// What one scan cost and how it ended.
    struct Analysis: Sendable {
        var result: Result<ScanResponse, ScanFailure>
        /// HTTP attempts made, retries, fallbacks and the repair included.
        var attempts = 0
        /// Tokens and cost by the model that spent them (a fallback can mix two models in one scan): every completion
        /// received, the repair's and those of answers that failed validation too.
        var spending: [String: Spending] = [:]
        /// The route and the model (as it named itself, a dated snapshot) of the last completion received.
        var route: String?
        var model: String?
        /// OpenAI's own processing time, summed over the completions received.
        var processingTime = Duration.zero

        struct Spending: Sendable, Hashable {
            var tokens = TokenUsage()
            var costNanos: Int64 = 0
        }

        /// The tokens of every completion received.
        var tokens: TokenUsage { spending.values.reduce(TokenUsage()) { $0 + $1.tokens } }
        /// What they cost, in nano-dollars (``ModelPrices``).
        var costNanos: Int64 { spending.values.reduce(0) { $0 + $1.costNanos } }

        /// Counts a completion of `route`.
        mutating func add(_ success: ChatCompletionsClient.Success, from route: ModelRoute, prices: ModelPrices) {
            let tokens = success.completion.usage?.tokens ?? TokenUsage()
            let model = success.completion.model.isEmpty ? route.model : success.completion.model
            // The configuration makes sure every route's model has a price; a snapshot it does not know costs that.
            let price = prices.price(of: model) ?? prices.price(of: route.model)
            let cost = price?.cost(of: tokens) ?? 0
            let spent = spending[model, default: Spending()]
            spending[model] = Spending(tokens: spent.tokens + tokens, costNanos: spent.costNanos + cost)
            (self.route, self.model) = (route.name, model)
            processingTime += success.processingTime ?? .zero
        }
    }

    /// The routes, in the order they are tried; never empty.
    let routes: [ModelRoute]
    let prices: ModelPrices
    let retryPolicy: RetryPolicy
    let attemptTimeout: Duration
    let metrics: WorkerMetrics
    /// Told what the first route's rate-limit headers say, so the worker slows its intake before a 429.
    let intake: IntakeGovernor

    /// Checks every answer against the user's allergies and diets.
    let dietGuard: DietGuard

    /// The answer for `images` (one scan's photos) showing `mode`, made for `profile` and guarded against it.
    ///
    /// - Parameter requestID: The scan's request id, sent to OpenAI as `X-Client-Request-Id` so that a call can be
    ///   traced there (and the development stub can scope a fault to one test's requests).
    func analyze(
        images: [ScanPrompt.Photo],
        mode: ScanMode = .fridge,
        profile: KitchenProfile? = nil,
        userKey: String,
        requestID: String?,
        deadline: ContinuousClock.Instant,
        logger: Logger
    ) async -> Analysis {
        var analysis = Analysis(result: .failure(ScanFailure(.invalidModelResponse, "no answer")))
        let request = Request(images: images, mode: mode, profile: profile, userKey: userKey, requestID: requestID, deadline: deadline)
        switch await validAnswer(request, rounds: 2, analysis: &analysis, logger: logger) {
        case .failure(let failure):
            analysis.result = .failure(failure)
        case .success(let answer):
            var response = answer.response
            if let profile, !profile.isEmpty {
                response = await guarded(answer, request: request, profile: profile, analysis: &analysis, logger: logger)
                response.appliedProfile = profile
            }
            analysis.result = .success(dietGuard.labelled(response))
        }
        return analysis
    }

    /// What every model call of one scan asks about.
    private struct Request {
        var images: [ScanPrompt.Photo]
        var mode: ScanMode
        var profile: KitchenProfile?
        var userKey: String
        var requestID: String?
        var deadline: ContinuousClock.Instant
    }

    /// A valid answer, and the model's text of it.
    private struct ValidAnswer {
        var response: ScanResponse
        var content: String
    }

    /// A valid answer in up to `rounds` calls: the model asked (with `repair` when given), and asked again, told
    /// why, while its answer cannot be used.
    private func validAnswer(
        _ request: Request,
        repair: ScanPrompt.Repair? = nil,
        rounds: Int,
        analysis: inout Analysis,
        logger: Logger
    ) async -> Result<ValidAnswer, ScanFailure> {
        var repair = repair
        var failure = ScanFailure(.invalidModelResponse, "no answer")
        for round in 1...rounds {
            let answered: (success: ChatCompletionsClient.Success, route: ModelRoute)
            let body = { [repair] (prompt: ScanPrompt) in
                prompt.requestBody(
                    images: request.images,
                    mode: request.mode,
                    safetyIdentifier: request.userKey,
                    profile: request.profile,
                    repair: repair
                )
            }
            switch await complete(body, requestID: request.requestID, deadline: request.deadline, analysis: &analysis, logger: logger) {
            case .success(let value): answered = value
            case .failure(let failure): return .failure(failure)
            }
            analysis.add(answered.success, from: answered.route, prices: prices)
            let interpreted = withSpan("validate model answer") { span in
                let interpreted = Self.interpret(answered.success.completion, mode: request.mode)
                if case .failure(let unusable) = interpreted {
                    span.attributes["kiwi.llm.problem"] = unusable.kind
                    span.setStatus(SpanStatus(code: .error))
                }
                return interpreted
            }
            switch interpreted {
            case .success(let response):
                return .success(ValidAnswer(response: response, content: answered.success.completion.choices.first?.message.content ?? ""))
            case .failure(let unusable):
                logger.warning("unusable model answer", metadata: ["round": "\(round)", "problem": "\(unusable.kind)"])
                repair = ScanPrompt.Repair(previousAnswer: unusable.answer, problem: unusable.problem)
                if round < rounds { metrics.repairs.increment() }
                failure = ScanFailure(.invalidModelResponse, "The model's answer could not be used: \(unusable.kind).")
            }
        }
        return .failure(failure)
    }

    /// `answer` as the user may see it (``DietGuard``): when a recipe breaks the profile, the model is told what broke
    /// which rule and asked once more; whatever still breaks it is withheld. If the repair gets no valid answer, the
    /// first answer is kept, without what broke the profile.
    private func guarded(
        _ answer: ValidAnswer,
        request: Request,
        profile: KitchenProfile,
        analysis: inout Analysis,
        logger: Logger
    ) async -> ScanResponse {
        let findings = withSpan("guard the answer") { _ in dietGuard.findings(in: answer.response, for: profile) }
        guard !findings.isEmpty else { return answer.response }
        logger.info("the answer breaks the user's allergies or diets; asking for a repair", metadata: ["recipes": "\(findings.count)"])
        metrics.guardRepairs.increment()
        let repair = ScanPrompt.Repair(previousAnswer: answer.content, problem: dietGuard.repairProblem(findings))
        let guarded: ScanResponse
        switch await validAnswer(request, repair: repair, rounds: 1, analysis: &analysis, logger: logger) {
        case .success(let repaired):
            guarded = dietGuard.enforce(dietGuard.findings(in: repaired.response, for: profile), on: repaired.response)
        case .failure(let failure):
            logger.warning(
                "the guard's repair got no usable answer; keeping the first without what breaks the profile",
                metadata: ["code": "\(failure.code.rawValue)"]
            )
            guarded = dietGuard.enforce(findings, on: answer.response)
        }
        if !guarded.withheldRecipes.isEmpty {
            logger.info("recipes withheld for the user's allergies or diets", metadata: ["count": "\(guarded.withheldRecipes.count)"])
            metrics.recipesWithheld.increment(by: guarded.withheldRecipes.count)
        }
        return guarded
    }

    /// What one route came to.
    private enum RouteOutcome {
        case answered(ChatCompletionsClient.Success)
        /// The scan ends with this failure whatever the other routes would say (a bad photo, the deadline).
        case ended(ScanFailure)
        /// This route cannot answer now; the next one may. `retryAfter`: when this one might.
        case gaveWay(retryAfter: Duration?)
    }

    /// One completion from the first route that gives one: each route retried under the policy until it answers, the
    /// policy gives up on it, or its breaker opens; a route whose breaker is open is skipped without a call. When no
    /// route answers the scan fails `llm_unavailable`, with the soonest time any route might answer again.
    private func complete(
        _ body: (ScanPrompt) -> ByteBuffer,
        requestID: String?,
        deadline: ContinuousClock.Instant,
        analysis: inout Analysis,
        logger: Logger
    ) async -> Result<(success: ChatCompletionsClient.Success, route: ModelRoute), ScanFailure> {
        var soonest: Duration?
        for route in routes {
            var routeLogger = logger
            routeLogger[metadataKey: "route"] = .string(route.name)
            switch await complete(on: route, body, requestID: requestID, deadline: deadline, analysis: &analysis, logger: routeLogger) {
            case .answered(let success):
                return .success((success, route))
            case .ended(let failure):
                return .failure(failure)
            case .gaveWay(let retryAfter):
                if let retryAfter { soonest = min(soonest ?? retryAfter, retryAfter) }
                if route.name != routes.last?.name { routeLogger.info("falling back to the next model route") }
            }
        }
        let seconds = soonest.map { max(1, Int(($0 / .seconds(1)).rounded(.up))) }
        return .failure(ScanFailure(.llmUnavailable, "The recipe service is unavailable; please try again later.", retryAfterSeconds: seconds))
    }

    /// `route`'s completion, retried under the policy while its breaker lets calls through. A half-open breaker's
    /// probe is one call, not retried: its result decides for every scan.
    private func complete(
        on route: ModelRoute,
        _ body: (ScanPrompt) -> ByteBuffer,
        requestID: String?,
        deadline: ContinuousClock.Instant,
        analysis: inout Analysis,
        logger: Logger
    ) async -> RouteOutcome {
        var retries = 0
        while true {
            guard ContinuousClock.now < deadline else { return .ended(Self.timeout) }
            let permission = route.breaker.permission()
            if case .refused(let wait) = permission {
                logger.debug("skipping a model route whose circuit breaker is open")
                metrics.routeSkipped(route.name)
                return .gaveWay(retryAfter: wait)
            }
            analysis.attempts += 1
            let started = ContinuousClock.now
            // Built for each attempt: a body kept for retries would stay in memory while the model answers.
            let outcome = await withSpan("model call", ofKind: .client) { [attempt = analysis.attempts] span in
                span.attributes["gen_ai.system"] = "openai"
                span.attributes["gen_ai.request.model"] = route.model
                span.attributes["kiwi.llm.route"] = route.name
                span.attributes["kiwi.llm.attempt"] = attempt
                let outcome = await route.client.send(deadline: min(deadline, .now + attemptTimeout), clientRequestID: requestID) {
                    body(route.prompt)
                }
                let label = outcome.metricsLabel
                span.attributes["kiwi.llm.result"] = label
                if label != "ok" { span.setStatus(SpanStatus(code: .error)) }
                metrics.attemptEnded(label, route: route.name, duration: .now - started)
                return outcome
            }
            if route.name == routes[0].name, let status = outcome.rateLimit {
                intake.observe(status, tokensPerScan: (try? outcome.get())?.completion.usage?.tokens.total ?? Self.typicalScanTokens)
            }
            let failure: ChatCompletionsClient.Failure
            switch outcome {
            case .success(let success):
                route.breaker.recordSuccess()
                return .answered(success)
            case .failure(let value): failure = value
            }
            let timeLeft = deadline - .now
            if failure.status == 400, let code = failure.code, Self.imageErrorCodes.contains(code) {
                logger.warning("OpenAI could not read the photo", metadata: ["code": "\(code)"])
                return .ended(ScanFailure(.invalidImage, "The photo could not be read; please take another one."))
            }
            // A timeout that leaves too little time to try again is the scan running out of time, not an outage.
            if failure.timedOut, timeLeft <= Self.timeoutTolerance { return .ended(Self.timeout) }
            route.breaker.recordFailure()
            if permission == .probe {
                logger.warning("the probe of a model route failed", metadata: ["reason": "\(failure.summary)"])
                return .gaveWay(retryAfter: route.breaker.settings.coolDown)
            }
            switch retryPolicy.decision(after: failure, retries: retries, timeLeft: timeLeft) {
            case .giveUp(let reason):
                logger.warning("OpenAI call failed", metadata: ["reason": "\(reason)", "attempts": "\(analysis.attempts)"])
                // A route that timed out with time left still gives way: the next one may be faster.
                if failure.timedOut, route.name == routes.last?.name { return .ended(Self.timeout) }
                return .gaveWay(retryAfter: failure.retryAfter ?? (route.breaker.state == .open ? route.breaker.settings.coolDown : nil))
            case .retry(let wait):
                logger.info("retrying OpenAI call", metadata: ["reason": "\(failure.summary)", "waitMs": "\(wait.milliseconds)"])
                metrics.retrying(after: failure.metricsLabel)
                do {
                    // A wheel's timer: a scan cancelled while it waits leaves no timer behind.
                    try await TimerWheel.shared.sleep(until: .now + wait)
                } catch {
                    return .ended(ScanFailure(.llmUnavailable, "The scan was cancelled."))
                }
                retries += 1
            }
        }
    }

    /// What a scan's call spends before the first answer tells: a `high`-detail photo and its answer.
    static let typicalScanTokens = 2000

    private static let timeout = ScanFailure(.scanTimeout, "The scan took too long; please try again.")
    /// Clocks read a little apart: an attempt that timed out this close to the deadline timed out at it.
    private static let timeoutTolerance = Duration.milliseconds(50)
    /// OpenAI's codes for an image it cannot decode (400): retrying the same photo never helps.
    private static let imageErrorCodes: Set<String> = ["image_parse_error", "invalid_image", "invalid_image_format", "invalid_image_url"]

    /// Why an answer cannot be used: a short kind for logs, and for the repair prompt the problem and the answer.
    struct UnusableAnswer: Error {
        var kind: String
        var problem: String
        var answer: String?
    }

    static func interpret(_ completion: ChatCompletion, mode: ScanMode = .fridge) -> Result<ScanResponse, UnusableAnswer> {
        guard let choice = completion.choices.first else {
            return .failure(UnusableAnswer(kind: "no choices", problem: "it contained no answer"))
        }
        if let refusal = choice.message.refusal, !refusal.isEmpty {
            return .failure(UnusableAnswer(kind: "refusal", problem: "you declined to answer"))
        }
        if choice.finishReason == "length" {
            return .failure(UnusableAnswer(kind: "cut off at the token limit", problem: "it was cut off before the JSON was complete"))
        }
        // OpenAI's filter stops an answer part-way; what it kept, complete JSON or not, is not the model's answer.
        if choice.finishReason == "content_filter" {
            return .failure(UnusableAnswer(kind: "stopped by the content filter", problem: "it was stopped by the content filter"))
        }
        guard let content = choice.message.content, !content.isEmpty else {
            return .failure(UnusableAnswer(kind: "empty", problem: "it was empty"))
        }
        do throws(ScanResponseValidationError) {
            let data = Data(content.utf8)
            return .success(try mode == .fridge ? ScanResponseContract.validateModelAnswer(data) : DishAnswerContract.validateModelAnswer(data))
        } catch {
            let notJSON = error.violations.count == 1 && error.violations[0].message.hasPrefix("not valid JSON")
            return .failure(
                UnusableAnswer(
                    kind: notJSON ? "not JSON" : "\(error.violations.count) rule violations",
                    problem: error.violations.prefix(10).map(\.description).joined(separator: "; "),
                    answer: content
                )
            )
        }
    }
}
