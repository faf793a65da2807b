import KiwiOpenAI
import Logging
import Tracing

/// Answers with one Chat Completions call: a route chosen (``RouteFallback``), called with retries
/// (``RetryingModelCall``), the completion priced (``ScanSpending``) and read (``AnswerInterpreter``).
struct ChatCompletionAnswering: ModelAnswering {
    let fallback: RouteFallback
    /// The routes of text-only requests (a refinement's, a pantry scan's, a plan's: `LLM_TEXT_MODELS`); nil: ``fallback``'s.
    var textFallback: RouteFallback?
    let call: RetryingModelCall
    let prices: ModelPrices

    func answer(_ request: ScanRequest, repair: ScanPrompt.Repair?, spending: inout ScanSpending, logger: Logger) async -> ModelReply {
        let body = { (prompt: ScanPrompt) in
            prompt.requestBody(
                images: request.images,
                ingredients: request.ingredients,
                pantry: request.pantry,
                plan: request.plan,
                mode: request.mode,
                safetyIdentifier: request.userKey,
                profile: request.profile,
                repair: repair
            )
        }
        let routes = request.images.isEmpty ? textFallback ?? fallback : fallback
        let routed = await routes.completion(logger: logger) { route, logger in
            await call.completion(on: route, of: request, body, spending: &spending, logger: logger)
        }
        let answered: RouteFallback.Answered
        switch routed {
        case .success(let value): answered = value
        case .failure(let failure): return .failed(failure)
        }
        spending.add(answered.success, from: answered.route, prices: prices)
        let completion = answered.success.completion
        return withSpan("validate model answer") { span in
            switch AnswerInterpreter.interpret(
                completion,
                mode: request.mode,
                rules: request.rules,
                plan: request.plan?.rules,
                idSeed: request.scanID
            ) {
            case .success(let response):
                return .valid(ValidAnswer(response: response, content: completion.choices.first?.message.content ?? ""))
            case .failure(let unusable):
                span.attributes["kiwi.llm.problem"] = unusable.kind
                span.setStatus(SpanStatus(code: .error))
                return .unusable(unusable)
            }
        }
    }
}
