import AsyncHTTPClient
import Crypto
import Foundation
import KiwiDevelopment
import KiwiJPEG
import KiwiModels
import KiwiOpenAI
import KiwiStrictJSON
import KiwiTestSupport
import NIOCore
import NIOHTTP1
import Testing

@testable import KiwiLLMStub

/// A recorded OpenAI body from this target's Fixtures folder.
func recorded(_ name: String) throws -> Data {
    let url = try #require(Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures"), "missing fixture \(name)")
    return try Data(contentsOf: url)
}

/// Sets the stub's behaviour through `PUT /admin/behaviour` with `body`; the status and the behaviour it answers.
func putBehaviour(_ body: String, to baseURL: URL) async throws -> (status: Int, body: Data) {
    var request = HTTPClientRequest(url: baseURL.deletingLastPathComponent().absoluteString + "admin/behaviour")
    request.method = .PUT
    request.headers.add(name: "Content-Type", value: "application/json")
    request.body = .bytes(ByteBuffer(string: body))
    let response = try await HTTPClient.shared.execute(request, timeout: .seconds(5))
    return (Int(response.status.code), Data(try await response.body.collect(upTo: 1 << 20).readableBytesView))
}

/// The faults a model under strict Structured Outputs can really produce, and the admin API's partial bodies.
@Suite("kiwi-llm-stub: strict-mode faults")
struct StrictFaultTests {
    let photo = SyntheticJPEG.make(size: 4096, seed: 5)

    /// The completion the stub answers a fridge (or dish) request with under `fault`.
    func completion(_ fault: StubFault, dish: Bool = false) throws -> ChatCompletion {
        let image = try JPEGImage(parsing: photo)
        let parameters = RequestParameters(model: "gpt-4o", strictSchema: true, schemaName: dish ? "kiwi_dish" : "kiwi_scan", messageCount: 2)
        let request = CheckedRequest(parameters: parameters, images: [image])
        return ChatCompletionsController.completion(for: request, digest: Array(SHA256.hash(data: image.bytes)), fault: fault)
    }

