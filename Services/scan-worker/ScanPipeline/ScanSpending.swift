import KiwiModels
import KiwiOpenAI
import KiwiScans

/// The pipeline's pricing step: what a scan's model calls cost, kept as the ledger's own ``ModelUsage`` so that the
/// record is written from it as it is, and by the model that spent it for `kiwi_llm_tokens_total` and
/// `kiwi_llm_cost_usd_total` (a fallback can mix two models in one scan).
struct ScanSpending: Sendable {
    /// The tokens one model spent and what they cost.
    struct ModelCost: Sendable, Hashable {
        var tokens = TokenUsage()
        var costNanos: Int64 = 0
    }

    /// What the scan's record says it cost: every completion received, the repairs' and those of answers that failed
    /// validation too, and every HTTP attempt.
    private(set) var usage: ModelUsage
    /// The same tokens and cost, by the model (as it named itself, a dated snapshot) that spent them.
    private(set) var byModel: [String: ModelCost] = [:]
    /// The models of broken streams whose prompts are not counted yet: the next completion's prompt stands for them.
    private var promptsOwed: [String] = []

    /// Nothing spent yet; `model` (the first route's) names the model of a scan no completion answered.
    init(model: String) {
        usage = ModelUsage(model: model, route: nil, tokens: TokenUsage(), costNanos: 0, attempts: 0, modelTime: .zero)
    }

    /// Counts one HTTP attempt, answered or not.
    mutating func addAttempt() {
        usage.attempts += 1
    }

    /// Prices and counts a completion of `route`, and makes it the one the record names.
    mutating func add(_ success: ChatCompletionsClient.Success, from route: ModelRoute, prices: ModelPrices) {
        let tokens = success.completion.usage?.tokens ?? TokenUsage()
        let model = success.completion.model.isEmpty ? route.model : success.completion.model
        count(tokens, of: model, on: route, prices: prices)
        let prompt = TokenUsage(promptTokens: tokens.promptTokens, cachedPromptTokens: tokens.cachedPromptTokens, completionTokens: 0)
        for owed in promptsOwed { count(prompt, of: owed, on: route, prices: prices) }
        promptsOwed = []
        (usage.route, usage.model) = (route.name, model)
        usage.modelTime += success.processingTime ?? .zero
    }

    /// Prices and counts an attempt of `route` whose stream broke off before its usage came. OpenAI bills the tokens it
    /// generated: each content fragment received counts as one completion token (OpenAI streams a token per chunk).
    /// Its prompt counts as the next completion's (a retry sends the same prompt); a scan that gets none leaves it
    /// uncounted.
    mutating func add(_ broken: ChatCompletionsClient.BrokenStream, from route: ModelRoute, prices: ModelPrices) {
        let model = broken.model ?? route.model
        count(TokenUsage(promptTokens: 0, cachedPromptTokens: 0, completionTokens: broken.fragments), of: model, on: route, prices: prices)
        promptsOwed.append(model)
    }

    private mutating func count(_ tokens: TokenUsage, of model: String, on route: ModelRoute, prices: ModelPrices) {
        // The configuration makes sure every route's model has a price; a snapshot it does not know costs that.
        let price = prices.price(of: model) ?? prices.price(of: route.model)
        let cost = price?.cost(of: tokens) ?? 0
        let spent = byModel[model, default: ModelCost()]
        byModel[model] = ModelCost(tokens: spent.tokens + tokens, costNanos: spent.costNanos + cost)
        usage.tokens = usage.tokens + tokens
        usage.costNanos += cost
    }
}
