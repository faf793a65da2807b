import Foundation
import HTTPTypes
import Hummingbird
import KiwiConcurrency
import KiwiLogging
import KiwiModels
import KiwiServiceSupport
import Logging
import PostgresNIO

/// The outermost middleware. It gives every request an id (`X-Request-Id`, the client's if well-formed), turns
/// every error into the API's JSON error shape (404 for unknown paths, 405 with `Allow` for a known path and the
/// wrong method, 500 for anything unexpected), and writes one access-log line per request (DESIGN.md §8).
struct RequestTrackingMiddleware: RouterMiddleware {
    typealias Context = GatewayRequestContext

    /// The methods each public path answers, for 405 and `Allow`.
    let routes: [String: [HTTPRequest.Method]]

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let started = ContinuousClock.now
        var context = context
        context.requestID = Self.acceptedRequestID(request.headers[.requestID]) ?? UUID().uuidString.lowercased()
        context.logger[metadataKey: "requestId"] = .string(context.requestID)
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
        var metadata: Logger.Metadata = [
            "method": .string(request.method.rawValue), "path": .string(request.uri.path),
            "statusCode": .stringConvertible(response.status.code),
            "latencyMs": .stringConvertible(Int((ContinuousClock.now - started).milliseconds)),
        ]
        if let user = context.facts.user { metadata["user"] = .string(user) }
        context.logger.info("request", metadata: metadata)
        return response
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
        if error is PSQLError || error is DeadlineExceededError {
            context.logger.error("PostgreSQL is unavailable", metadata: ["error": "\(String(reflecting: type(of: error)))"])
            return json(
                APIError(.serviceUnavailable, .serviceUnavailable, "Kiwi is briefly unavailable; please try again."),
                request: request,
                context: context
            )
        }
        context.logger.error("unexpected error", metadata: ["error": "\(String(reflecting: type(of: error)))"])
        return json(APIError(.internalServerError, .internalError, "Something went wrong on our side."), request: request, context: context)
    }

    private func json(_ error: APIError, request: Request, context: Context) -> Response {
        (try? error.response(from: request, context: context)) ?? Response(status: error.status)
    }

    /// A client's request id is echoed only when it is short and plain: it ends up in logs and other services' headers.
    static func acceptedRequestID(_ value: String?) -> String? {
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
    static let requestID = Self("X-Request-Id")!
}
