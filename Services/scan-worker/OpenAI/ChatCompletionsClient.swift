import AsyncHTTPClient
import Foundation
import KiwiConcurrency
import KiwiOpenAI
import NIOCore
import NIOHTTP1

/// Sends one request to `POST {OPENAI_BASE_URL}/chat/completions` and classifies what came back.
/// It never retries: deciding whether and when to try again is ``RetryPolicy``'s job.
struct ChatCompletionsClient: Sendable {
    /// Why an attempt produced no completion.
    struct Failure: Error, Sendable, Hashable {
        /// The HTTP status, or nil when there was no response (connection refused or reset, timeout).
        var status: Int?
        /// OpenAI's `error.code` (`rate_limit_exceeded`, `insufficient_quota`, …) when the body carried one.
        var code: String?
        /// How long the server asked us to wait (`retry-after-ms` or `retry-after`).
        var retryAfter: Duration?
        /// The server's `x-should-retry` verdict, which overrides the usual rules.
        var shouldRetry: Bool?
        /// The attempt ran out of time.
        var timedOut = false
        /// For logs: status and OpenAI's message, or the transport error. Never contains the request or the answer.
        var summary: String
        /// What the response's `x-ratelimit-*` headers said, when there was a response with them.
        var rateLimit: RateLimitStatus?
    }

    /// A completion and how long OpenAI says it spent on it (`openai-processing-ms`).
    struct Success: Sendable {
        var completion: ChatCompletion
        var processingTime: Duration?
        /// What the response's `x-ratelimit-*` headers said.
        var rateLimit: RateLimitStatus?
    }

    let httpClient: HTTPClient
    let endpoint: String
    let apiKey: String
    /// The most response bytes read; a scan answer is a few kilobytes.
    static let maximumResponseSize = 4 * 1024 * 1024

    init(httpClient: HTTPClient, baseURL: URL, apiKey: String) {
        self.httpClient = httpClient
        self.endpoint = baseURL.appending(path: "chat/completions").absoluteString
        self.apiKey = apiKey
    }

    /// One attempt with the body `makeBody` builds; the whole exchange — connecting, sending, the answer's headers and
    /// body — ends by `deadline`. The body is released as soon as it is sent, not kept while the model thinks: a
    /// worker waits on hundreds of these at once, each holding a photo in base64.
    ///
    /// `clientRequestID` goes out as OpenAI's `X-Client-Request-Id` (at most 512 ASCII characters; Kiwi's request ids
    /// are at most 128 plain ones), which OpenAI keeps with the request for tracing.
    func send(deadline: ContinuousClock.Instant, clientRequestID: String? = nil, body makeBody: () -> ByteBuffer) async -> Result<Success, Failure> {
        var request = HTTPClientRequest(url: endpoint)
        request.method = .POST
        request.headers.add(name: "Authorization", value: "Bearer \(apiKey)")
        request.headers.add(name: "Content-Type", value: "application/json")
        if let clientRequestID { request.headers.add(name: OpenAIHeader.clientRequestID, value: clientRequestID) }
        let body = OneShotBody(makeBody())
        request.body = .stream(body, length: .known(Int64(body.length)))
        do {
            return try await withDeadline(deadline) { [httpClient, request] in
                // The deadline is withDeadline's alone: it covers the body too, and cancelling the call ends the request.
                let response = try await httpClient.execute(request, deadline: .distantFuture)
                let body = try await response.body.collect(upTo: Self.maximumResponseSize)
                return Self.classify(status: Int(response.status.code), headers: response.headers, body: body)
            }
        } catch is DeadlineExceededError {
            return .failure(Failure(timedOut: true, summary: "no answer within the time left"))
        } catch {
            return .failure(Failure(summary: "transport error: \(error)"))
        }
    }

    static func classify(status: Int, headers: HTTPHeaders, body: ByteBuffer) -> Result<Success, Failure> {
        let data = Data(body.readableBytesView)
        guard (200..<300).contains(status) else {
            let detail = try? JSONDecoder().decode(OpenAIErrorBody.self, from: data).error
            return .failure(
                Failure(
                    status: status,
                    code: detail?.code,
                    retryAfter: RetryPolicy.retryAfter(in: headers),
                    shouldRetry: headers.first(name: "x-should-retry").flatMap { Bool($0.lowercased()) },
                    summary: "HTTP \(status)" + (detail.map { ": \($0.message.prefix(300))" } ?? ""),
                    rateLimit: RateLimitStatus(headers: headers)
                )
            )
        }
        do {
            let completion = try JSONDecoder().decode(ChatCompletion.self, from: data)
            let processing = headers.first(name: "openai-processing-ms").flatMap { Duration(milliseconds: $0) }
            return .success(Success(completion: completion, processingTime: processing, rateLimit: RateLimitStatus(headers: headers)))
        } catch {
            // A 200 without a completion object is a broken server, not a broken answer: worth another try.
            return .failure(Failure(status: 502, summary: "HTTP \(status) with a body that is not a chat completion"))
        }
    }
}

extension Result<ChatCompletionsClient.Success, ChatCompletionsClient.Failure> {
    /// What the response's rate-limit headers said, whichever way the attempt ended.
    var rateLimit: RateLimitStatus? {
        switch self {
        case .success(let success): success.rateLimit
        case .failure(let failure): failure.rateLimit
        }
    }
}

/// A request body that gives its one buffer away when read, so the buffer is freed once written to the connection
/// rather than when the whole exchange ends.
struct OneShotBody: AsyncSequence, Sendable {
    typealias Element = ByteBuffer

    struct AsyncIterator: AsyncIteratorProtocol {
        fileprivate let buffer: Handover<ByteBuffer>

        mutating func next() async -> ByteBuffer? {
            buffer.take()
        }
    }

    private let handover: Handover<ByteBuffer>
    /// The body's size in bytes, for `Content-Length`.
    let length: Int

    init(_ buffer: ByteBuffer) {
        length = buffer.readableBytes
        handover = Handover(buffer)
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(buffer: handover)
    }
}
