import CoreMetrics
import Foundation
import KiwiConcurrency
import KiwiModels
import KiwiOpenAI
import KiwiScanJobs
import Logging
import NIOCore
import Tracing

/// Turns one (already cleaned, base64-encoded) JPEG into a validated ``ScanResponse`` by asking the model, absorbing what goes
/// wrong with real calls: transient failures are retried under ``RetryPolicy``; an unusable answer (a refusal,
/// a cut-off, not JSON, or JSON that breaks the contract) gets one repair attempt; nothing outlives the deadline.
struct ScanAnalyzer: Sendable {
    /// What one scan cost and how it ended.
    struct Analysis: Sendable {
        var result: Result<ScanResponse, ScanFailure>
        /// HTTP attempts made, retries and the repair included.
        var attempts = 0
        var promptTokens = 0
        var completionTokens = 0
        /// OpenAI's own processing time, summed over the completions received.
        var processingTime = Duration.zero
    }

    let client: ChatCompletionsClient
    let prompt: ScanPrompt
    let retryPolicy: RetryPolicy
    let attemptTimeout: Duration
    let metrics: WorkerMetrics

    /// - Parameter requestID: The scan's request id, sent to OpenAI as `X-Client-Request-Id` so that a call can be
    ///   traced there (and the development stub can scope a fault to one test's requests).
    func analyze(
        image: ScanPrompt.EncodedImage,
        userKey: String,
        requestID: String?,
        deadline: ContinuousClock.Instant,
        logger: Logger
    ) async -> Analysis {
        var analysis = Analysis(result: .failure(ScanFailure(.invalidModelResponse, "no answer")))
        var repair: ScanPrompt.Repair?
        for round in 1...2 {
            let success: ChatCompletionsClient.Success
            let body = { [prompt, repair] in prompt.requestBody(image: image, safetyIdentifier: userKey, repair: repair) }
            switch await complete(body, requestID: requestID, deadline: deadline, analysis: &analysis, logger: logger) {
            case .success(let value): success = value
            case .failure(let failure):
                analysis.result = .failure(failure)
                return analysis
            }
            analysis.promptTokens += success.completion.usage?.promptTokens ?? 0
            analysis.completionTokens += success.completion.usage?.completionTokens ?? 0
            analysis.processingTime += success.processingTime ?? .zero
            let interpreted = withSpan("validate model answer") { span in
                let interpreted = Self.interpret(success.completion)
                if case .failure(let unusable) = interpreted {
                    span.attributes["kiwi.llm.problem"] = unusable.kind
                    span.setStatus(SpanStatus(code: .error))
                }
                return interpreted
            }
            switch interpreted {
            case .success(let response):
                analysis.result = .success(response)
                return analysis
            case .failure(let unusable):
                logger.warning("unusable model answer", metadata: ["round": "\(round)", "problem": "\(unusable.kind)"])
                repair = ScanPrompt.Repair(previousAnswer: unusable.answer, problem: unusable.problem)
                if round == 1 { metrics.repairs.increment() }
                analysis.result = .failure(ScanFailure(.invalidModelResponse, "The model's answer could not be used: \(unusable.kind)."))
            }
        }
        return analysis
    }

    /// One completion, retried under the policy until it arrives, the policy gives up, or the deadline passes.
    private func complete(
        _ body: () -> ByteBuffer,
        requestID: String?,
        deadline: ContinuousClock.Instant,
        analysis: inout Analysis,
        logger: Logger
    ) async -> Result<ChatCompletionsClient.Success, ScanFailure> {
        var retries = 0
        while true {
            guard ContinuousClock.now < deadline else { return .failure(Self.timeout) }
            analysis.attempts += 1
            let started = ContinuousClock.now
            // Built for each attempt: a body kept for retries would stay in memory while the model answers.
            let outcome = await withSpan("model call", ofKind: .client) { [attempt = analysis.attempts] span in
                span.attributes["gen_ai.system"] = "openai"
                span.attributes["gen_ai.request.model"] = prompt.model
                span.attributes["kiwi.llm.attempt"] = attempt
                let outcome = await client.send(deadline: min(deadline, .now + attemptTimeout), clientRequestID: requestID, body: body)
                let label = outcome.metricsLabel
                span.attributes["kiwi.llm.result"] = label
                if label != "ok" { span.setStatus(SpanStatus(code: .error)) }
                metrics.attemptEnded(label, duration: .now - started)
                return outcome
            }
            let failure: ChatCompletionsClient.Failure
            switch outcome {
            case .success(let success): return .success(success)
            case .failure(let value): failure = value
            }
            let timeLeft = deadline - .now
            if failure.status == 400, let code = failure.code, Self.imageErrorCodes.contains(code) {
                logger.warning("OpenAI could not read the photo", metadata: ["code": "\(code)"])
                return .failure(ScanFailure(.invalidImage, "The photo could not be read; please take another one."))
            }
            // A timeout that leaves too little time to try again is the scan running out of time, not an outage.
            if failure.timedOut, timeLeft <= Self.timeoutTolerance { return .failure(Self.timeout) }
            switch retryPolicy.decision(after: failure, retries: retries, timeLeft: timeLeft) {
            case .giveUp(let reason):
                logger.warning("OpenAI call failed", metadata: ["reason": "\(reason)", "attempts": "\(analysis.attempts)"])
                if failure.timedOut { return .failure(Self.timeout) }
                return .failure(ScanFailure(.llmUnavailable, "The recipe service is unavailable; please try again later."))
            case .retry(let wait):
                logger.info("retrying OpenAI call", metadata: ["reason": "\(failure.summary)", "waitMs": "\(wait.milliseconds)"])
                metrics.retrying(after: failure.metricsLabel)
                do {
                    try await Task.sleep(for: wait)
                } catch {
                    return .failure(ScanFailure(.llmUnavailable, "The scan was cancelled."))
                }
                retries += 1
            }
        }
    }

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

    static func interpret(_ completion: ChatCompletion) -> Result<ScanResponse, UnusableAnswer> {
        guard let choice = completion.choices.first else {
            return .failure(UnusableAnswer(kind: "no choices", problem: "it contained no answer"))
        }
        if let refusal = choice.message.refusal, !refusal.isEmpty {
            return .failure(UnusableAnswer(kind: "refusal", problem: "you declined to answer"))
        }
        if choice.finishReason == "length" {
            return .failure(UnusableAnswer(kind: "cut off at the token limit", problem: "it was cut off before the JSON was complete"))
        }
        guard let content = choice.message.content, !content.isEmpty else {
            return .failure(UnusableAnswer(kind: "empty", problem: "it was empty"))
        }
        do throws(ScanResponseValidationError) {
            return .success(try ScanResponseContract.validateModelAnswer(Data(content.utf8)))
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
