import AsyncHTTPClient
import Foundation
import KiwiConcurrency
import KiwiOpenAI
import NIOCore
import NIOHTTP1
import Synchronization

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
        /// A streamed answer that broke off after its 200: retried like a lost connection, and priced from what arrived.
        var brokenStream: BrokenStream?
    }

    /// A streamed answer that ended before `data: [DONE]`: its connection cut (or closed early), or silent for longer
    /// than the idle time. OpenAI bills the tokens it generated, and the usage that says how many never came.
    struct BrokenStream: Sendable, Hashable {
        enum How: String, Sendable {
            case cut, stall
        }

        var how: How
        /// The model the chunks named, if any arrived.
        var model: String?
        /// The content fragments received: OpenAI streams one token per chunk.
        var fragments: Int
    }

    /// A completion and how long OpenAI says it spent on it (`openai-processing-ms`).
    struct Success: Sendable {
        var completion: ChatCompletion
        var processingTime: Duration?
        /// What the response's `x-ratelimit-*` headers said.
        var rateLimit: RateLimitStatus?
    }

    let transport: ChatCompletionsTransport
    let endpoint: String
    let apiKey: String
    /// The longest a streamed answer may go without a byte before the attempt counts as stalled
    /// (`OPENAI_STREAM_IDLE_SECONDS`).
    let streamIdleTimeout: Duration
    /// The most response bytes read; a scan answer is a few kilobytes, a stream of it some ten times that.
    static let maximumResponseSize = 4 * 1024 * 1024

    init(transport: ChatCompletionsTransport, baseURL: URL, apiKey: String, streamIdleTimeout: Duration = .seconds(20)) {
        self.transport = transport
        self.endpoint = baseURL.appending(path: "chat/completions").absoluteString
        self.apiKey = apiKey
        self.streamIdleTimeout = streamIdleTimeout
    }

    /// One attempt with the body `makeBody` builds; the whole exchange — connecting, sending, the answer's headers and
    /// body — ends by `deadline`. The body is released as soon as it is sent, not kept while the model thinks: a
    /// worker waits on hundreds of these at once, each holding a photo in base64.
    ///
    /// `clientRequestID` goes out as OpenAI's `X-Client-Request-Id` (at most 512 ASCII characters; Kiwi's request ids
    /// are at most 128 plain ones), which OpenAI keeps with the request for tracing.
    ///
    /// A body that asks for a stream (`"stream": true`) gets `text/event-stream`, read as it arrives: each content
    /// fragment goes to `onFragment` in order, and the chunks make up the same ``ChatCompletion`` an unstreamed answer
    /// is (``CompletionStreamReader``). Whether the answer streams is the response's to say: a proxy that ignores
    /// `stream` answers JSON, read as before.
    func send(
        deadline: ContinuousClock.Instant,
        clientRequestID: String? = nil,
        onFragment: (@Sendable (String) async -> Void)? = nil,
        body makeBody: () -> ByteBuffer
    ) async -> Result<Success, Failure> {
        var request = HTTPClientRequest(url: endpoint)
        request.method = .POST
        request.headers.add(name: "Authorization", value: "Bearer \(apiKey)")
        request.headers.add(name: "Content-Type", value: "application/json")
        if let clientRequestID { request.headers.add(name: OpenAIHeader.clientRequestID, value: clientRequestID) }
        let body = OneShotBody(makeBody())
        request.body = .stream(body, length: .known(Int64(body.length)))
        do {
            return try await withDeadline(deadline) { [transport, request, streamIdleTimeout] in
                // The deadline is withDeadline's alone: it covers the body too, and cancelling the call ends the request.
                let response = try await transport.execute(request)
                if (200..<300).contains(response.status.code), response.headers.first(name: "content-type")?.hasPrefix("text/event-stream") == true {
                    return await Self.read(response, idleTimeout: streamIdleTimeout, onFragment: onFragment)
                }
                let body = try await response.body.collect(upTo: Self.maximumResponseSize)
                return Self.classify(status: Int(response.status.code), headers: response.headers, body: body)
            }
        } catch is DeadlineExceededError {
            return .failure(Failure(timedOut: true, summary: "no answer within the time left"))
        } catch {
            return .failure(Failure(summary: "transport error: \(error)"))
        }
    }

    /// A streamed answer, read chunk by chunk while a watchdog ends it once no byte has come for `idleTimeout`. A stream
    /// that breaks off before `[DONE]` (cut, closed early or stalled) is a failure with no status, which the retry
    /// policy retries as it does a lost connection; an `error` event in the stream is a 500.
    private static func read(
        _ response: HTTPClientResponse,
        idleTimeout: Duration,
        onFragment: (@Sendable (String) async -> Void)?
    ) async -> Result<Success, Failure> {
        let progress = StreamProgress()
        let rateLimit = RateLimitStatus(headers: response.headers)
        let processing = response.headers.first(name: "openai-processing-ms").flatMap { Duration(milliseconds: $0) }
        func broken(_ how: BrokenStream.How, _ summary: String) -> Result<Success, Failure> {
            let (model, fragments) = progress.received
            return .failure(
                Failure(summary: summary, rateLimit: rateLimit, brokenStream: BrokenStream(how: how, model: model, fragments: fragments))
            )
        }
        return await withTaskGroup(of: Result<Success, Failure>?.self) { group in
            group.addTask {
                var reader = CompletionStreamReader()
                do {
                    for try await buffer in response.body {
                        progress.heard()
                        guard reader.bytesRead + buffer.readableBytes <= Self.maximumResponseSize else {
                            return .failure(
                                Failure(status: 502, summary: "a stream longer than \(Self.maximumResponseSize) bytes", rateLimit: rateLimit)
                            )
                        }
                        for fragment in try reader.read(buffer) {
                            await onFragment?(fragment)
                        }
                        progress.update(model: reader.model, fragments: reader.fragments)
                    }
                } catch let error as CompletionStreamReader.StreamError {
                    return .failure(Failure(status: error.status, summary: error.summary, rateLimit: rateLimit))
                } catch is CancellationError {
                    return nil
                } catch {
                    return broken(.cut, "the stream was cut: \(error)")
                }
                guard let completion = reader.completion else { return broken(.cut, "the stream ended before [DONE]") }
                return .success(Success(completion: completion, processingTime: processing, rateLimit: rateLimit))
            }
            group.addTask {
                var due = progress.lastHeard + idleTimeout
                while (try? await sleep(until: due)) != nil {
                    let next = progress.lastHeard + idleTimeout
                    if next <= .now { return broken(.stall, "the stream stalled: no byte for \(idleTimeout)") }
                    due = next
                }
                return nil
            }
            defer { group.cancelAll() }
            while let outcome = await group.next() {
                if let outcome { return outcome }
            }
            return .failure(Failure(summary: "the stream was cancelled"))
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

/// When a stream was last heard from, and what it had delivered: shared by its reader and its watchdog.
private final class StreamProgress: Sendable {
    private struct State {
        var lastHeard = ContinuousClock.now
        var model: String?
        var fragments = 0
    }

    private let state = Mutex(State())

    var lastHeard: ContinuousClock.Instant { state.withLock { $0.lastHeard } }
    var received: (model: String?, fragments: Int) { state.withLock { ($0.model, $0.fragments) } }

    func heard() {
        state.withLock { $0.lastHeard = .now }
    }

    func update(model: String?, fragments: Int) {
        state.withLock { ($0.model, $0.fragments) = (model, fragments) }
    }
}
