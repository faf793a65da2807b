import Foundation
import KiwiDevelopment
import KiwiModels
import KiwiOpenAI
import KiwiStrictJSON

/// A completion as OpenAI streams it (`"stream": true`): server-sent events `data: {chat.completion.chunk}`, each
/// followed by a blank line. The first chunk says `role: "assistant"` with empty content (or, for a refusal, null
/// content and an empty `refusal`); then one chunk per token-sized fragment of the content (or of the refusal); then a
/// chunk with an empty `delta` and the `finish_reason`; with `stream_options.include_usage`, a chunk with no choices
/// and the `usage`, every other chunk saying `"usage":null`; and last `data: [DONE]`. Chunk members are in the order
/// OpenAI writes them, with `service_tier` and the `obfuscation` padding it adds by default.
struct CompletionStream: Sendable {
    /// The first chunk: the role.
    var opening: String
    /// One chunk per fragment, in order.
    var tokens: [String]
    /// The finishing chunk, the usage chunk when asked for, and `[DONE]`.
    var closing: String

    /// The stub's `system_fingerprint`, in OpenAI's form.
    static let systemFingerprint = "fp_4b1d5e7c9a"

    /// `completion` (one choice) streamed; `includeUsage` is the request's `stream_options.include_usage`. `seed` draws
    /// the padding: the same seed, the same bytes.
    init(_ completion: ChatCompletion, includeUsage: Bool, seed: UInt64 = .random(in: .min ... .max)) {
        let answered = completion.choices[0]
        let refused = answered.message.content == nil
        var random = SplitMix64(seed: seed)
        func chunk(choices: [JSONValue], usage: JSONValue = .null, obfuscation: String) -> String {
            var members: [(String, JSONValue)] = [
                ("id", .string(completion.id)), ("object", .string("chat.completion.chunk")),
                ("created", .number(JSONNumber(completion.created))), ("model", .string(completion.model)),
                ("service_tier", .string("default")), ("system_fingerprint", .string(Self.systemFingerprint)), ("choices", .array(choices)),
            ]
            if includeUsage { members.append(("usage", usage)) }
            members.append(("obfuscation", .string(obfuscation)))
            var object = JSONObject()
            for (key, value) in members { object[key] = value }
            return "data: \(JSONValue.object(object).serialized())\n\n"
        }
        func choice(_ delta: KeyValuePairs<String, JSONValue>, finishReason: String? = nil) -> JSONValue {
            .object(
                JSONObject([
                    "index": .number(JSONNumber(answered.index)), "delta": .object(JSONObject(delta)), "logprobs": .null,
                    "finish_reason": finishReason.map(JSONValue.string) ?? .null,
                ])
            )
        }
        opening = chunk(
            choices: [
                refused
                    ? choice(["role": .string("assistant"), "content": .null, "refusal": .string("")])
                    : choice(["role": .string("assistant"), "content": .string(""), "refusal": .null])
            ],
            obfuscation: Self.obfuscation(&random)
        )
        // Every fragment's chunk is the same but for the fragment and the padding: serialized once around two markers,
        // then filled in for each, as the stub serves a thousand of them per answer.
        let (fragmentMarker, paddingMarker) = ("kiwi-stub-fragment", "kiwi-stub-padding")
        let template = chunk(
            choices: [choice(refused ? ["refusal": .string(fragmentMarker)] : ["content": .string(fragmentMarker)])],
            obfuscation: paddingMarker
        )
        let pieces = template.components(separatedBy: "\"\(fragmentMarker)\"")
        let tail = pieces[1].components(separatedBy: paddingMarker)
        let text = answered.message.content ?? answered.message.refusal ?? ""
        tokens = Self.fragments(of: text).map { pieces[0] + JSONValue.string($0).serialized() + tail[0] + Self.obfuscation(&random) + tail[1] }
        closing = chunk(choices: [choice([:], finishReason: answered.finishReason ?? "stop")], obfuscation: Self.obfuscation(&random))
        if includeUsage, let usage = completion.usage {
            closing += chunk(choices: [], usage: Self.json(usage), obfuscation: Self.obfuscation(&random))
        }
        closing += "data: [DONE]\n\n"
    }

    /// `text` cut into fragments the size of gpt-4o's tokens: a word with the space before it (apostrophes inside it),
    /// up to 12 characters; up to 3 digits; up to 3 other characters (`{"`, `":"`, `"}`). Escapes and multi-byte
    /// characters can fall across two fragments, as they do in OpenAI's streams.
    static func fragments(of text: String) -> [String] {
        enum Kind { case word, digits, space, other }
        var fragments: [String] = []
        var current = ""
        var kind = Kind.other
        for character in text {
            let next: Kind =
                character.isLetter || (kind == .word && character == "'") ? .word : character.isNumber ? .digits : character == " " ? .space : .other
            let joins =
                switch (kind, next) {
                case (.space, .word): true
                case (.word, .word): current.count < 12
                case (.digits, .digits), (.other, .other): current.count < 3
                default: false
                }
            if joins {
                current.append(character)
                kind = next
            } else {
                if !current.isEmpty { fragments.append(current) }
                current = String(character)
                kind = next
            }
        }
        if !current.isEmpty { fragments.append(current) }
        return fragments
    }

    /// Usage as the last chunk carries it, with OpenAI's detail members.
    private static func json(_ usage: ChatCompletion.Usage) -> JSONValue {
        .object(
            JSONObject([
                "prompt_tokens": .number(JSONNumber(usage.promptTokens)), "completion_tokens": .number(JSONNumber(usage.completionTokens)),
                "total_tokens": .number(JSONNumber(usage.totalTokens)),
                "prompt_tokens_details": .object(
                    JSONObject([
                        "cached_tokens": .number(JSONNumber(usage.promptTokensDetails?.cachedTokens ?? 0)), "audio_tokens": .number(JSONNumber(0)),
                    ])
                ),
                "completion_tokens_details": .object(
                    JSONObject([
                        "reasoning_tokens": .number(JSONNumber(0)), "audio_tokens": .number(JSONNumber(0)),
                        "accepted_prediction_tokens": .number(JSONNumber(0)), "rejected_prediction_tokens": .number(JSONNumber(0)),
                    ])
                ),
            ])
        )
    }

    /// OpenAI pads each chunk with random characters so that its length does not give away the token's.
    private static func obfuscation(_ random: inout SplitMix64) -> String {
        String((0..<Int.random(in: 1...16, using: &random)).map { _ in alphabet.randomElement(using: &random)! })
    }

    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
}
