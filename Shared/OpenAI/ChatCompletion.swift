import KiwiModels

/// The parts of an OpenAI `chat.completion` object that Kiwi reads (the client) and writes (the stub).
/// Field names are the wire names; unknown fields are ignored when decoding, as OpenAI adds fields over time.
public struct ChatCompletion: Codable, Hashable, Sendable {
    public var id: String
    public var object: String
    public var created: Int
    public var model: String
    public var choices: [Choice]
    public var usage: Usage?

    public init(id: String, object: String = "chat.completion", created: Int, model: String, choices: [Choice], usage: Usage?) {
        self.id = id
        self.object = object
        self.created = created
        self.model = model
        self.choices = choices
        self.usage = usage
    }

    public struct Choice: Codable, Hashable, Sendable {
        public var index: Int
        public var message: Message
        /// `stop`, `length` (cut off at `max_completion_tokens`), `content_filter`, …
        public var finishReason: String?

        public init(index: Int = 0, message: Message, finishReason: String?) {
            self.index = index
            self.message = message
            self.finishReason = finishReason
        }

        enum CodingKeys: String, CodingKey {
            case index, message
            case finishReason = "finish_reason"
        }
    }

    public struct Message: Codable, Hashable, Sendable {
        public var role: String
        /// The answer; null when the model refused.
        public var content: String?
        /// Why the model would not answer (Structured Outputs), or null.
        public var refusal: String?

        public init(role: String = "assistant", content: String?, refusal: String?) {
            self.role = role
            self.content = content
            self.refusal = refusal
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(role, forKey: .role)
            try container.encode(content, forKey: .content)  // OpenAI writes explicit nulls
            try container.encode(refusal, forKey: .refusal)
        }
    }

    public struct Usage: Codable, Hashable, Sendable {
        public var promptTokens: Int
        public var completionTokens: Int
        public var totalTokens: Int
        /// `prompt_tokens_details`: of the prompt tokens, those served from the prompt cache (billed at a lower price).
        public var promptTokensDetails: PromptTokensDetails?

        public init(promptTokens: Int, completionTokens: Int, cachedPromptTokens: Int = 0) {
            self.promptTokens = promptTokens
            self.completionTokens = completionTokens
            self.totalTokens = promptTokens + completionTokens
            self.promptTokensDetails = PromptTokensDetails(cachedTokens: cachedPromptTokens)
        }

        /// This usage as Kiwi counts and prices it.
        public var tokens: TokenUsage {
            TokenUsage(
                promptTokens: promptTokens,
                cachedPromptTokens: promptTokensDetails?.cachedTokens ?? 0,
                completionTokens: completionTokens
            )
        }

        public struct PromptTokensDetails: Codable, Hashable, Sendable {
            public var cachedTokens: Int?

            enum CodingKeys: String, CodingKey {
                case cachedTokens = "cached_tokens"
            }
        }

        enum CodingKeys: String, CodingKey {
            case promptTokens = "prompt_tokens"
            case completionTokens = "completion_tokens"
            case totalTokens = "total_tokens"
            case promptTokensDetails = "prompt_tokens_details"
        }
    }
}

/// OpenAI's error body: `{"error": {"message", "type", "param", "code"}}`.
public struct OpenAIErrorBody: Codable, Hashable, Sendable {
    public var error: Detail

    public init(message: String, type: String, param: String? = nil, code: String? = nil) {
        error = Detail(message: message, type: type, param: param, code: code)
    }

    public struct Detail: Codable, Hashable, Sendable {
        public var message: String
        public var type: String?
        public var param: String?
        public var code: String?

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(message, forKey: .message)
            try container.encode(type, forKey: .type)
            try container.encode(param, forKey: .param)
            try container.encode(code, forKey: .code)
        }
    }

    /// The code OpenAI gives a 429 that is about billing: retrying never helps.
    public static let insufficientQuota = "insufficient_quota"
}

/// Request headers of OpenAI's API that the worker sends and the stub reads.
public enum OpenAIHeader {
    /// The caller's own id for a request (at most 512 ASCII characters), which OpenAI keeps for tracing; the worker
    /// sends each scan's request id, and the stub scopes faults by it.
    public static let clientRequestID = "X-Client-Request-Id"
}
