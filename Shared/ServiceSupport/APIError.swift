import Foundation
import HTTPTypes
import Hummingbird
import KiwiModels

/// An error that reaches the client as the API's JSON error shape, `{"error": …, "message": …}`, with its status.
public struct APIError: HTTPResponseError, Sendable {
    public let status: HTTPResponse.Status
    public let body: ErrorBody
    public let headers: HTTPFields

    public init(_ status: HTTPResponse.Status, _ code: APIErrorCode, _ message: String, headers: HTTPFields = [:]) {
        self.init(status, body: ErrorBody(error: code, message: message), headers: headers)
    }

    /// An error with a body of its own, for codes with extra fields (`resetsAt`).
    public init(_ status: HTTPResponse.Status, body: ErrorBody, headers: HTTPFields = [:]) {
        self.status = status
        self.body = body
        self.headers = headers
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        try Response.json(body, status: status, headers: headers)
    }

    /// 400: the request itself is wrong.
    public static func badRequest(_ message: String) -> APIError { APIError(.badRequest, .badRequest, message) }
    /// 401: no valid credentials, with the RFC 6750 challenge: `Bearer realm="kiwi"`, plus `error="invalid_token"`
    /// when a token was presented but is no good (or `invalid_request` when it is malformed).
    public static func unauthorized(_ message: String = "Sign in again.", bearerError: String? = nil) -> APIError {
        APIError(.unauthorized, .unauthorized, message, headers: [.wwwAuthenticate: bearerChallenge(error: bearerError)])
    }

    /// 503 `code` with `Retry-After: 1`: the request cannot be taken right now (the service is overloaded, or what it
    /// needs is out of reach), and a client comes back after a second, longer when refused again (docs/errors.md).
    public static func unavailableForAMoment(_ code: APIErrorCode, _ message: String) -> APIError {
        APIError(.serviceUnavailable, code, message, headers: [.retryAfter: "1"])
    }

    /// `Bearer realm="kiwi"`, with `error="…"` when given.
    public static func bearerChallenge(error: String? = nil) -> String {
        #"Bearer realm="kiwi""# + (error.map { #", error="\#($0)""# } ?? "")
    }
}

extension Response {
    /// A response whose body is `value` in the API's JSON format (ISO 8601 dates without fractional seconds).
    public static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) throws -> Response {
        var headers = headers
        headers[.contentType] = "application/json; charset=utf-8"
        let data = try KiwiJSON.encoder().encode(value)
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }
}
