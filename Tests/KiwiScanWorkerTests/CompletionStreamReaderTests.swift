import KiwiModels
import KiwiOpenAI
import KiwiTestSupport
import NIOCore
import Testing

@testable import KiwiLLMStub
@testable import KiwiScanWorker

@Suite("Reading a streamed chat completion")
struct CompletionStreamReaderTests {
    let answer = ModelAnswers.fridge([ModelAnswers.Dish("Tomato salad", ingredients: ["tomatoes", "olive oil"])])

    func completion(content: String?, refusal: String? = nil, finishReason: String = "stop") -> ChatCompletion {
        ChatCompletion(
            id: "chatcmpl-1",
            created: 1_764_000_000,
            model: "gpt-4o-2024-08-06",
            choices: [.init(message: .init(content: content, refusal: refusal), finishReason: finishReason)],
            usage: .init(promptTokens: 1200, completionTokens: 300, cachedPromptTokens: 100)
        )
    }

    /// The stream's text as OpenAI sends it.
    func wire(_ completion: ChatCompletion) -> String {
        let stream = CompletionStream(completion, includeUsage: true)
        return stream.opening + stream.tokens.joined() + stream.closing
    }

    /// What a reader makes of `text` arriving in pieces of `size` bytes: the fragments handed over, and the completion.
    func read(_ text: String, inPiecesOf size: Int) throws -> (fragments: [String], completion: ChatCompletion?) {
        var reader = CompletionStreamReader()
        var fragments: [String] = []
        let bytes = Array(text.utf8)
        for start in stride(from: 0, to: bytes.count, by: size) {
            fragments += try reader.read(ByteBuffer(bytes: bytes[start..<min(start + size, bytes.count)]))
        }
        return (fragments, reader.completion)
    }

    @Test("the chunks make up the completion the unstreamed call answers, however the bytes are cut", arguments: [1, 7, 4096])
    func assemblesCompletion(pieceSize: Int) throws {
        let sent = completion(content: answer)
        let (fragments, received) = try read(wire(sent), inPiecesOf: pieceSize)
        #expect(received == sent)
        #expect(fragments.joined() == answer && fragments.count > 10)
    }

    @Test("chunks in another server's member order are decoded whole, with the same fragments")
    func otherMemberOrder() throws {
        let chunks = [
            #"{"model":"gpt-4o-mini","id":"x","created":1,"choices":[{"delta":{"role":"assistant","content":""},"index":0}]}"#,
            #"{"model":"gpt-4o-mini","id":"x","created":1,"choices":[{"delta":{"content":"{\"a\":"},"index":0,"finish_reason":null}]}"#,
            #"{"model":"gpt-4o-mini","id":"x","created":1,"choices":[{"delta":{"content":"1}"},"index":0,"finish_reason":"stop"}]}"#,
        ]
        let text = chunks.map { "data: \($0)\r\n\r\n" }.joined() + "data: [DONE]\n\n"
        let (fragments, received) = try read(text, inPiecesOf: 5)
        #expect(fragments == [#"{"a":"#, "1}"])
        #expect(received?.choices.first?.message.content == #"{"a":1}"# && received?.choices.first?.finishReason == "stop")
        #expect(received?.model == "gpt-4o-mini" && received?.usage == nil)
    }

    @Test("a streamed refusal is a completion with no content and the refusal joined, no fragment handed over")
    func refusal() throws {
        let sent = completion(content: nil, refusal: "I'm sorry, I can't help with that.")
        let (fragments, received) = try read(wire(sent), inPiecesOf: 64)
        #expect(received == sent)
        #expect(fragments.isEmpty)
    }

    @Test("a stream that ends before [DONE] has no completion")
    func noDone() throws {
        let text = wire(completion(content: answer))
        let (_, received) = try read(String(text.dropLast("data: [DONE]\n\n".count)), inPiecesOf: 512)
        #expect(received == nil)
    }

    @Test("an error event in the stream is a server error")
    func errorEvent() {
        var reader = CompletionStreamReader()
        #expect(throws: CompletionStreamReader.StreamError.self) {
            _ = try reader.read(ByteBuffer(string: "data: {\"error\":{\"message\":\"The server had an error\",\"type\":\"server_error\"}}\n\n"))
        }
    }
}
