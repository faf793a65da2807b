import AsyncHTTPClient
import Foundation
import KiwiConcurrency
import KiwiDevelopment
import KiwiModels
import KiwiOpenAI
import KiwiStrictJSON
import KiwiTestSupport
import NIOCore
import NIOHTTP1
import Testing

@testable import KiwiLLMStub

/// What a client received from a streamed request.
struct ReceivedStream {
    var status: Int
    var contentType: String?
    /// Each event's data (the text after `data: `), in order, `[DONE]` included.
    var events: [String]
    /// Whether the body ended as HTTP says it should, rather than with the connection.
    var complete: Bool

    /// The events' chunks, parsed (`[DONE]` left out).
    var chunks: [JSONValue] {
        get throws { try events.filter { $0 != "[DONE]" }.map { try StrictJSONParser().parse($0) } }
    }

    /// The `content` (or `refusal`) fragments the chunks carry after the first, in order.
    var fragments: [String] {
        get throws {
            try chunks.dropFirst().compactMap { chunk in
                guard case .array(let choices)? = chunk.member("choices"), case .object(let delta)? = choices.first?.member("delta"),
                    case .string(let text)? = delta["content"] ?? delta["refusal"]
                else { return nil }
                return text
            }
        }
    }
}

extension JSONValue {
    /// The member `key` of an object; nil for anything else.
    func member(_ key: String) -> JSONValue? {
        guard case .object(let object) = self else { return nil }
        return object[key]
    }

    /// The chunk's kind, as the tests order them: `role` (the first delta), `content` or `refusal` (a fragment),
    /// `finish:REASON`, or `usage` (no choices).
    var chunkKind: String {
        guard case .array(let choices)? = member("choices"), let choice = choices.first else { return "usage" }
        if case .string(let reason)? = choice.member("finish_reason") { return "finish:\(reason)" }
        guard case .object(let delta)? = choice.member("delta") else { return "?" }
        return delta["role"] != nil ? "role" : delta.members.map(\.key).joined(separator: ",")
    }

    /// Every member's path, in order (`choices[].delta.content`), each once.
    var memberPaths: [String] {
        var paths: [String] = []
        func visit(_ value: JSONValue, _ prefix: String) {
            switch value {
            case .object(let object):
                for member in object.members {
                    if !paths.contains(prefix + member.key) { paths.append(prefix + member.key) }
                    visit(member.value, prefix + member.key + ".")
                }
            case .array(let elements):
                for element in elements { visit(element, String(prefix.dropLast()) + "[].") }
            default: break
            }
        }
        visit(self, "")
        return paths
    }
}

/// Each kind of chunk in the order a stream sends them, a run of fragments counted once.
func kindSequence(_ chunks: [JSONValue]) -> [String] {
    chunks.map(\.chunkKind).reduce(into: []) { kinds, kind in if kinds.last != kind { kinds.append(kind) } }
}

/// Each kind of chunk with the member paths its chunks have (under `prefix` only).
func shapes(_ chunks: [JSONValue], under prefix: String = "") -> [String: Set<[String]>] {
    chunks.reduce(into: [:]) { shapes, chunk in shapes[chunk.chunkKind, default: []].insert(chunk.memberPaths.filter { $0.hasPrefix(prefix) }) }
}

/// Each event's data (the text after `data: `) in a server-sent-event body, in order; an event is whole only once a
/// blank line ends it, so a body cut inside one leaves it out.
func events(in body: String) -> [String] {
    body.components(separatedBy: "\n\n").dropLast().map { String($0.dropFirst("data: ".count)) }
}

/// A recorded stream's event data, in order.
func recordedEvents(_ name: String) throws -> [String] {
    events(in: String(decoding: try recorded(name), as: UTF8.self))
}

/// `requestBody(jpeg:)` asking for a stream, with `stream_options.include_usage` when `includeUsage`.
func streamedRequestBody(jpeg: [UInt8], includeUsage: Bool = true) throws -> [UInt8] {
    var body = try StrictJSONParser().parse(String(decoding: requestBody(jpeg: jpeg), as: UTF8.self))
    body.set(["stream"], to: .bool(true))
    if includeUsage { body.set(["stream_options"], to: .object(JSONObject(["include_usage": .bool(true)]))) }
    return Array(body.serialized().utf8)
}

