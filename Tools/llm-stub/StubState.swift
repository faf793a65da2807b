import Foundation
import NIOCore
import Synchronization

/// How the stub behaves now; changed at start-up by flags and at run time through `PUT /admin/behaviour`, whose body
/// may leave out any field (see ``init(from:)``).
struct StubBehaviour: Codable, Sendable, Hashable {
    var fault: StubFault = .none
    /// How many requests the fault applies to before the stub answers normally again; nil means until changed.
    var faultCount: Int?
    /// How many requests are answered normally before the fault starts, each taking one of ``answers``: a fault
    /// part-way through a scan's calls, such as a refusal of the repair a first answer needed. nil: at once.
    var faultAfter: Int?
    /// Mean simulated model latency: how long the model thinks before it answers, streamed or not (a stream's first
    /// token comes this long plus its time to first token after the request).
    var latencyMilliseconds = 0
    /// Each latency is drawn uniformly from mean ± jitter.
    var jitterMilliseconds = 0
    /// What a `rate-limit` fault asks clients to wait.
    var retryAfterSeconds = 1.0
    /// How many of each answer's prompt tokens `usage` says came from the prompt cache (none unless set).
    var cachedPromptTokens: Int?
    /// The organisation's requests per minute: when set, every answer carries `x-ratelimit-*-requests` headers
    /// counting down through a one-minute window, and requests past the limit get 429 until it resets.
    var requestsPerMinute: Int?
    /// The exact answers (the message's `content`) the model gives, one per request in order, the last one for every
    /// request after it; a fault, when set, answers instead. A test dictates with it what the model says.
    var answers: [String]?
    /// A stream's mean time to first token and its jitter (drawn once per request from mean ± jitter, ``StreamPace``):
    /// none unless set, so that a test's streams are over at once; the stub's command starts with gpt-4o's.
    var timeToFirstTokenMilliseconds = 0
    var timeToFirstTokenJitterMilliseconds = 0
    /// A stream's mean pace after its first token and its jitter (drawn once per request); 0, the default, is no pace:
    /// every token at once.
    var tokensPerSecond = 0.0
    var tokensPerSecondJitter = 0.0
    /// How far into a streamed answer's fragments (0 to 1) a `stream-cut` or `stream-stall` fault strikes.
    var streamFaultAt = 0.5
    /// How long a `stream-stall` fault stops sending; nil: until the client hangs up.
    var stallMilliseconds: Int?
    /// Which receipt a receipt's photos get: by default the one their hash picks.
    var receipts: ReceiptAnswers.Choice = .byPhoto
}

extension StubBehaviour {
    /// The `JSONDecoder.userInfo` key of the behaviour that supplies the fields a decoded body leaves out.
    static let defaultsKey = CodingUserInfoKey(rawValue: "kiwi.llm-stub.defaults")!

