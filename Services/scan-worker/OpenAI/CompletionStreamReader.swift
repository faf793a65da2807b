import Foundation
import KiwiModels
import KiwiOpenAI
import KiwiStrictJSON
import NIOCore

/// A streamed chat completion (`"stream": true`) read as its bytes arrive: server-sent events whose data is a
/// `chat.completion.chunk`, then `data: [DONE]`. It hands over each content fragment as its event completes and
/// assembles, from the chunks, the ``ChatCompletion`` the unstreamed call answers: the content (or refusal) joined,
/// the finish reason, and the usage of the last chunk (`stream_options.include_usage`).
struct CompletionStreamReader {
    /// The stream said something no answer says: an `error` event, or data that is not a chunk.
    struct StreamError: Error {
        var status: Int
        var summary: String
    }

    /// The bytes read so far.
    private(set) var bytesRead = 0
    /// The model the chunks name (a dated snapshot), once one arrived.
    private(set) var model: String?
    /// The content and refusal fragments received.
    private(set) var fragments = 0
    private var line: [UInt8] = []
    private var data: [UInt8]?
    private var id = ""
    private var created = 0
    private var content: String?
    private var refusal: String?
    private var finishReason: String?
    private var usage: ChatCompletion.Usage?
    private var done = false
    private let decoder = JSONDecoder()

    /// The completion, once `[DONE]` has arrived.
    var completion: ChatCompletion? {
        guard done else { return nil }
        return ChatCompletion(
            id: id,
            created: created,
            model: model ?? "",
            choices: [.init(message: .init(content: content, refusal: refusal), finishReason: finishReason)],
            usage: usage
        )
    }

    /// Reads `buffer`, the stream's next bytes; returns the content fragments of the events they complete, in order.
    mutating func read(_ buffer: ByteBuffer) throws(StreamError) -> [String] {
        bytesRead += buffer.readableBytes
        var completed: [String] = []
        // One copy of the bytes, whose lines are then found with `memchr` and copied whole: the chunk's bytes one at a
        // time, through the buffer's generic view, cost more than the rest of a chunk's reading.
        let bytes = Array(buffer.readableBytesView)
        var start = 0
        while let end = Self.find(Self.newline, in: bytes, from: start)?.lowerBound {
            line.append(contentsOf: bytes[start..<end])
            start = end + 1
            if line.last == UInt8(ascii: "\r") { line.removeLast() }
            if let fragment = try readLine() { completed.append(fragment) }
            line.removeAll(keepingCapacity: true)
        }
        line.append(contentsOf: bytes[start...])
        return completed
    }

    /// One line of the event stream: a `data:` line is kept, a blank one ends the event; other fields and comments are
    /// ignored, as the SSE specification says.
    private mutating func readLine() throws(StreamError) -> String? {
        if line.isEmpty {
            defer { data = nil }
            return try data.flatMap { data throws(StreamError) in try dispatch(data) }
        }
        guard Self.starts(line, with: Self.dataField, at: 0) else { return nil }
        var value = line[Self.dataField.count...]
        if value.first == UInt8(ascii: " ") { value = value.dropFirst() }
        if data == nil {
            data = Array(value)
        } else {
            data! += [UInt8(ascii: "\n")] + value
        }
        return nil
    }

    private static let newline = [UInt8(ascii: "\n")]
    private static let dataField = Array("data:".utf8)

    /// One event's data: a chunk, an error, or `[DONE]`. Returns the chunk's content fragment, if it has one.
    private mutating func dispatch(_ data: [UInt8]) throws(StreamError) -> String? {
        if data.elementsEqual("[DONE]".utf8) {
            done = true
            return nil
        }
        if model != nil, let text = Self.contentFragment(in: data) { return received(content: text) }
        let chunk: Chunk
        do {
            chunk = try decoder.decode(Chunk.self, from: Data(data))
        } catch {
            throw StreamError(status: 502, summary: "a stream event that is not a chat completion chunk")
        }
        if let error = chunk.error {
            throw StreamError(status: 500, summary: "an error in the stream: \(error.message.prefix(300))")
        }
        if let chunkID = chunk.id, id.isEmpty { id = chunkID }
        if let chunkCreated = chunk.created, created == 0 { created = chunkCreated }
        if let chunkModel = chunk.model, model == nil { model = chunkModel }
        if let chunkUsage = chunk.usage { usage = chunkUsage }
        guard let choice = chunk.choices?.first else { return nil }
        if let reason = choice.finishReason { finishReason = reason }
        if let text = choice.delta?.refusal {
            refusal = refusal.map { $0 + text } ?? text
            if !text.isEmpty { fragments += 1 }
        }
        return choice.delta?.content.flatMap { received(content: $0) }
    }

