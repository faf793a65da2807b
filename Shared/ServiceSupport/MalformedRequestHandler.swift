import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import KiwiConcurrency
import KiwiModels
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes

/// Answers a request that is not valid HTTP/1.1 (a garbage request line, `Content-Length` beside
/// `Transfer-Encoding`, two `Content-Length`s, headers over 80 KiB) in the API's error shape: 400 `bad_request` with
/// an `X-Request-Id`, then closes the connection.
///
/// Without it Hummingbird answers such requests itself with an empty 400 and no request id. It sits in the channel
/// pipeline right after the HTTP codec, where the parser's error arrives before Hummingbird sees it. A response
/// already being written (an earlier request on the same connection) is finished first.
final class MalformedRequestHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let logger: Logger
    /// Whether a response's head went out and its end did not yet.
    private var isWritingResponse = false
    /// The parse error waiting for that response to end.
    private var pendingError: HTTPParserError?
    private var answered = false

    init(logger: Logger) {
        self.logger = logger
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let parserError = error as? HTTPParserError else { return context.fireErrorCaught(error) }
        guard !answered else { return }
        if isWritingResponse {
            pendingError = parserError
        } else {
            answer(parserError, context: context)
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard !answered else {
            promise?.fail(ChannelError.ioOnClosedChannel)
            return
        }
        switch unwrapOutboundIn(data) {
        case .head: isWritingResponse = true
        case .end: isWritingResponse = false
        case .body: break
        }
        context.write(data, promise: promise)
        if !isWritingResponse, let error = pendingError {
            pendingError = nil
            answer(error, context: context)
        }
    }

    private func answer(_ error: HTTPParserError, context: ChannelHandlerContext) {
        answered = true
        let requestID = UUID().uuidString.lowercased()
        logger.info("malformed request", metadata: ["requestId": .string(requestID), "error": .string("\(error)"), "statusCode": "400"])
        let body =
            (try? KiwiJSON.encoder().encode(
                ErrorBody(error: .badRequest, message: "The request is not valid HTTP/1.1 (\(error)); the connection is closed.")
            )) ?? Data()
        let head = HTTPResponse(
            status: .badRequest,
            headerFields: [
                .contentType: "application/json; charset=utf-8", .contentLength: String(body.count), .connection: "close",
                .requestID: requestID,
            ]
        )
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(ByteBuffer(bytes: body))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in context.close(promise: nil) }
    }
}

extension HTTPServerBuilder {
    /// HTTP/1.1 as every Kiwi service serves it: malformed requests answered in the API's error shape
    /// (``MalformedRequestHandler``), and connections idle for `idleTimeout` closed.
    public static func kiwiHTTP1(idleTimeout: Duration? = nil, logger: Logger) -> HTTPServerBuilder {
        .http1(
            configuration: .init(
                additionalChannelHandlers: [MalformedRequestHandler(logger: logger)],
                idleTimeout: idleTimeout.map { .nanoseconds($0.nanoseconds) }
            )
        )
    }
}
