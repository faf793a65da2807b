import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import KiwiConcurrency
import KiwiDevelopment
import KiwiJPEG
import KiwiModels
import KiwiOpenAI
import KiwiStrictJSON
import NIOCore

/// `POST /v1/chat/completions`: checks the request as OpenAI would, waits the simulated latency, then answers
/// the way the current behaviour says — a good answer picked by the photo's hash, or one of the faults. Asked to stream
/// (`"stream": true`), it sends the same answer as OpenAI's server-sent events (``CompletionStream``) at the
/// behaviour's pace (``StreamPace``), its first token after the latency and the time to first token, where a fault can
/// also strike part-way.
struct ChatCompletionsController: Sendable {
    let state: StubState
    let expectedAPIKey: String?
    /// The longest request body read: a 2 MiB photo in base64 plus the prompt and schema fit easily.
    static let maximumBodySize = 16 * 1024 * 1024

    func addRoutes(to router: Router<StubRequestContext>) {
        router.post("/v1/chat/completions", use: complete)
    }

    func complete(request: Request, context: StubRequestContext) async throws -> Response {
        let started = ContinuousClock.now
        state.beginRequest()
        // A stream's body is written after this returns; the stream ends the request's count itself.
        var streaming = false
        defer { if !streaming { state.endRequest() } }
        let body = try await request.body.collect(upTo: Self.maximumBodySize)
        let checked: CheckedRequest
        do {
            checked = try OpenAIRequestCheck.check(
                authorization: request.headers[.authorization],
                body: Array(body.readableBytesView),
                expectedAPIKey: expectedAPIKey
            )
        } catch {
            state.recordInvalid()
            return Self.errorResponse(error)
        }
        try state.sample(body)
        let behaviour = state.takeBehaviour(scope: request.headers[.clientRequestID], model: checked.parameters.model)
        // The hash of all the images one after the other, without copying them into one buffer first; of a text-only
        // request's user texts.
        var hasher = SHA256()
        for image in checked.images { hasher.update(data: image.bytes) }
        if checked.images.isEmpty { for text in checked.parameters.userTexts { hasher.update(data: Data(text.utf8)) } }
        let digest = Array(hasher.finalize())
        state.record(record(of: checked, digest: digest, fault: behaviour.fault))
        var rateLimitHeaders = HTTPFields()
        if let limit = behaviour.requestsPerMinute {
            let window = state.countRequest(perMinute: limit)
            rateLimitHeaders[.rateLimitLimitRequests] = String(limit)
            rateLimitHeaders[.rateLimitRemainingRequests] = String(window.remaining)
            rateLimitHeaders[.rateLimitResetRequests] = "\(max(1, Int((window.resetIn / .seconds(1)).rounded(.up))))s"
            if window.exceeded {
                return Self.rateLimited(
                    model: checked.parameters.model,
                    on: "requests",
                    "requests per min (RPM): Limit \(limit), Used \(limit), Requested 1.",
                    headers: rateLimitHeaders
                )
            }
        }

        switch behaviour.fault {
        case .rateLimit:
            return Self.tokensRateLimited(checked, wait: .milliseconds(Int64(behaviour.retryAfterSeconds * 1000)), requestHeaders: rateLimitHeaders)
        case .insufficientQuota:
            return Self.errorResponse(
                OpenAIError(
                    status: 429,
                    body: OpenAIErrorBody(
                        message: "You exceeded your current quota, please check your plan and billing details.",
                        type: "insufficient_quota",
                        code: OpenAIErrorBody.insufficientQuota
                    )
                )
            )
        case .serverError:
            return Self.errorResponse(
                OpenAIError(
                    status: 500,
                    body: OpenAIErrorBody(
                        message: "The server had an error while processing your request. Sorry about that!",
                        type: "server_error"
                    )
                )
            )
        case .unavailable:
            return Self.errorResponse(
                OpenAIError(
                    status: 503,
                    body: OpenAIErrorBody(
                        message: "The engine is currently overloaded, please try again later",
                        type: "server_error"
                    )
                )
            )
        case .connectionReset:
            try await context.resetConnection()
            throw HTTPError(.internalServerError)
        case .streamCut where !checked.isStreamed:
            try await context.resetConnection()
            throw HTTPError(.internalServerError)
        case .slow:
            // Never answers, but ends when the client hangs up, as OpenAI's servers do.
            try await context.sleepWhileConnected(for: .seconds(3600))
        case .streamStall where !checked.isStreamed:
            try await context.sleepWhileConnected(for: Self.stall(behaviour))
        default:
            break
        }

        let pace = checked.isStreamed ? StreamPace(drawnFrom: behaviour) : nil
        if let pace {
            // A client that leaves before the first token never gets the stream whose body would end the count.
            try await context.sleepWhileConnected(for: Self.latency(behaviour) + pace.timeToFirstToken)
        } else {
            try await sleep(for: Self.latency(behaviour))
        }
        let completion = Self.completion(
            for: checked,
            digest: digest,
            fault: behaviour.fault,
            dictated: behaviour.answers?.first,
            receipts: behaviour.receipts,
            cachedPromptTokens: behaviour.cachedPromptTokens ?? 0
        )
        let processing = ContinuousClock.now - started
        var headers: HTTPFields = [
            .contentType: pace == nil ? "application/json" : "text/event-stream; charset=utf-8",
            .openAIProcessingMilliseconds: String(processing.milliseconds),
            .requestID: "req_\(UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: ""))",
        ]
        headers.append(contentsOf: rateLimitHeaders)
        guard let pace else {
            let data = try JSONEncoder().encode(completion)
            return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
        }
        let stream = CompletionStream(completion, includeUsage: checked.parameters.includeUsage == true)
        streaming = true
        return Response(status: .ok, headers: headers, body: streamBody(stream, pace: pace, behaviour: behaviour, context: context))
    }