    /// Adds `text` to the content; returns it unless empty.
    private mutating func received(content text: String) -> String? {
        if content == nil { content = text } else { content!.append(text) }
        guard !text.isEmpty else { return nil }
        fragments += 1
        return text
    }

    /// The fragment of a chunk that carries nothing but content, as OpenAI writes such chunks after the first:
    /// `…"choices":[{"index":0,"delta":{"content":"…"},"logprobs":null,"finish_reason":null}]…` with no usage. Nearly
    /// every chunk is one, and reading them without decoding the whole chunk keeps a stream's cost near an unstreamed
    /// answer's; any other chunk (the first, the last, a refusal, another server's member order) is decoded whole.
    private static func contentFragment(in data: [UInt8]) -> String? {
        guard let opening = find(contentOpening, in: data, anchoredAt: contentOpeningAnchor) else { return nil }
        var index = opening.upperBound
        var escaped = false
        while index < data.endIndex, escaped || data[index] != UInt8(ascii: "\"") {
            escaped = !escaped && data[index] == UInt8(ascii: "\\")
            index += 1
        }
        let closing = index + 1
        guard starts(data, with: contentClosing, at: closing),
            find(usageOpening, in: data, from: closing + contentClosing.count) == nil
        else { return nil }
        let text = data[opening.upperBound..<index]
        guard text.contains(UInt8(ascii: "\\")) else { return String(decoding: text, as: UTF8.self) }
        guard case .string(let decoded)? = try? StrictJSONParser().parse(String(decoding: data[(opening.upperBound - 1)..<closing], as: UTF8.self))
        else { return nil }
        return decoded
    }

    /// Where `needle` first occurs in `data` from `start`, found with `memchr` for its byte at `anchor` and `memcmp`:
    /// the generic search costs the stream more than everything else it does with a chunk, and a byte the needle has
    /// but the chunk seldom has (`[`, not `"`) keeps the comparisons to one or two.
    private static func find(_ needle: [UInt8], in data: [UInt8], from start: Int = 0, anchoredAt anchor: Int = 0) -> Range<Int>? {
        data.withUnsafeBufferPointer { haystack in
            guard let base = haystack.baseAddress else { return nil }
            let last = haystack.count - needle.count
            var index = start
            while index <= last {
                guard let hit = memchr(base + index + anchor, Int32(needle[anchor]), last - index + 1) else { return nil }
                index = base.distance(to: hit.assumingMemoryBound(to: UInt8.self)) - anchor
                if memcmp(base + index, needle, needle.count) == 0 { return index..<(index + needle.count) }
                index += 1
            }
            return nil
        }
    }

    /// Whether `data` holds `prefix` at `index`.
    private static func starts(_ data: [UInt8], with prefix: [UInt8], at index: Int) -> Bool {
        index + prefix.count <= data.count && data.withUnsafeBufferPointer { memcmp($0.baseAddress! + index, prefix, prefix.count) == 0 }
    }

    private static let contentOpening = Array(#""choices":[{"index":0,"delta":{"content":""#.utf8)
    private static let contentOpeningAnchor = contentOpening.firstIndex(of: UInt8(ascii: "["))!
    private static let contentClosing = Array(#"},"logprobs":null,"finish_reason":null}]"#.utf8)
    private static let usageOpening = Array(#""usage":{"#.utf8)

    /// The members of a `chat.completion.chunk` Kiwi reads.
    private struct Chunk: Decodable {
        var id: String?
        var created: Int?
        var model: String?
        var choices: [Choice]?
        var usage: ChatCompletion.Usage?
        var error: OpenAIErrorBody.Detail?

        struct Choice: Decodable {
            var delta: Delta?
            var finishReason: String?

            enum CodingKeys: String, CodingKey {
                case delta
                case finishReason = "finish_reason"
            }
        }

        struct Delta: Decodable {
            var content: String?
            var refusal: String?
        }
    }
}
