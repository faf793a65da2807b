import KiwiModels
import KiwiOpenAI

/// Tells the worker's ``IntakeGovernor`` what the rate-limit headers of the route that carries the traffic say (the
/// first of `LLM_MODELS`), so the worker slows its intake before OpenAI answers 429. The other routes' headers
/// describe other accounts' limits and are not read.
struct RateLimitFeedback: Sendable {
    /// What a scan's call spends before the first answer tells: a `high`-detail photo and its answer.
    static let typicalScanTokens = 2000

    let intake: IntakeGovernor
    /// The name of the route whose headers count.
    let route: String

    /// Takes in what one attempt on `route` came back with.
    func observe(_ outcome: Result<ChatCompletionsClient.Success, ChatCompletionsClient.Failure>, on route: ModelRoute) {
        guard route.name == self.route, let status = outcome.rateLimit else { return }
        intake.observe(status, tokensPerScan: (try? outcome.get())?.completion.usage?.tokens.total ?? Self.typicalScanTokens)
    }
}