    /// Decodes a behaviour from a body that may leave out any field: each takes its value from the behaviour under
    /// ``defaultsKey`` in the decoder's `userInfo` (the stub's start-up behaviour, so `KIWI_STUB_LATENCY_MS` survives a
    /// fault set for a drill), else the built-in default; never from the behaviour the body replaces. A member the
    /// behaviour does not have is refused, so that a misspelt field is not silently left at its default.
    init(from decoder: any Decoder) throws {
        let unknown = try decoder.container(keyedBy: AnyCodingKey.self).allKeys.map(\.stringValue).filter { CodingKeys(stringValue: $0) == nil }
        guard unknown.isEmpty else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: [], debugDescription: "Unknown behaviour field: \(unknown.sorted().joined(separator: ", ")).")
            )
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        var behaviour = decoder.userInfo[Self.defaultsKey] as? StubBehaviour ?? StubBehaviour()
        func read<Value: Decodable>(_ key: CodingKeys, _ field: WritableKeyPath<StubBehaviour, Value>) throws {
            if container.contains(key) { behaviour[keyPath: field] = try container.decode(Value.self, forKey: key) }
        }
        try read(.fault, \.fault)
        try read(.faultCount, \.faultCount)
        try read(.faultAfter, \.faultAfter)
        try read(.latencyMilliseconds, \.latencyMilliseconds)
        try read(.jitterMilliseconds, \.jitterMilliseconds)
        try read(.retryAfterSeconds, \.retryAfterSeconds)
        try read(.cachedPromptTokens, \.cachedPromptTokens)
        try read(.requestsPerMinute, \.requestsPerMinute)
        try read(.answers, \.answers)
        try read(.timeToFirstTokenMilliseconds, \.timeToFirstTokenMilliseconds)
        try read(.timeToFirstTokenJitterMilliseconds, \.timeToFirstTokenJitterMilliseconds)
        try read(.tokensPerSecond, \.tokensPerSecond)
        try read(.tokensPerSecondJitter, \.tokensPerSecondJitter)
        try read(.streamFaultAt, \.streamFaultAt)
        try read(.stallMilliseconds, \.stallMilliseconds)
        try read(.receipts, \.receipts)
        self = behaviour
    }

    /// The behaviour for one request; a fault waiting for its start lets one more request through, and a limited
    /// fault has one request fewer left, and ends after its last.
    fileprivate mutating func take() -> StubBehaviour {
        var current = self
        if fault != .none, let before = faultAfter, before > 0 {
            current.fault = .none
            faultAfter = before > 1 ? before - 1 : nil
            if let answers, answers.count > 1 { self.answers = Array(answers.dropFirst()) }
            return current
        }
        if fault == .none, let answers, answers.count > 1 { self.answers = Array(answers.dropFirst()) }
        if fault != .none, let remaining = faultCount {
            if remaining <= 1 {
                fault = .none
                faultCount = nil
            } else {
                faultCount = remaining - 1
            }
        }
        return current
    }
}

/// Any member name of a JSON object.
private struct AnyCodingKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }

    init(stringValue: String) {
        self.stringValue = stringValue
    }

    init?(intValue: Int) {
        nil
    }
}

/// One request the stub received, as tests and operators inspect it. No image bytes are kept.
struct ReceivedRequest: Codable, Sendable, Hashable {
    var parameters: RequestParameters
    /// SHA-256 of the decoded image, and of its bytes from the first start-of-scan marker to the end.
    var imageSHA256: String
    var scanDataSHA256: String
    var imageBytes: Int
    /// Metadata segments (APP1–APP15, COM) the images still carried, all of them together; empty is what Kiwi promises.
    var metadataSegments: [String]
    /// How many images the request carried (the SHA-256s and size above are the first's).
    var imageCount = 1
    /// What the stub did with it.
    var fault: StubFault
}

/// What the stub has seen since it started (or was reset).
struct StubStatistics: Codable, Sendable, Hashable {
    var behaviour: StubBehaviour
    /// Behaviours that apply only to requests whose `X-Client-Request-Id` is the key (a Kiwi worker sends the scan's
    /// request id there): a test can fault its own scans while others share the stub.
    var scopedBehaviours: [String: StubBehaviour] = [:]
    /// Behaviours that apply only to requests for one model: a test gives each model route of a worker (`LLM_MODELS`)
    /// its own faults.
    var modelBehaviours: [String: StubBehaviour] = [:]
    /// Requests to `/v1/chat/completions`, valid or not.
    var requests = 0
    /// Requests refused as invalid (400/401), as OpenAI would.
    var invalidRequests = 0
    /// Valid requests by the model they asked for.
    var requestsByModel: [String: Int] = [:]
    /// Requests answered 429 because they were over `requestsPerMinute`.
    var requestsOverLimit = 0
    /// Requests that got a fault instead of a normal answer.
    var faultsServed = 0
    /// Requests being answered now, and the most there were at once.
    var inFlight = 0
    var maxInFlight = 0
    /// Requests with an image that still carried metadata segments: must stay 0 behind a Kiwi worker.
    var imagesWithMetadata = 0
    /// The most recent valid requests, newest last (at most ``StubState/recentLimit``).
    var recent: [ReceivedRequest] = []
}

/// The stub's mutable state, shared by its handlers.
final class StubState: Sendable {
    static let recentLimit = 200
    /// The behaviour the stub started with: what a `PUT /admin/behaviour` body's missing fields take.
    let defaults: StubBehaviour
    private let statistics: Mutex<StubStatistics>
    /// The current rate-limit window: when it started and the requests counted in it.
    private let window = Mutex<(start: ContinuousClock.Instant, requests: Int)>((.now, 0))

