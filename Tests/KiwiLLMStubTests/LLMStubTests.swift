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

/// A minimal valid request, as a Kiwi worker sends it.
func requestBody(
    jpeg: [UInt8],
    model: String? = "gpt-4o",
    responseFormat: Bool = true,
    imageURL: String? = nil,
    schema: JSONValue = ScanResponseContract.jsonSchema(answeringIn: .en)
) -> [UInt8] {
    var request = JSONObject()
    if let model { request["model"] = .string(model) }
    let url = imageURL ?? "data:image/jpeg;base64,\(Data(jpeg).base64EncodedString())"
    request["messages"] = .array([
        .object(JSONObject(["role": .string("system"), "content": .string("You are Kiwi.")])),
        .object(
            JSONObject([
                "role": .string("user"),
                "content": .array([
                    .object(
                        JSONObject([
                            "type": .string("image_url"), "image_url": .object(JSONObject(["url": .string(url), "detail": .string("high")])),
                        ])
                    )
                ]),
            ])
        ),
    ])
    if responseFormat {
        request["response_format"] = .object(
            JSONObject([
                "type": .string("json_schema"),
                "json_schema": .object(JSONObject(["name": .string("kiwi_scan"), "strict": .bool(true), "schema": schema])),
            ])
        )
    }
    return Array(JSONValue.object(request).serialized().utf8)
}

/// Posts to the stub's chat completions endpoint.
func post(
    _ body: [UInt8],
    to baseURL: URL,
    key: String? = "sk-test",
    clientRequestID: String? = nil,
    timeout: TimeAmount = .seconds(10)
) async throws -> (status: Int, headers: HTTPHeaders, body: Data) {
    var request = HTTPClientRequest(url: baseURL.absoluteString + "/chat/completions")
    request.method = .POST
    if let clientRequestID { request.headers.add(name: "X-Client-Request-Id", value: clientRequestID) }
    if let key { request.headers.add(name: "Authorization", value: "Bearer \(key)") }
    request.headers.add(name: "Content-Type", value: "application/json")
    request.body = .bytes(ByteBuffer(bytes: body))
    let response = try await HTTPClient.shared.execute(request, timeout: timeout)
    let data = Data(try await response.body.collect(upTo: 1 << 20).readableBytesView)
    return (Int(response.status.code), response.headers, data)
}

@Suite("kiwi-llm-stub")
struct LLMStubTests {
    let photo = SyntheticJPEG.make(size: 4096, seed: 3)

    @Test("a good request gets a chat.completion whose content passes the shared validator, with usage figures")
    func answersValidCompletion() async throws {
        let (status, headers, body) = try await withLLMStub { url, _ in try await post(requestBody(jpeg: photo), to: url) }
        #expect(status == 200)
        #expect(headers.first(name: "openai-processing-ms") != nil)
        let completion = try JSONDecoder().decode(ChatCompletion.self, from: body)
        #expect(completion.object == "chat.completion")
        #expect(completion.choices.first?.finishReason == "stop")
        let content = try #require(completion.choices.first?.message.content)
        let response = try ScanResponseContract.validateModelAnswer(Data(content.utf8), idSeed: UUID())
        #expect(!response.ingredients.isEmpty && (2...4).contains(response.recipes.count))
        let usage = try #require(completion.usage)
        #expect(usage.promptTokens > 85 && usage.completionTokens > 0 && usage.totalTokens == usage.promptTokens + usage.completionTokens)
    }