    /// `stream`'s events from now on, one token at a time at `pace` (the opening with the first), then the closing;
    /// under a `stream-cut` or `stream-stall` fault, the fault strikes before the fragment at ``StubBehaviour/streamFaultAt``.
    /// Ends the request's count when the stream ends, however it ends.
    private func streamBody(_ stream: CompletionStream, pace: StreamPace, behaviour: StubBehaviour, context: StubRequestContext) -> ResponseBody {
        let firstToken = ContinuousClock.now
        let faultIndex =
            [.streamCut, .streamStall].contains(behaviour.fault)
            ? min(stream.tokens.count - 1, Int(Double(stream.tokens.count) * behaviour.streamFaultAt)) : nil
        return ResponseBody { [state] writer in
            defer { state.endRequest() }
            var pending = ByteBuffer(string: stream.opening)
            var stalled = Duration.zero
            for (index, token) in stream.tokens.enumerated() {
                if index == faultIndex {
                    try await writer.write(pending)
                    pending.clear()
                    if behaviour.fault == .streamCut {
                        // An orderly close, after what was written: the client sees the body end before its last chunk.
                        // The writer hands its last writes to the socket after returning; the pause lets them through.
                        try await sleep(for: .milliseconds(100))
                        try await context.channel.close()
                        throw CancellationError()
                    }
                    try await context.sleepWhileConnected(for: Self.stall(behaviour))
                    stalled += Self.stall(behaviour)
                }
                let due = firstToken + stalled + pace.offset(ofToken: index)
                if due > .now {
                    if pending.readableBytes > 0 { try await writer.write(pending) }
                    pending.clear()
                    try await sleep(until: due)
                }
                pending.writeString(token)
            }
            pending.writeString(stream.closing)
            try await writer.write(pending)
            try await writer.finish(nil)
        }
    }

    /// How long a `stream-stall` fault stops sending: its stall time, else an hour, which any client gives up first.
    static func stall(_ behaviour: StubBehaviour) -> Duration {
        behaviour.stallMilliseconds.map { .milliseconds($0) } ?? .seconds(3600)
    }

    private func record(of request: CheckedRequest, digest: [UInt8], fault: StubFault) -> ReceivedRequest {
        let image = request.images.first
        return ReceivedRequest(
            parameters: request.parameters,
            imageSHA256: request.images.count == 1 ? digest.hexEncodedString : SHA256.hash(data: image?.bytes ?? []).hexEncodedString,
            scanDataSHA256: SHA256.hash(data: image.map { $0.bytes[$0.scanStart..<$0.end] } ?? []).hexEncodedString,
            imageBytes: image?.bytes.count ?? 0,
            metadataSegments: request.images.flatMap { $0.metadataSegments.map(\.name) },
            imageCount: request.images.count,
            fault: fault
        )
    }

