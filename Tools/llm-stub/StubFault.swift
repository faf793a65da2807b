/// What the stub does instead of answering well: each mode imitates a way real OpenAI calls fail.
///
/// Kiwi asks for strict Structured Outputs, under which OpenAI's decoder only writes JSON that fits the schema's
/// structure: every member present, enums and integer bounds held. What can still go wrong there is what the schema
/// only describes (string lengths, which strict mode does not enforce), a stop by the content filter, a refusal, a
/// cut-off, and the errors before any answer. ``nonStrictProse`` and ``nonStrictOffSchema`` write what strict mode
/// cannot produce: they stand for a model route that ignores `strict` (an OpenAI-compatible server without Structured
/// Outputs), and nothing else.
enum StubFault: String, CaseIterable, Codable, Sendable {
    /// Answer normally.
    case none
    /// 429 `rate_limit_exceeded` on the tokens-per-minute limit, as OpenAI words it, with `retry-after`, `retry-after-ms`
    /// and the `x-ratelimit-*-tokens` and `x-ratelimit-*-requests` headers (no tokens left until the wait is over).
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
    /// A 200 whose answer fits the schema's structure but has a recipe name and a step longer than the contract
    /// allows: the lengths the strict schema only describes.
    case overLength = "over-length"
    /// A 200 stopped by OpenAI's content filter: `finish_reason: "content_filter"`, the content written so far.
    case contentFilter = "content-filter"
    /// A 200 with `content: null` and a `refusal`, as strict Structured Outputs returns a refusal; streamed, `refusal`
    /// fragments after a first delta with null content.
    case refusal
    /// A 200 cut off at the token limit: `finish_reason: "length"`, half a JSON document (streamed, its fragments).
    case truncated
    /// A valid answer for a photo without food: empty lists.
    case noFood = "no-food"
    /// A non-strict model route's answer: prose, not JSON.
    case nonStrictProse = "non-strict-prose"
    /// A non-strict model route's answer: JSON that breaks the schema's structure (a value outside an enum, a number
    /// below its minimum).
    case nonStrictOffSchema = "non-strict-off-schema"
    /// A stream whose connection is closed part-way (``StubBehaviour/streamFaultAt``), without a finishing chunk or
    /// `[DONE]`; the fragments sent before reach the client first. An unstreamed request's connection is reset instead
    /// of answered, as under ``connectionReset``.
    case streamCut = "stream-cut"
    /// A stream that stops sending part-way (``StubBehaviour/streamFaultAt``) for ``StubBehaviour/stallMilliseconds``,
    /// then goes on, or without a stall time until the client hangs up. An unstreamed request waits the same before
    /// its answer.
    case streamStall = "stream-stall"
}
