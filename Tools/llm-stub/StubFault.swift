/// What the stub does instead of answering well: each mode imitates a way real OpenAI calls fail.
enum StubFault: String, CaseIterable, Codable, Sendable {
    /// Answer normally.
    case none
    /// 429 `rate_limit_exceeded` with `retry-after` and `retry-after-ms`.
    case rateLimit = "rate-limit"
    /// 429 `insufficient_quota`: billing, never worth a retry.
    case insufficientQuota = "insufficient-quota"
    /// 500 `server_error`.
    case serverError = "server-error"
    /// 503, OpenAI's "overloaded".
    case unavailable
    /// Accepts the request and never answers (an hour), so any client timeout fires first.
    case slow
    /// Closes the connection with a TCP reset instead of answering.
    case connectionReset = "connection-reset"
    /// A 200 whose content is prose, not JSON.
    case nonJSON = "non-json"
    /// A 200 whose content is JSON that breaks the contract.
    case offSchema = "off-schema"
    /// A 200 with `content: null` and a `refusal`.
    case refusal
    /// A 200 cut off at the token limit: `finish_reason: "length"`, half a JSON document.
    case truncated
    /// A valid answer for a photo without food: empty lists.
    case noFood = "no-food"
}