    /// Where the first valid request's body is written, once (`--save-request`); nil once written, or never asked.
    private let sampleFile: Mutex<String?>

    init(behaviour: StubBehaviour, savingFirstRequestTo sampleFile: String? = nil) {
        defaults = behaviour
        statistics = Mutex(StubStatistics(behaviour: behaviour))
        self.sampleFile = Mutex(sampleFile)
    }

    /// Writes `body` to the sample file if no request was written there yet: the request a Kiwi worker really sent,
    /// which the peer benchmark (`make bench-peer`) replays through another proxy.
    func sample(_ body: ByteBuffer) throws {
        guard let path = sampleFile.withLock({ $0.take() }) else { return }
        try Data(body.readableBytesView).write(to: URL(fileURLWithPath: path), options: .atomic)
    }

    var snapshot: StubStatistics { statistics.withLock { $0 } }

    /// Sets the behaviour of every request; with `scope` only of those whose `X-Client-Request-Id` is `scope`; with
    /// `model` only of those for that model.
    func setBehaviour(_ behaviour: StubBehaviour, scope: String? = nil, model: String? = nil) {
        statistics.withLock { statistics in
            if let scope {
                statistics.scopedBehaviours[scope] = behaviour
            } else if let model {
                statistics.modelBehaviours[model] = behaviour
            } else {
                statistics.behaviour = behaviour
            }
        }
    }

    /// Forgets everything seen, keeping the behaviour.
    func reset() {
        statistics.withLock {
            $0 = StubStatistics(
                behaviour: $0.behaviour,
                scopedBehaviours: $0.scopedBehaviours,
                modelBehaviours: $0.modelBehaviours,
                inFlight: $0.inFlight
            )
        }
    }

    /// Ends what ``beginRequest()`` began.
    func endRequest() {
        statistics.withLock { $0.inFlight -= 1 }
    }

    /// Counts a request; end it with ``endRequest()``.
    func beginRequest() {
        statistics.withLock { statistics in
            statistics.requests += 1
            statistics.inFlight += 1
            statistics.maxInFlight = max(statistics.maxInFlight, statistics.inFlight)
        }
    }

    /// The behaviour for a valid request with this `X-Client-Request-Id` for `model` (its scope's, else its
    /// model's, else everyone's), using up one of a limited fault's requests (invalid requests use none).
    func takeBehaviour(scope: String? = nil, model: String? = nil) -> StubBehaviour {
        statistics.withLock { statistics in
            if let model { statistics.requestsByModel[model, default: 0] += 1 }
            if let scope, statistics.scopedBehaviours[scope] != nil { return statistics.scopedBehaviours[scope]!.take() }
            if let model, statistics.modelBehaviours[model] != nil { return statistics.modelBehaviours[model]!.take() }
            return statistics.behaviour.take()
        }
    }

    /// Counts a request against a limit of `perMinute` requests per one-minute window: the requests left after it,
    /// the time until the window resets, and whether it is over the limit.
    func countRequest(perMinute limit: Int, now: ContinuousClock.Instant = .now) -> (remaining: Int, resetIn: Duration, exceeded: Bool) {
        let counted = window.withLock { window in
            if now - window.start >= .seconds(60) { window = (now, 0) }
            window.requests += 1
            return (remaining: max(0, limit - window.requests), resetIn: window.start + .seconds(60) - now, exceeded: window.requests > limit)
        }
        if counted.exceeded { statistics.withLock { $0.requestsOverLimit += 1 } }
        return counted
    }

    func recordInvalid() {
        statistics.withLock { $0.invalidRequests += 1 }
    }

    func record(_ request: ReceivedRequest) {
        statistics.withLock { statistics in
            if request.fault != .none && request.fault != .noFood { statistics.faultsServed += 1 }
            if !request.metadataSegments.isEmpty { statistics.imagesWithMetadata += 1 }
            statistics.recent.append(request)
            if statistics.recent.count > Self.recentLimit { statistics.recent.removeFirst(statistics.recent.count - Self.recentLimit) }
        }
    }
}