    /// The stub's estimate of how many tokens `text` is, for `usage`: four bytes a token, OpenAI's rule of thumb for
    /// English.
    static func tokens(in text: String) -> Int {
        text.utf8.count / 4
    }

    /// - Parameter dictated: The content to answer with instead of the photo's own answer (``StubBehaviour/answers``).
    /// - Parameter receipts: Which receipt a receipt's photos get (``StubBehaviour/receipts``).
    static func completion(
        for request: CheckedRequest,
        digest: [UInt8],
        fault: StubFault,
        dictated: String? = nil,
        receipts: ReceiptAnswers.Choice = .byPhoto,
        cachedPromptTokens: Int = 0
    ) -> ChatCompletion {
        let own = { request.ownAnswer(forDigest: digest, receipts: receipts) }
        let answer = dictated ?? own().serialized()
        let message: ChatCompletion.Message
        var finishReason = "stop"
        switch fault {
        case .nonStrictProse: message = .init(content: FridgeAnswers.prose, refusal: nil)
        case .nonStrictOffSchema:
            let offSchema =
                request.isDish
                ? DishAnswers.offSchema(forDigest: digest)
                : request.isReceipt ? ReceiptAnswers.offSchema(forDigest: digest) : FridgeAnswers.offSchema(forDigest: digest)
            message = .init(content: offSchema.serialized(), refusal: nil)
        case .overLength:
            message = .init(content: OverLengthAnswer.lengthening(own()).serialized(), refusal: nil)
        case .contentFilter:
            message = .init(content: String(answer.prefix(answer.count / 3)), refusal: nil)
            finishReason = "content_filter"
        case .refusal: message = .init(content: nil, refusal: "I'm very sorry, but I can't assist with that.")
        case .truncated:
            message = .init(content: String(answer.prefix(answer.count / 2)), refusal: nil)
            finishReason = "length"
        case .noFood:
            let none = request.isDish ? DishAnswers.noDish : request.isReceipt ? ReceiptAnswers.notAReceipt : FridgeAnswers.noFood
            message = .init(content: none.serialized(), refusal: nil)
        default: message = .init(content: answer, refusal: nil)
        }
        let completionTokens =
            fault == .truncated ? (request.parameters.maxCompletionTokens ?? 4096) : tokens(in: message.content ?? message.refusal ?? "")
        return ChatCompletion(
            id: "chatcmpl-\(digest.prefix(12).hexEncodedString)",
            created: Int(Date().timeIntervalSince1970),
            model: request.parameters.model == "gpt-4o" ? "gpt-4o-2024-08-06" : request.parameters.model,
            choices: [ChatCompletion.Choice(message: message, finishReason: finishReason)],
            usage: ChatCompletion.Usage(
                promptTokens: promptTokens(for: request),
                completionTokens: completionTokens,
                cachedPromptTokens: min(cachedPromptTokens, promptTokens(for: request))
            )
        )
    }

    /// What OpenAI bills for the prompt: about 330 tokens of instructions and schema plus each image's tokens, which
    /// for `high` detail are 85 plus 170 per 512-pixel tile after scaling into 2048×2048 and the short side to 768.
    static func promptTokens(for request: CheckedRequest) -> Int {
        330 + request.images.reduce(0) { $0 + imageTokens($1, detail: request.parameters.detail) }
    }

    private static func imageTokens(_ image: JPEGImage, detail: String?) -> Int {
        guard detail != "low" else { return 85 }
        var (width, height) = (Double(image.width), Double(image.height))
        let fit = min(1, 2048 / max(width, height))
        (width, height) = (width * fit, height * fit)
        let shorten = min(1, 768 / min(width, height))
        (width, height) = (width * shorten, height * shorten)
        let tiles = Int((width / 512).rounded(.up)) * Int((height / 512).rounded(.up))
        return 85 + 170 * tiles
    }

    static func latency(_ behaviour: StubBehaviour) -> Duration {
        let jitter = behaviour.jitterMilliseconds > 0 ? Int.random(in: -behaviour.jitterMilliseconds...behaviour.jitterMilliseconds) : 0
        return .milliseconds(max(0, behaviour.latencyMilliseconds + jitter))
    }

    /// The organisation's tokens per minute in a `rate-limit` fault's 429, as in OpenAI's recorded message.
    static let tokensPerMinute = 30000