    @Test("asked to, the stub saves the first valid request's body exactly, and no later one")
    func savesTheFirstRequest() async throws {
        let file = FileManager.default.temporaryDirectory.appending(path: "kiwi-stub-sample-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        let first = requestBody(jpeg: SyntheticJPEG.make(size: 2048, seed: 1))
        let statuses = try await withLLMStub(savingFirstRequestTo: file.path) { baseURL, _ in
            [
                try await post(Array("{}".utf8), to: baseURL).status,
                try await post(first, to: baseURL).status,
                try await post(requestBody(jpeg: SyntheticJPEG.make(size: 2048, seed: 2)), to: baseURL).status,
            ]
        }
        #expect(statuses == [400, 200, 200])
        #expect(Array(try Data(contentsOf: file)) == first)
    }

    @Test("the same photo always gets the same answer, and different photos get different ones")
    func answersAreDeterministicAndVaried() throws {
        func content(_ seed: UInt64) throws -> String {
            let image = try JPEGImage(parsing: SyntheticJPEG.make(size: 2048, seed: seed))
            let request = CheckedRequest(parameters: RequestParameters(model: "gpt-4o", strictSchema: true, messageCount: 2), images: [image])
            let digest = Array(SHA256.hash(data: image.bytes))
            return ChatCompletionsController.completion(for: request, digest: digest, fault: .none).choices[0].message.content ?? ""
        }
        #expect(try content(1) == content(1))
        #expect(try Set((1...12).map(content)).count > 3)
    }

    @Test("a request without an API key is refused with 401 in OpenAI's error shape")
    func missingKeyIs401() async throws {
        let (status, _, body) = try await withLLMStub { url, _ in try await post(requestBody(jpeg: photo), to: url, key: nil) }
        #expect(status == 401)
        let error = try JSONDecoder().decode(OpenAIErrorBody.self, from: body)
        #expect(error.error.type == "invalid_request_error")
    }

    @Test("a wrong API key is refused when the stub expects one")
    func wrongKeyIs401() async throws {
        let (status, _, body) = try await withLLMStub(expectedAPIKey: "sk-right") { url, _ in
            try await post(requestBody(jpeg: photo), to: url, key: "sk-wrong")
        }
        #expect(status == 401)
        #expect(try JSONDecoder().decode(OpenAIErrorBody.self, from: body).error.code == "invalid_api_key")
    }

    @Test(
        "malformed requests are refused with 400 naming the problem",
        arguments: [
            ("no model", "model"), ("no response_format", "response_format"), ("not a data URL", "url"), ("not a JPEG", nil),
            ("not JSON", nil),
        ] as [(String, String?)]
    )
    func malformedRequestIs400(_ problem: String, _ param: String?) async throws {
        let body: [UInt8] =
            switch problem {
            case "no model": requestBody(jpeg: photo, model: nil)
            case "no response_format": requestBody(jpeg: photo, responseFormat: false)
            case "not a data URL": requestBody(jpeg: photo, imageURL: "https://example.com/fridge.jpg")
            case "not a JPEG": requestBody(jpeg: [0x89, 0x50, 0x4E, 0x47, 1, 2, 3])
            default: Array("{\"model\":".utf8)
            }
        let (status, count, body2) = try await withLLMStub { url, state in
            let (status, _, body) = try await post(body, to: url)
            return (status, state.snapshot.invalidRequests, body)
        }
        #expect(status == 400)
        #expect(count == 1)
        let error = try JSONDecoder().decode(OpenAIErrorBody.self, from: body2)
        #expect(error.error.type == "invalid_request_error")
        if let param { #expect(error.error.param == param) }
    }

    @Test("a fault with a count is served that many times, then the stub answers normally again")
    func faultCountRunsOut() async throws {
        let statuses = try await withLLMStub(behaviour: StubBehaviour(fault: .serverError, faultCount: 2)) { url, _ in
            var statuses: [Int] = []
            for _ in 0..<3 { statuses.append(try await post(requestBody(jpeg: photo), to: url).status) }
            return statuses
        }
        #expect(statuses == [500, 500, 200])
    }

    @Test("a behaviour scoped to an X-Client-Request-Id applies to that id's requests only, set through the admin API")
    func scopedFaultAppliesToItsRequestsOnly() async throws {
        let statuses = try await withLLMStub { url, _ in
            var change = HTTPClientRequest(url: url.deletingLastPathComponent().absoluteString + "admin/behaviour?scope=test-a")
            change.method = .PUT
            change.headers.add(name: "Content-Type", value: "application/json")
            change.body = .bytes(
                ByteBuffer(string: #"{"fault":"server-error","faultCount":1,"latencyMilliseconds":0,"jitterMilliseconds":0,"retryAfterSeconds":1}"#)
            )
            #expect(try await HTTPClient.shared.execute(change, timeout: .seconds(5)).status == .ok)
            return [
                try await post(requestBody(jpeg: photo), to: url, clientRequestID: "test-b").status,
                try await post(requestBody(jpeg: photo), to: url).status,
                try await post(requestBody(jpeg: photo), to: url, clientRequestID: "test-a").status,
                try await post(requestBody(jpeg: photo), to: url, clientRequestID: "test-a").status,
            ]
        }
        #expect(statuses == [200, 200, 500, 200])
    }

    @Test("a slow fault's handler ends when its client hangs up")
    func slowFaultEndsWhenClientLeaves() async throws {
        let inFlight = try await withLLMStub(behaviour: StubBehaviour(fault: .slow)) { url, state in
            _ = try? await post(requestBody(jpeg: photo), to: url, timeout: .milliseconds(500))
            let deadline = ContinuousClock.now + .seconds(5)
            while state.snapshot.inFlight > 0, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(50)) }
            return state.snapshot.inFlight
        }
        #expect(inFlight == 0)
    }

    @Test("a rate-limit fault carries retry-after and retry-after-ms")
    func rateLimitCarriesRetryAfter() async throws {
        let (status, headers, body) = try await withLLMStub(behaviour: StubBehaviour(fault: .rateLimit, retryAfterSeconds: 2.5)) { url, _ in
            try await post(requestBody(jpeg: photo), to: url)
        }
        #expect(status == 429)
        #expect(headers.first(name: "retry-after") == "3")
        #expect(headers.first(name: "retry-after-ms") == "2500")
        #expect(try JSONDecoder().decode(OpenAIErrorBody.self, from: body).error.code == "rate_limit_exceeded")
    }

    @Test("the stub records images that still carry metadata segments")
    func recordsMetadata() async throws {
        let stats = try await withLLMStub { url, state in
            _ = try await post(requestBody(jpeg: JPEGFixtures.withMetadata(photo)), to: url)
            _ = try await post(requestBody(jpeg: photo), to: url)
            return state.snapshot
        }
        #expect(stats.imagesWithMetadata == 1)
        #expect(stats.recent.map(\.metadataSegments) == [["APP1", "APP1", "APP2", "APP13", "COM"], []])
    }

    @Test("the admin endpoint changes the behaviour at run time and reports statistics")
    func adminChangesBehaviour() async throws {
        let (status, state) = try await withLLMStub { url, _ in
            let admin = url.deletingLastPathComponent().absoluteString + "admin"
            var change = HTTPClientRequest(url: admin + "/behaviour")
            change.method = .PUT
            change.headers.add(name: "Content-Type", value: "application/json")
            change.body = .bytes(
                ByteBuffer(string: #"{"fault":"unavailable","faultCount":1,"latencyMilliseconds":0,"jitterMilliseconds":0,"retryAfterSeconds":1}"#)
            )
            #expect(try await HTTPClient.shared.execute(change, timeout: .seconds(5)).status == .ok)
            let status = try await post(requestBody(jpeg: photo), to: url).status
            let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: admin + "/state"), timeout: .seconds(5))
            let state = try JSONDecoder().decode(StubStatistics.self, from: Data(try await response.body.collect(upTo: 1 << 20).readableBytesView))
            return (status, state)
        }
        #expect(status == 503)
        #expect(state.requests == 1 && state.faultsServed == 1)
        #expect(state.behaviour.fault == StubFault.none)
    }