/// Posts `body` and reads the streamed answer until it ends, however it ends, or until `limit` has passed, when it
/// hangs up.
func postStreamed(
    _ body: [UInt8],
    to baseURL: URL,
    clientRequestID: String? = nil,
    readingFor limit: Duration = .seconds(10)
) async throws
    -> ReceivedStream
{
    var request = HTTPClientRequest(url: baseURL.absoluteString + "/chat/completions")
    request.method = .POST
    request.headers.add(name: "Authorization", value: "Bearer sk-test")
    request.headers.add(name: "Content-Type", value: "application/json")
    if let clientRequestID { request.headers.add(name: "X-Client-Request-Id", value: clientRequestID) }
    request.body = .bytes(ByteBuffer(bytes: body))
    let response = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
    let reading = Task { [body = response.body] in
        var text = ""
        do {
            for try await part in body { text += String(buffer: part) }
            return (text, complete: true)
        } catch {
            return (text, complete: false)
        }
    }
    let hangingUp = Task {
        try? await sleep(for: limit)
        reading.cancel()
    }
    defer { hangingUp.cancel() }
    let (text, complete) = await reading.value
    return ReceivedStream(
        status: Int(response.status.code),
        contentType: response.headers.first(name: "content-type"),
        events: events(in: text),
        complete: complete
    )
}

@Suite("kiwi-llm-stub: streamed answers")
struct StreamingTests {
    let photo = SyntheticJPEG.make(size: 4096, seed: 7)

    @Test("a streamed answer has a recorded stream's shape: the same chunks in the same order with the same members, then [DONE]")
    func streamHasTheRecordedShape() async throws {
        let received = try await withLLMStub { url, _ in try await postStreamed(try streamedRequestBody(jpeg: photo), to: url) }
        let recording = try recordedEvents("stream-gpt-4o-text-include-usage.sse.txt")
        let recordedChunks = try recording.dropLast().map { try StrictJSONParser().parse($0) }
        #expect(received.status == 200 && received.complete)
        #expect(received.contentType == "text/event-stream; charset=utf-8")
        #expect(received.events.last == "[DONE]" && recording.last == "[DONE]")
        #expect(kindSequence(try received.chunks) == kindSequence(recordedChunks))
        #expect(shapes(try received.chunks) == shapes(recordedChunks))
        #expect(try received.chunks.allSatisfy { $0.member("object") == .string("chat.completion.chunk") })
    }

    @Test("a stream's fragments join to exactly the answer the same request gets unstreamed")
    func fragmentsJoinToTheAnswer() async throws {
        let (streamed, whole) = try await withLLMStub { url, _ in
            (try await postStreamed(try streamedRequestBody(jpeg: photo), to: url), try await post(requestBody(jpeg: photo), to: url).body)
        }
        let completion = try JSONDecoder().decode(ChatCompletion.self, from: whole)
        #expect(try streamed.fragments.joined() == completion.choices.first?.message.content)
    }

    @Test("a stream's usage chunk carries the usage the same request gets unstreamed")
    func usageIsTheUnstreamedAnswers() async throws {
        let (streamed, whole) = try await withLLMStub { url, _ in
            (try await postStreamed(try streamedRequestBody(jpeg: photo), to: url), try await post(requestBody(jpeg: photo), to: url).body)
        }
        let usage = try #require(try streamed.chunks.last?.member("usage"))
        let decoded = try JSONDecoder().decode(ChatCompletion.Usage.self, from: Data(usage.serialized().utf8))
        #expect(decoded == (try JSONDecoder().decode(ChatCompletion.self, from: whole).usage))
    }

    @Test("a stream asked for without include_usage has no usage chunk and no usage member")
    func noUsageUnlessAsked() async throws {
        let received = try await withLLMStub { url, _ in
            try await postStreamed(try streamedRequestBody(jpeg: photo, includeUsage: false), to: url)
        }
        #expect(kindSequence(try received.chunks) == ["role", "content", "finish:stop"])
        #expect(try received.chunks.allSatisfy { $0.member("usage") == nil })
    }

    @Test("the stub cuts a JSON answer into the fragments gpt-4o streamed it in")
    func fragmentsAreTokenSized() throws {
        let recording = try recordedEvents("stream-gpt-4o-structured-output.sse.txt").dropLast().map { try StrictJSONParser().parse($0) }
        let stream = ReceivedStream(status: 200, events: recording.map { $0.serialized() }, complete: true)
        let fragments = try stream.fragments
        #expect(fragments.count > 10)
        #expect(CompletionStream.fragments(of: fragments.joined()) == fragments)
    }

    @Test("a refusal streams refusal fragments after a first delta with null content, as the recording does")
    func refusalStreamsLikeTheRecording() async throws {
        let received = try await withLLMStub(behaviour: StubBehaviour(fault: .refusal)) { url, _ in
            try await postStreamed(try streamedRequestBody(jpeg: photo), to: url)
        }
        let recorded = try recordedEvents("stream-gpt-4o-refusal.sse.txt").dropLast().map { try StrictJSONParser().parse($0) }
        #expect(kindSequence(try received.chunks) == ["role", "refusal", "finish:stop", "usage"])
        #expect(kindSequence(recorded) == kindSequence(try received.chunks))
        #expect(shapes(try received.chunks, under: "choices") == shapes(recorded, under: "choices"))
        #expect(try received.chunks.first?.member("choices") == recorded.first?.member("choices"))
        #expect(try received.fragments.joined() == "I'm very sorry, but I can't assist with that.")
    }

