import CoreMetrics
import KiwiConcurrency
import KiwiModels
import KiwiOpenAI
import KiwiServiceSupport

/// What the scan worker counts: jobs by outcome, in flight and their duration; every model call (attempt) by result
/// and route, with its latency; retries by reason; repairs; calls skipped by open breakers; and the tokens and
/// dollars spent, by model and the outcome of the job they were spent on. The breakers' states are ``ModelRoute``'s.
struct WorkerMetrics: Sendable {
    /// `kiwi_worker_jobs_in_flight`: jobs taken off the queue and not yet settled.
    let jobsInFlight = Meter(label: "kiwi_worker_jobs_in_flight")
    /// `kiwi_worker_jobs_held`: a job taken off the queue that waits to start, while the worker is full or OpenAI's
    /// rate-limit window is used up (``IntakeGovernor``).
    let jobsHeld = Meter(label: "kiwi_worker_jobs_held")
    /// `kiwi_llm_repairs_total`: second calls that showed the model its unusable answer.
    let repairs = Counter(label: "kiwi_llm_repairs_total")
    /// `kiwi_guard_repairs_total`: answers that broke a user's allergies or diets, sent back to the model once.
    let guardRepairs = Counter(label: "kiwi_guard_repairs_total")
    /// `kiwi_guard_recipes_withheld_total`: recipes that still broke them and were never shown.
    let recipesWithheld = Counter(label: "kiwi_guard_recipes_withheld_total")

    /// `kiwi_worker_jobs_total{outcome}` and `kiwi_worker_job_duration_seconds{outcome}`. The outcome is `ok`, a
    /// ``ScanFailure`` code, `expired` (its deadline had passed) or `rejected` (not a scan job).
    func jobEnded(_ outcome: String, startedAt started: ContinuousClock.Instant) {
        Counter(label: "kiwi_worker_jobs_total", dimensions: [("outcome", outcome)]).increment()
        Timer(label: "kiwi_worker_job_duration_seconds", dimensions: [("outcome", outcome)], preferredDisplayUnit: .seconds)
            .recordInterval(since: started)
    }

    /// `kiwi_llm_attempts_total{result,route}` and `kiwi_llm_attempt_duration_seconds{result}`: one HTTP call to the
    /// model on a route.
    func attemptEnded(_ result: String, route: String, duration: Duration) {
        Counter(label: "kiwi_llm_attempts_total", dimensions: [("result", result), ("route", route)]).increment()
        Timer(label: "kiwi_llm_attempt_duration_seconds", dimensions: [("result", result)], preferredDisplayUnit: .seconds)
            .recordNanoseconds(duration.nanoseconds)
    }

    /// `kiwi_llm_route_skips_total{route}`: a call not made because the route's circuit breaker is open.
    func routeSkipped(_ route: String) {
        Counter(label: "kiwi_llm_route_skips_total", dimensions: [("route", route)]).increment()
    }

    /// `kiwi_llm_retries_total{reason}`: a failed attempt that is tried again, by the failure's result.
    func retrying(after reason: String) {
        Counter(label: "kiwi_llm_retries_total", dimensions: [("reason", reason)]).increment()
    }

    /// `kiwi_llm_tokens_total{kind="prompt|cached_prompt|completion", model, outcome}` and
    /// `kiwi_llm_cost_usd_total{model, outcome}`: what a job cost, by the model that spent it and how the job ended.
    /// `cached_prompt` tokens are a part of the `prompt` ones.
    func spent(_ spending: ScanSpending, outcome: String) {
        for (model, spent) in spending.byModel {
            for (kind, count) in [
                ("prompt", spent.tokens.promptTokens), ("cached_prompt", spent.tokens.cachedPromptTokens),
                ("completion", spent.tokens.completionTokens),
            ] {
                Counter(label: "kiwi_llm_tokens_total", dimensions: [("kind", kind), ("model", model), ("outcome", outcome)]).increment(by: count)
            }
            FloatingPointCounter(label: "kiwi_llm_cost_usd_total", dimensions: [("model", model), ("outcome", outcome)])
                .increment(by: Double(spent.costNanos) / 1e9)
        }
    }
}

extension ChatCompletionsClient.Failure {
    /// The failure as a metrics label: `timeout`, `stream_cut` or `stream_stall` (a streamed answer broke off),
    /// `transport` (no response), `http_429`, `http_5xx` or `http_4xx`.
    var metricsLabel: String {
        if timedOut { return "timeout" }
        if let brokenStream { return "stream_\(brokenStream.how.rawValue)" }
        guard let status else { return "transport" }
        switch status {
        case 429: return "http_429"
        case 500...: return "http_5xx"
        default: return "http_4xx"
        }
    }
}

extension Result<ChatCompletionsClient.Success, ChatCompletionsClient.Failure> {

    /// An attempt's outcome as a metrics label: `ok`, or the failure's label.
    var metricsLabel: String {
        switch self {
        case .success: "ok"
        case .failure(let failure): failure.metricsLabel
        }
    }
}