    @Test("high-detail prompt tokens follow OpenAI's tile arithmetic")
    func promptTokensFollowTiles() throws {
        // A generated 256×8 image is one tile.
        let image = try JPEGImage(parsing: SyntheticJPEG.make(size: 1024, seed: 1))
        let request = CheckedRequest(
            parameters: RequestParameters(model: "gpt-4o", detail: "high", strictSchema: true, messageCount: 2),
            images: [image]
        )
        #expect(ChatCompletionsController.promptTokens(for: request) == 330 + 85 + 170)
        var low = request
        low.parameters.detail = "low"
        #expect(ChatCompletionsController.promptTokens(for: low) == 330 + 85)
    }

    @Test("a strict schema with an open or partly optional object is refused as OpenAI refuses it", arguments: ["additionalProperties", "required"])
    func looseStrictSchemaIs400(_ loosened: String) async throws {
        guard case .object(var root) = ScanResponseContract.jsonSchema(answeringIn: .en) else {
            Issue.record("schema is not an object")
            return
        }
        root[loosened] = loosened == "required" ? .array([.string("ingredients")]) : .bool(true)
        let loose = requestBody(jpeg: photo, schema: .object(root))
        let (status, body) = try await withLLMStub { url, _ in
            let (status, _, body) = try await post(loose, to: url)
            return (status, body)
        }
        #expect(status == 400)
        let error = try JSONDecoder().decode(OpenAIErrorBody.self, from: body).error
        #expect(error.code == "invalid_json_schema" && error.message.contains(loosened == "required" ? "Missing 'recipes'" : "additionalProperties"))
    }