    @Test("a truncated stream sends the first half of the answer, then finish_reason length and the usage, as the recording does")
    func truncatedStreamFinishesWithLength() async throws {
        let (received, whole) = try await withLLMStub(behaviour: StubBehaviour(fault: .truncated)) { url, state in
            let received = try await postStreamed(try streamedRequestBody(jpeg: photo), to: url)
            state.setBehaviour(StubBehaviour())
            return (received, try await post(requestBody(jpeg: photo), to: url).body)
        }
        let recorded = try recordedEvents("stream-gpt-4o-finish-length.sse.txt").dropLast().map { try StrictJSONParser().parse($0) }
        let answer = try #require(try JSONDecoder().decode(ChatCompletion.self, from: whole).choices.first?.message.content)
        #expect(kindSequence(try received.chunks) == kindSequence(recorded))
        #expect(try received.fragments.joined() == String(answer.prefix(answer.count / 2)))
    }

    @Test("a stream-cut fault closes the connection part-way: no fragment after its point, no finish and no [DONE]")
    func streamCutEndsPartWay() async throws {
        var behaviour = StubBehaviour(fault: .streamCut)
        behaviour.streamFaultAt = 0.25
        let (received, whole) = try await withLLMStub(behaviour: behaviour) { url, state in
            let received = try await postStreamed(try streamedRequestBody(jpeg: photo), to: url)
            state.setBehaviour(StubBehaviour())
            return (received, try await post(requestBody(jpeg: photo), to: url).body)
        }
        let answer = try #require(try JSONDecoder().decode(ChatCompletion.self, from: whole).choices.first?.message.content)
        let all = CompletionStream.fragments(of: answer)
        #expect(!received.complete)
        #expect(kindSequence(try received.chunks) == ["role", "content"])
        let sent = all.prefix(all.count / 4)
        // A cut connection can lose the last bytes sent before it: what arrives is the start of what was sent.
        #expect(try !received.fragments.isEmpty && sent.starts(with: received.fragments))
    }

    @Test("a stream-cut fault scoped to an X-Client-Request-Id cuts only that id's streams")
    func scopedStreamCut() async throws {
        let (other, scoped) = try await withLLMStub { url, state in
            state.setBehaviour(StubBehaviour(fault: .streamCut), scope: "scan-a")
            return (
                try await postStreamed(try streamedRequestBody(jpeg: photo), to: url, clientRequestID: "scan-b"),
                try await postStreamed(try streamedRequestBody(jpeg: photo), to: url, clientRequestID: "scan-a")
            )
        }
        #expect(other.complete && other.events.last == "[DONE]")
        #expect(!scoped.complete && scoped.events.last != "[DONE]")
    }

    @Test("a stall with a stall time resumes and the stream ends whole")
    func timedStallResumes() async throws {
        var behaviour = StubBehaviour(fault: .streamStall)
        behaviour.stallMilliseconds = 50
        let received = try await withLLMStub(behaviour: behaviour) { url, _ in try await postStreamed(try streamedRequestBody(jpeg: photo), to: url) }
        #expect(received.complete)
        #expect(kindSequence(try received.chunks) == ["role", "content", "finish:stop", "usage"])
    }

    @Test("a stall without a stall time sends nothing after its point, and its handler ends when the client hangs up")
    func endlessStallEndsWithItsClient() async throws {
        let (received, inFlight) = try await withLLMStub(behaviour: StubBehaviour(fault: .streamStall)) { url, state in
            let received = try await postStreamed(try streamedRequestBody(jpeg: photo), to: url, readingFor: .milliseconds(500))
            let deadline = ContinuousClock.now + .seconds(5)
            while state.snapshot.inFlight > 0, ContinuousClock.now < deadline { try await sleep(for: .milliseconds(50)) }
            return (received, state.snapshot.inFlight)
        }
        #expect(!received.complete)
        #expect(kindSequence(try received.chunks) == ["role", "content"])
        #expect(inFlight == 0)
    }

