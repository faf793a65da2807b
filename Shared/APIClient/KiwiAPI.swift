import Foundation
import HTTPTypes
import OpenAPIRuntime
import OpenAPIURLSession

/// Kiwi's public API for Swift apps: the client generated from `openapi.yaml` (``Client``), over URLSession, so it
/// builds for iOS as well as Linux.
public enum KiwiAPI {
    /// A client of the gateway at `serverURL`, sending `sessionToken` (when given) as the bearer token, and asking
    /// again after a brief outage (``BriefOutageRetryMiddleware``).
    public static func client(serverURL: URL, sessionToken: String? = nil) -> Client {
        Client(
            serverURL: serverURL,
            transport: URLSessionTransport(),
            middlewares: [BriefOutageRetryMiddleware()] + (sessionToken.map { [BearerTokenMiddleware(token: $0)] } ?? [])
        )
    }
}

/// Adds `Authorization: Bearer <session token>` to every request.
public struct BearerTokenMiddleware: ClientMiddleware {
    let token: String

    public init(token: String) {
        self.token = token
    }

    public func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        baseURL: URL,
        operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        request.headerFields[.authorization] = "Bearer \(token)"
        return try await next(request, body, baseURL)
    }
}

/// Sends a request again when the gateway answers 503 `service_unavailable` with a `Retry-After` of a few seconds: its
/// store was briefly out of reach, and the answer says to try again soon. Only that code: a 503 of a scan whose fate
/// is unknown (`scan_unavailable`) must not start another. Only a request whose body can be sent again, which every
/// JSON body can; a photo upload is left to the caller, who sends it again under its `Idempotency-Key`.
public struct BriefOutageRetryMiddleware: ClientMiddleware {
    /// How many times a request is sent at most.
    let attempts: Int
    /// The longest `Retry-After` waited for; a longer one is answered as it is.
    let longestWait: Duration
    let sleep: @Sendable (Duration) async throws -> Void

    public init(
        attempts: Int = 3,
        longestWait: Duration = .seconds(5),
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) {
        self.attempts = attempts
        self.longestWait = longestWait
        self.sleep = sleep
    }

    private struct ErrorCode: Decodable {
        var error: String
    }

    public func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        baseURL: URL,
        operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let repeatable = body.map { $0.iterationBehavior == .multiple } ?? true
        for attempt in 1... {
            let (response, answer) = try await next(request, body, baseURL)
            guard repeatable, attempt < attempts, response.status == .serviceUnavailable,
                let seconds = response.headerFields[.retryAfter].flatMap(Int.init), .seconds(seconds) <= longestWait
            else { return (response, answer) }
            // An error body is small; it is read to see its code, and handed on whole when that is not the store's.
            var bytes = Data()
            if let answer { bytes = try await Data(collecting: answer, upTo: 64 * 1024) }
            guard (try? JSONDecoder().decode(ErrorCode.self, from: bytes))?.error == "service_unavailable" else {
                return (response, HTTPBody(bytes))
            }
            try await sleep(.seconds(seconds))
        }
        preconditionFailure("the attempts never end without an answer")
    }
}