    /// OpenAI's 429 for the organisation's tokens-per-minute limit, reached by `request`'s estimate (its prompt and its
    /// `max_completion_tokens`): no tokens left until `wait` is over, said in the message, in `retry-after`(`-ms`) and in
    /// the `x-ratelimit-*-tokens` headers, beside the requests' headers (`requestHeaders`, or a limit far from reached).
    static func tokensRateLimited(_ request: CheckedRequest, wait: Duration, requestHeaders: HTTPFields) -> Response {
        let requested = promptTokens(for: request) + (request.parameters.maxCompletionTokens ?? 4096)
        var headers: HTTPFields = [
            .retryAfter: String(Int((wait / .seconds(1)).rounded(.up))),
            .retryAfterMilliseconds: String(wait.milliseconds),
            .rateLimitLimitTokens: String(tokensPerMinute),
            .rateLimitRemainingTokens: "0",
            .rateLimitResetTokens: goDuration(wait),
        ]
        let farFromLimit: HTTPFields = [.rateLimitLimitRequests: "5000", .rateLimitRemainingRequests: "4999", .rateLimitResetRequests: "12ms"]
        headers.append(contentsOf: requestHeaders.isEmpty ? farFromLimit : requestHeaders)
        return rateLimited(
            model: request.parameters.model,
            on: "tokens",
            "tokens per min (TPM): Limit \(tokensPerMinute), Used \(tokensPerMinute), Requested \(requested). Please try again in "
                + "\(goDuration(wait)). Visit https://platform.openai.com/account/rate-limits to learn more.",
            headers: headers
        )
    }

    /// A duration as Go prints it, which is how OpenAI writes its resets and waits: `200ms`, `1.78s`, `6m0s`, `2h0m0s`.
    static func goDuration(_ duration: Duration) -> String {
        let milliseconds = max(0, Int((duration / .milliseconds(1)).rounded()))
        guard milliseconds > 0 else { return "0s" }
        guard milliseconds >= 1000 else { return "\(milliseconds)ms" }
        let seconds = String(format: "%g", Double(milliseconds % 60000) / 1000) + "s"
        guard milliseconds >= 60000 else { return seconds }
        let minutes = milliseconds / 60000
        return minutes >= 60 ? "\(minutes / 60)h\(minutes % 60)m" + seconds : "\(minutes)m" + seconds
    }

    /// OpenAI's 429 `rate_limit_exceeded` for the organisation's `kind` limit (`requests` or `tokens`), worded as
    /// OpenAI words it, with `headers`.
    static func rateLimited(model: String, on kind: String, _ limit: String, headers: HTTPFields) -> Response {
        var response = errorResponse(
            OpenAIError(
                status: 429,
                body: OpenAIErrorBody(
                    message: "Rate limit reached for \(model) in organization org-kiwi-stub on \(limit)",
                    type: kind,
                    code: "rate_limit_exceeded"
                )
            )
        )
        response.headers.append(contentsOf: headers)
        return response
    }

    static func errorResponse(_ error: OpenAIError) -> Response {
        let data = (try? JSONEncoder().encode(error.body)) ?? Data()
        return Response(
            status: HTTPResponse.Status(code: error.status),
            headers: [.contentType: "application/json"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: data))
        )
    }
}

extension HTTPField.Name {
    /// OpenAI's millisecond-precision `retry-after`.
    static let retryAfterMilliseconds = Self("retry-after-ms")!
    /// How long OpenAI spent on a request; the stub reports its simulated latency here.
    static let openAIProcessingMilliseconds = Self("openai-processing-ms")!
    static let requestID = Self("x-request-id")!
    /// OpenAI's rate-limit headers: the organisation's requests per minute, those left, and when the window resets.
    static let rateLimitLimitRequests = Self("x-ratelimit-limit-requests")!
    static let rateLimitRemainingRequests = Self("x-ratelimit-remaining-requests")!
    static let rateLimitResetRequests = Self("x-ratelimit-reset-requests")!
    /// The same for the organisation's tokens per minute.
    static let rateLimitLimitTokens = Self("x-ratelimit-limit-tokens")!
    static let rateLimitRemainingTokens = Self("x-ratelimit-remaining-tokens")!
    static let rateLimitResetTokens = Self("x-ratelimit-reset-tokens")!
    /// The caller's own id for a request, which OpenAI keeps for tracing; the stub scopes behaviours by it.
    static let clientRequestID = Self(OpenAIHeader.clientRequestID)!
}
