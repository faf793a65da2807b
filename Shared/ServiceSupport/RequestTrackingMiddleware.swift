import Foundation
import HTTPTypes
import Hummingbird
import KiwiConcurrency
import KiwiModels
import KiwiTracing
import Logging
import Synchronization
import Tracing

/// What ``RequestTrackingMiddleware`` needs of a service's request context.
public protocol TrackedRequestContext: RequestContext {
    /// `X-Request-Id`: the client's when plain, else one made up; on every response and every call behind it.
    var requestID: String { get set }
    /// Facts inner middleware learn that the access-log line written by the outer one should show.
    var facts: RequestFacts { get }
}

/// What the access-log line of a request should say beyond the request itself. A reference, because every
/// middleware works on its own copy of the context.
public final class RequestFacts: Sendable {
    private let state = Mutex<String?>(nil)

    public init() {}

    /// The caller's user id, redacted (first 8 characters).
    public var user: String? {
        get { state.withLock { $0 } }
        set { state.withLock { $0 = newValue } }
    }
}

/// The request context of a service that needs nothing beyond request tracking (the auth service).
public struct TrackedBasicRequestContext: TrackedRequestContext {
    public var coreContext: CoreRequestContextStorage
    public var requestID = ""
    public let facts = RequestFacts()

    public init(source: ApplicationRequestContextSource) {
        coreContext = CoreRequestContextStorage(source: source)
    }
}

/// The outermost middleware of every service's router. It gives every request an id (`X-Request-Id`, the client's if
/// well-formed), turns every error into the API's JSON error shape (404 for unknown paths, 405 with `Allow` for a known
/// path and the wrong method, 503 `service_unavailable` when the service's store (PostgreSQL) cannot be used, 400 for
/// text it cannot store, 500 for anything unexpected), and writes one access-log line per request (docs/architecture.md,
/// "Logs"). `Failure` reads the store's errors.
public struct RequestTrackingMiddleware<Context: TrackedRequestContext, Failure: StoreFailure>: RouterMiddleware {
    /// The methods each path answers, for 405 and `Allow`.
    let routes: [String: [HTTPRequest.Method]]

    public init(routes: [String: [HTTPRequest.Method]], storeFailure: Failure.Type) {
        self.routes = routes
    }

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let started = ContinuousClock.now
        var context = context
        context.requestID = Self.acceptedRequestID(request.headers[.requestID]) ?? UUID().uuidString.lowercased()
        context.logger[metadataKey: "requestId"] = .string(context.requestID)
        // The request's span continues the caller's trace (`traceparent`), and every log line written under it,
        // the access-log line included, carries its trace id.
        let caller = ServiceContext.continuing(request.headers, using: HTTPFieldsExtractor())
        return await withSpan("\(request.method.rawValue) unmatched", context: caller, ofKind: .server) { span in
            var response: Response
            do {
                response = try await next(request, context)
            } catch {
                response = errorResponse(error, request: request, context: context)
            }
            response.headers[.requestID] = context.requestID
            // RFC 9110 wants a challenge on every 401, including the sign-in answers passed through from the auth service.
            if response.status == .unauthorized, response.headers[.wwwAuthenticate] == nil {
                response.headers[.wwwAuthenticate] = APIError.bearerChallenge()
            }
            let path = Self.loggedPath(request, context: context)
            Self.record(request, path: path, response: response, requestID: context.requestID, on: span)
            var metadata: Logger.Metadata = [
                "method": .string(request.method.rawValue), "path": .string(path), "statusCode": .stringConvertible(response.status.code),
                "latencyMs": .stringConvertible(Int((ContinuousClock.now - started).milliseconds)),
            ]
            if let user = context.facts.user { metadata["user"] = .string(user) }
            context.logger.info("request", metadata: metadata)
            return response
        }
    }

    /// The server span's name and attributes (OpenTelemetry's HTTP conventions): the route's pattern, never the path,
    /// so that ids in paths stay out of traces as they stay out of logs.
    private static func record(_ request: Request, path: String, response: Response, requestID: String, on span: any Span) {
        span.operationName = "\(request.method.rawValue) \(path)"
        span.attributes["http.request.method"] = request.method.rawValue
        span.attributes["http.route"] = path
        span.attributes["http.response.status_code"] = Int(response.status.code)
        span.attributes["kiwi.request_id"] = requestID
        if response.status.code >= 500 { span.setStatus(SpanStatus(code: .error)) }
    }

    private func errorResponse(_ error: any Error, request: Request, context: Context) -> Response {
        if let error = error as? HTTPError, error.status == .notFound {
            let path = request.uri.path.count > 1 && request.uri.path.hasSuffix("/") ? String(request.uri.path.dropLast()) : request.uri.path
            if let allowed = routes[path], !allowed.contains(request.method) {
                return json(
                    APIError(
                        .methodNotAllowed,
                        .methodNotAllowed,
                        "\(request.method.rawValue) is not allowed on \(path); use \(allowed.map(\.rawValue).joined(separator: ", ")).",
                        headers: [.allow: allowed.map(\.rawValue).joined(separator: ", ")]
                    ),
                    request: request,
                    context: context
                )
            }
            return json(APIError(.notFound, .notFound, "There is no \(request.uri.path) here."), request: request, context: context)
        }
        if let error = error as? APIError { return json(error, request: request, context: context) }
        if let error = error as? HTTPError {
            let code: APIErrorCode = error.status == .contentTooLarge ? .badRequest : error.status.code < 500 ? .badRequest : .internalError
            return json(APIError(error.status, code, error.body ?? error.status.reasonPhrase), request: request, context: context)
        }
        switch Failure(error) {
        case .outage?:
            context.logger.error("PostgreSQL is unavailable", metadata: ["error": "\(String(reflecting: type(of: error)))"])
            return json(
                .unavailableForAMoment(.serviceUnavailable, "Kiwi is briefly unavailable; please try again."),
                request: request,
                context: context
            )
        case .unstorableText?:
            context.logger.warning("the database refused a request's text", metadata: ["sqlState": "\(Failure.code(of: error))"])
            return json(.badRequest("The request has text Kiwi cannot store, such as U+0000 (NUL)."), request: request, context: context)
        case .some:
            context.logger.error("the database refused a statement", metadata: ["sqlState": "\(Failure.code(of: error))"])
        case nil:
            context.logger.error("unexpected error", metadata: ["error": "\(String(reflecting: type(of: error)))"])
        }
        return json(APIError(.internalServerError, .internalError, "Something went wrong on our side."), request: request, context: context)
    }

    private func json(_ error: APIError, request: Request, context: Context) -> Response {
        (try? error.response(from: request, context: context)) ?? Response(status: error.status)
    }

    /// The route's pattern (`/internal/v1/users/:id`) rather than the path, so that ids in paths, a user id among
    /// them, never reach the logs; an unmatched path as it came.
    static func loggedPath(_ request: Request, context: Context) -> String {
        context.endpointPath ?? request.uri.path
    }

    /// A client's request id is echoed only when it is short and plain: it ends up in logs and other services' headers.
    public static func acceptedRequestID(_ value: String?) -> String? {
        guard let value, (1...128).contains(value.utf8.count),
            value.utf8.allSatisfy({ $0.isASCIIAlphanumeric || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: ".") })
        else { return nil }
        return value
    }
}

extension UInt8 {
    fileprivate var isASCIIAlphanumeric: Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(self) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(self)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self)
    }
}

extension HTTPField.Name {
    /// The request id every service accepts, echoes and passes on.
    public static let requestID = Self("X-Request-Id")!
}
