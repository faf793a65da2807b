/// Model tokens as Kiwi counts and prices them: the prompt (of which `cachedPromptTokens` were served from the
/// provider's prompt cache, billed at the cached rate) and the completion. One value from a completion's `usage` to a
/// scan's record: the worker adds up its completions' and the ledger stores the sum, so neither translates the other's.
public struct TokenUsage: Sendable, Hashable {
    public var promptTokens: Int
    public var cachedPromptTokens: Int
    public var completionTokens: Int

    public init(promptTokens: Int = 0, cachedPromptTokens: Int = 0, completionTokens: Int = 0) {
        self.promptTokens = promptTokens
        self.cachedPromptTokens = min(cachedPromptTokens, promptTokens)
        self.completionTokens = completionTokens
    }

    /// Prompt and completion tokens together: what a user's daily token cap counts.
    public var total: Int { promptTokens + completionTokens }

    public static func + (left: TokenUsage, right: TokenUsage) -> TokenUsage {
        TokenUsage(
            promptTokens: left.promptTokens + right.promptTokens,
            cachedPromptTokens: left.cachedPromptTokens + right.cachedPromptTokens,
            completionTokens: left.completionTokens + right.completionTokens
        )
    }
}
