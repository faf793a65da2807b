import KiwiModels

/// What the model cost for one scan, as the worker records it on the scan.
public struct ModelUsage: Sendable, Hashable {
    /// The model that answered last, as it named itself (a dated snapshot), or the first route's when none did.
    public var model: String
    /// The `LLM_MODELS` route that answered last; nil when none did.
    public var route: String?
    /// The tokens of every completion received for the scan, repairs and answers that failed validation included.
    public var tokens: TokenUsage
    /// What those tokens cost, in nano-dollars (the worker's model prices, KiwiOpenAI's `ModelPrices`).
    public var costNanos: Int64
    /// HTTP attempts made, retries and the repair included.
    public var attempts: Int
    /// The model's own time (OpenAI's `openai-processing-ms`, summed), which the gateway reports as `Server-Timing`.
    public var modelTime: Duration

    /// ``modelTime`` in whole milliseconds, as the record keeps it.
    public var milliseconds: Int { Int(modelTime / .milliseconds(1)) }

    public init(model: String, route: String?, tokens: TokenUsage, costNanos: Int64, attempts: Int, modelTime: Duration) {
        self.model = model
        self.route = route
        self.tokens = tokens
        self.costNanos = costNanos
        self.attempts = attempts
        self.modelTime = modelTime
    }
}