    /// Posts a request with `schema` (and `name`) to a fresh stub; returns the status and OpenAI's error, if any.
    private func postSchema(_ schema: JSONValue, name: String = "kiwi_scan") async throws -> (status: Int, error: OpenAIErrorBody.Detail?) {
        var body = try StrictJSONParser().parse(String(decoding: requestBody(jpeg: photo, schema: schema), as: UTF8.self))
        body.set(["response_format", "json_schema", "name"], to: .string(name))
        let request = Array(body.serialized().utf8)
        let (status, data) = try await withLLMStub { url, _ in
            let (status, _, data) = try await post(request, to: url)
            return (status, data)
        }
        return (status, try? JSONDecoder().decode(OpenAIErrorBody.self, from: data).error)
    }

    @Test("the response schema Kiwi sends passes the stub's Structured Outputs checks")
    func kiwiSchemaPasses() async throws {
        #expect(try await postSchema(ScanResponseContract.jsonSchema(answeringIn: .en)).status == 200)
    }

    @Test(
        "a strict schema with a keyword Structured Outputs does not support is refused with OpenAI's 400",
        arguments: ["minLength", "maxLength", "allOf", "not", "if", "default", "uniqueItems", "patternProperties"]
    )
    func unsupportedKeywordIs400(_ keyword: String) async throws {
        var schema = ScanResponseContract.jsonSchema(answeringIn: .en)
        let value: JSONValue =
            ["minLength", "maxLength"].contains(keyword) ? .number(JSONNumber(1)) : keyword == "uniqueItems" ? .bool(true) : .object(JSONObject())
        schema.set(["properties", "recipes", "items", "properties", "name", keyword], to: value)
        let (status, error) = try await postSchema(schema)
        #expect(status == 400)
        #expect(error?.type == "invalid_request_error" && error?.code == "invalid_json_schema" && error?.param == "response_format")
        #expect(
            error?.message
                == "Invalid schema for response_format 'kiwi_scan': In context=('properties', 'recipes', 'items', 'properties', 'name'), '\(keyword)' is not permitted."
        )
    }

    @Test("a schema name outside [a-zA-Z0-9_-]{1,64} is refused", arguments: ["kiwi scan", "", String(repeating: "k", count: 65), "kiwi.scan"])
    func invalidSchemaNameIs400(_ name: String) async throws {
        let (status, error) = try await postSchema(ScanResponseContract.jsonSchema(answeringIn: .en), name: name)
        #expect(status == 400)
        #expect(error?.param == "response_format.json_schema.name")
    }

    @Test("a schema nesting objects deeper than OpenAI allows is refused")
    func deepNestingIs400() async throws {
        var deepest: JSONValue = .object(JSONObject(["type": .string("string")]))
        for level in 0..<6 {
            deepest = .object(
                JSONObject([
                    "type": .string("object"), "properties": .object(JSONObject(["level\(level)": deepest])),
                    "required": .array([.string("level\(level)")]),
                    "additionalProperties": .bool(false),
                ])
            )
        }
        let (status, error) = try await postSchema(deepest)
        #expect(status == 400)
        #expect(error?.message.contains("6 levels of nesting exceeds limit of 5") == true)
    }
}