    @Test("a request with stream false is answered with one JSON completion")
    func streamFalseIsUnstreamed() async throws {
        var body = try StrictJSONParser().parse(String(decoding: requestBody(jpeg: photo), as: UTF8.self))
        body.set(["stream"], to: .bool(false))
        let request = Array(body.serialized().utf8)
        let (status, headers, data) = try await withLLMStub { url, _ in try await post(request, to: url) }
        #expect(status == 200 && headers.first(name: "content-type") == "application/json")
        #expect(try JSONDecoder().decode(ChatCompletion.self, from: data).object == "chat.completion")
    }

    @Test("a behaviour body sets a stream's pace, its jitters and its mid-stream fault")
    func behaviourBodySetsThePace() async throws {
        let body = #"""
            {"fault":"stream-stall","timeToFirstTokenMilliseconds":5,"timeToFirstTokenJitterMilliseconds":1,"tokensPerSecond":500,
            "tokensPerSecondJitter":50,"streamFaultAt":0.75,"stallMilliseconds":20}
            """#
        let (status, current) = try await withLLMStub { url, state in (try await putBehaviour(body, to: url).status, state.snapshot.behaviour) }
        var expected = StubBehaviour(fault: .streamStall)
        (expected.timeToFirstTokenMilliseconds, expected.timeToFirstTokenJitterMilliseconds) = (5, 1)
        (expected.tokensPerSecond, expected.tokensPerSecondJitter) = (500, 50)
        (expected.streamFaultAt, expected.stallMilliseconds) = (0.75, 20)
        #expect(status == 200)
        #expect(current == expected)
    }

    @Test(
        "a behaviour body with a negative pace, a negative stall or a fault point outside 0 to 1 is refused with 400",
        arguments: [#"{"tokensPerSecond":-1}"#, #"{"stallMilliseconds":-1}"#, #"{"streamFaultAt":1.5}"#]
    )
    func invalidPaceIs400(_ body: String) async throws {
        let status = try await withLLMStub { url, _ in try await putBehaviour(body, to: url).status }
        #expect(status == 400)
    }

    @Test("a pace without jitter puts each token one interval after the one before, the first at the time to first token")
    func paceWithoutJitter() {
        var behaviour = StubBehaviour()
        (behaviour.timeToFirstTokenMilliseconds, behaviour.timeToFirstTokenJitterMilliseconds) = (400, 0)
        (behaviour.tokensPerSecond, behaviour.tokensPerSecondJitter) = (80, 0)
        let pace = StreamPace(drawnFrom: behaviour)
        #expect(pace.timeToFirstToken == .milliseconds(400))
        #expect(pace.offset(ofToken: 0) == .zero)
        #expect(pace.offset(ofToken: 80) == .seconds(1))
    }

    @Test("a drawn pace stays within its means ± jitters")
    func paceStaysWithinJitter() {
        var behaviour = StubBehaviour()
        (behaviour.timeToFirstTokenMilliseconds, behaviour.timeToFirstTokenJitterMilliseconds) = (390, 150)
        (behaviour.tokensPerSecond, behaviour.tokensPerSecondJitter) = (81, 20)
        let paces = (0..<200).map { _ in StreamPace(drawnFrom: behaviour) }
        let firstTokens = paces.map { $0.timeToFirstToken / .milliseconds(1) }
        let speeds = paces.map { 1 / ($0.tokenInterval / .seconds(1)) }
        let firstTokenMean = Double(behaviour.timeToFirstTokenMilliseconds)
        let firstTokenJitter = Double(behaviour.timeToFirstTokenJitterMilliseconds)
        #expect(firstTokens.allSatisfy { abs($0 - firstTokenMean) <= firstTokenJitter + 0.5 })
        #expect(speeds.allSatisfy { abs($0 - behaviour.tokensPerSecond) <= behaviour.tokensPerSecondJitter + 1e-6 })
        #expect(Set(firstTokens).count > 1)
    }

    @Test("a pace of 0 tokens per second and a time to first token of 0 send every token at once, whatever the jitters")
    func zeroPaceIsInstant() {
        var behaviour = StubBehaviour()
        (behaviour.timeToFirstTokenJitterMilliseconds, behaviour.tokensPerSecondJitter) = (150, 20)
        let paces = (0..<50).map { _ in StreamPace(drawnFrom: behaviour) }
        #expect(paces.allSatisfy { $0.timeToFirstToken == .zero && $0.offset(ofToken: 1_000) == .zero })
    }

    @Test("the latency delays a stream's first token, before its time to first token")
    func latencyDelaysTheFirstToken() async throws {
        let started = ContinuousClock.now
        let received = try await withLLMStub(behaviour: StubBehaviour(latencyMilliseconds: 300)) { url, _ in
            try await postStreamed(try streamedRequestBody(jpeg: photo), to: url)
        }
        #expect(received.complete)
        #expect(ContinuousClock.now - started >= .milliseconds(300))
    }
}