    @Test("a partial behaviour body takes the start-up value of every field it leaves out, not the current one")
    func partialBodyTakesStartUpValues() async throws {
        let startUp = StubBehaviour(latencyMilliseconds: 1, retryAfterSeconds: 3)
        let (statuses, answered, current) = try await withLLMStub(behaviour: startUp) { url, state in
            let first = try await putBehaviour(#"{"fault":"refusal","faultCount":2,"retryAfterSeconds":0.5}"#, to: url)
            let second = try await putBehaviour(#"{"fault":"server-error"}"#, to: url)
            return ([first.status, second.status], try JSONDecoder().decode(StubBehaviour.self, from: second.body), state.snapshot.behaviour)
        }
        #expect(statuses == [200, 200])
        #expect(current == StubBehaviour(fault: .serverError, latencyMilliseconds: 1, retryAfterSeconds: 3))
        #expect(answered == current)
    }

    @Test("a behaviour body naming a field the behaviour does not have is refused with 400 naming it")
    func unknownFieldIs400() async throws {
        let (status, body) = try await withLLMStub { url, _ in try await putBehaviour(#"{"fault":"refusal","latencyMs":5}"#, to: url) }
        #expect(status == 400)
        #expect(String(decoding: body, as: UTF8.self).contains("latencyMs"))
    }

    @Test("an over-length answer breaks only the string lengths the strict schema cannot enforce", arguments: [false, true])
    func overLengthBreaksOnlyLengths(_ dish: Bool) throws {
        let content = try #require(try completion(.overLength, dish: dish).choices.first?.message.content)
        let data = Data(content.utf8)
        let error = try #require(throws: ScanResponseValidationError.self) {
            try dish ? DishAnswerContract.validateModelAnswer(data, idSeed: UUID()) : ScanResponseContract.validateModelAnswer(data, idSeed: UUID())
        }
        let recipe = dish ? "$.dish.recipe" : "$.recipes[0]"
        #expect(error.violations.map(\.path) == ["\(recipe).name", "\(recipe).steps[0]"])
        #expect(error.violations.allSatisfy { $0.message.hasPrefix("must be") && $0.message.contains("characters long") })
    }

    @Test("a content-filter stop says content_filter and carries the start of the answer, which is not JSON")
    func contentFilterCarriesTheStart() throws {
        let filtered = try #require(try completion(.contentFilter).choices.first)
        let whole = try #require(try completion(.none).choices.first?.message.content)
        let kept = try #require(filtered.message.content)
        #expect(filtered.finishReason == "content_filter" && filtered.message.refusal == nil)
        #expect(!kept.isEmpty && kept.count < whole.count && whole.hasPrefix(kept))
        #expect(throws: (any Error).self) { try StrictJSONParser().parse(kept) }
    }

    @Test("a refusal has the shape of OpenAI's recorded Structured Outputs refusal")
    func refusalMatchesRecording() throws {
        let stub = try StrictJSONParser().parse(String(decoding: try JSONEncoder().encode(try completion(.refusal)), as: UTF8.self))
        let real = try StrictJSONParser().parse(try recorded("chat-completion-gpt-4o-refusal.json"))
        func choice(_ completion: JSONValue) throws -> (message: JSONObject, finishReason: JSONValue?) {
            guard case .object(let root) = completion, case .array(let choices)? = root["choices"], case .object(let choice)? = choices.first,
                case .object(let message)? = choice["message"]
            else { throw ScanMissingChoice() }
            return (message, choice["finish_reason"])
        }
        let (stubMessage, stubFinish) = try choice(stub)
        let (realMessage, realFinish) = try choice(real)
        #expect(Set(stubMessage.keys) == Set(realMessage.keys))
        #expect(stubMessage["content"] == .null && realMessage["content"] == .null)
        #expect(stubMessage["refusal"] == realMessage["refusal"])
        #expect(stubFinish == realFinish)
    }

    @Test("a fault set to start part-way answers that many requests normally first, each with the next dictated answer")
    func faultAfterStartsPartWay() async throws {
        let behaviour = StubBehaviour(fault: .refusal, faultCount: 1, faultAfter: 2, answers: ["{\"a\":1}", "{\"b\":2}", "{\"c\":3}"])
        let messages = try await withLLMStub(behaviour: behaviour) { url, _ in
            var messages: [ChatCompletion.Message] = []
            for _ in 0..<4 {
                let body = try await post(requestBody(jpeg: photo), to: url).body
                messages.append(try #require(try JSONDecoder().decode(ChatCompletion.self, from: body).choices.first?.message))
            }
            return messages
        }
        #expect(messages.map { $0.content } == ["{\"a\":1}", "{\"b\":2}", nil, "{\"c\":3}"])
        #expect(messages.map { $0.refusal != nil } == [false, false, true, false])
    }

    @Test("a rate-limit fault is OpenAI's 429 on tokens per minute: the recorded body's shape and wording, and its rate-limit headers")
    func tokenRateLimitMatchesRecording() async throws {
        let (status, headers, body) = try await withLLMStub(behaviour: StubBehaviour(fault: .rateLimit, retryAfterSeconds: 2.5)) { url, _ in
            try await post(requestBody(jpeg: photo), to: url)
        }
        #expect(status == 429)
        let stub = try StrictJSONParser().parse(String(decoding: body, as: UTF8.self))
        let real = try StrictJSONParser().parse(try recorded("error-429-rate_limit_exceeded.body.json"))
        guard case .object(let stubRoot) = stub, case .object(let stubError)? = stubRoot["error"], case .object(let realRoot) = real,
            case .object(let realError)? = realRoot["error"],
            case .string(let message)? = stubError["message"], case .string(let realMessage)? = realError["message"]
        else {
            Issue.record("not OpenAI's error shape: \(stub.serialized())")
            return
        }
        #expect(Set(stubError.keys) == Set(realError.keys))
        for key in ["type", "param", "code"] { #expect(stubError[key] == realError[key], "\(key)") }
        let wording = try Regex(
            #"Rate limit reached for gpt-4o in organization \S+ on tokens per min \(TPM\): Limit \d+, Used \d+, Requested \d+\. "#
                + #"Please try again in [0-9.]+m?s\. Visit https://platform\.openai\.com/account/rate-limits to learn more\."#
        )
        #expect(realMessage.wholeMatch(of: wording) != nil)
        #expect(message.wholeMatch(of: wording) != nil, "\(message)")
        #expect(message.contains("Please try again in 2.5s."))

        let sample = String(decoding: try recorded("ratelimit-headers.sample.txt"), as: UTF8.self).split(separator: "\n")
        let names = sample.filter { !$0.hasPrefix("#") }.compactMap { $0.split(separator: ":").first.map(String.init) }
            .filter { $0.hasSuffix("-requests") || $0.hasSuffix("-tokens") }
        #expect(names.count == 6)
        for name in names { #expect(headers.first(name: name) != nil, "\(name)") }
        #expect(headers.first(name: "x-ratelimit-remaining-tokens") == "0")
        #expect(headers.first(name: "x-ratelimit-reset-tokens") == "2.5s")
        #expect(headers.first(name: "retry-after") == "3" && headers.first(name: "retry-after-ms") == "2500")
    }

    @Test(
        "waits and resets are written as Go writes durations, as OpenAI does",
        arguments: [
            (Duration.zero, "0s"), (.milliseconds(12), "12ms"), (.milliseconds(1780), "1.78s"), (.seconds(2), "2s"),
            (.seconds(360), "6m0s"), (.milliseconds(67_500), "1m7.5s"), (.seconds(7200), "2h0m0s"),
        ]
    )
    func goDurations(_ duration: Duration, _ text: String) {
        #expect(ChatCompletionsController.goDuration(duration) == text)
    }
}

/// A recorded or served completion without a first choice and its message.
struct ScanMissingChoice: Error {}
