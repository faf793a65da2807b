import AsyncHTTPClient
import Foundation
import HTTPTypes
import KiwiConcurrency
import KiwiInternalAPI
import KiwiModels
import KiwiServiceSupport
import KiwiTracing
import Logging
import NIOCore
import NIOHTTP1
import Tracing

/// The auth service could not be asked: it is down, slow or answered nonsense. Clients get 503 `auth_unavailable`,
/// never 401: their session may be perfectly good.
struct AuthServiceUnavailable: Error, CustomStringConvertible {
    let description: String

    /// What clients are told when signing in or checking a session cannot be done.
    static let signInMessage = "Signing in is unavailable right now; please try again shortly."

    /// The API's one answer to it, 503 `auth_unavailable` saying what is unavailable (`message`) with
    /// `Retry-After: 1`, after logging `logMessage` with the reason. Clients told when to come back, and backing off
    /// when told again, give an overloaded auth service room instead of asking again at once.
    func answer(_ message: String = signInMessage, logging logMessage: String, logger: Logger) -> APIError {
        logger.error("\(logMessage)", metadata: ["reason": "\(description)"])
        return .unavailableForAMoment(.authUnavailable, message)
    }
}

/// The gateway's calls to the auth service: its internal API (docs/architecture.md, "3. The auth flow"), and the public sign-in it forwards.
struct AuthServiceClient: SessionIntrospector, AccountActions {
    let httpClient: HTTPClient
    let baseURL: URL
    let internalToken: String
    /// The longest any call may take, response body included.
    var timeout: Duration = .seconds(5)

    init(httpClient: HTTPClient, baseURL: URL, internalToken: String) {
        self.httpClient = httpClient
        self.baseURL = baseURL
        self.internalToken = internalToken
    }

    func introspect(_ token: String, requestID: String) async throws(AuthServiceUnavailable) -> SessionIntrospection? {
        let response = try await send(
            "auth introspect",
            .POST,
            InternalAPI.introspectPath,
            body: SessionTokenBody(token: token),
            requestID: requestID
        )
        switch response.status {
        case 200:
            guard let session = try? KiwiJSON.decoder().decode(SessionIntrospection.self, from: Data(response.body.readableBytesView)) else {
                throw AuthServiceUnavailable(description: "the auth service answered introspection with an unreadable body")
            }
            return session
        case 401: return nil
        case 403: throw AuthServiceUnavailable(description: "the auth service refused this gateway's INTERNAL_API_TOKEN")
        default: throw AuthServiceUnavailable(description: "the auth service answered introspection with \(response.status)")
        }
    }

    func revoke(_ token: String, requestID: String) async throws(AuthServiceUnavailable) {
        let response = try await send("auth revoke", .POST, InternalAPI.revokePath, body: SessionTokenBody(token: token), requestID: requestID)
        guard response.status == 204 else { throw AuthServiceUnavailable(description: "the auth service answered revoke with \(response.status)") }
    }

    func deleteUser(_ id: UUID, requestID: String) async throws(AuthServiceUnavailable) {
        let response = try await send(
            "auth delete user",
            .DELETE,
            InternalAPI.userPath(id),
            body: Optional<SessionTokenBody>.none,
            requestID: requestID
        )
        guard response.status == 204 else { throw AuthServiceUnavailable(description: "the auth service answered delete with \(response.status)") }
    }

    func account(_ id: UUID, requestID: String) async throws(AuthServiceUnavailable) -> UserAccount? {
        let response = try await send("auth read user", .GET, InternalAPI.userPath(id), body: Optional<SessionTokenBody>.none, requestID: requestID)
        switch response.status {
        case 200:
            guard let account = try? KiwiJSON.decoder().decode(UserAccount.self, from: Data(response.body.readableBytesView)) else {
                throw AuthServiceUnavailable(description: "the auth service answered a user's read with an unreadable body")
            }
            return account
        case 404: return nil
        default: throw AuthServiceUnavailable(description: "the auth service answered a user's read with \(response.status)")
        }
    }

    func signInWithApple(body: ByteBuffer, requestID: String) async throws(AuthServiceUnavailable) -> ForwardedResponse {
        try await send("auth sign in", .POST, "/v1/auth/apple", rawBody: body, requestID: requestID, authorized: false)
    }

    /// Whether the auth service answers its liveness probe: part of the gateway's readiness.
    func isHealthy(requestID: String) async -> Bool {
        let response = try? await send("auth health", .GET, "/health", rawBody: nil, requestID: requestID, authorized: false)
        return response?.status == 200
    }

    private func send(
        _ operation: String,
        _ method: HTTPMethod,
        _ path: String,
        body: (some Encodable)?,
        requestID: String
    ) async throws(AuthServiceUnavailable) -> ForwardedResponse {
        let data = body.flatMap { try? KiwiJSON.encoder().encode($0) }
        return try await send(operation, method, path, rawBody: data.map { ByteBuffer(bytes: $0) }, requestID: requestID, authorized: true)
    }

    /// One call in a client span named `operation`. The span and the `traceparent` it sends are made here rather than by
    /// AsyncHTTPClient (whose tracing the gateway's client has off): its spans would record the path, and a user id
    /// is in some paths.
    private func send(
        _ operation: String,
        _ method: HTTPMethod,
        _ path: String,
        rawBody: ByteBuffer?,
        requestID: String,
        authorized: Bool
    ) async throws(AuthServiceUnavailable) -> ForwardedResponse {
        let result: Result<ForwardedResponse, AuthServiceUnavailable> = await withSpan(operation, ofKind: .client) { span in
            span.attributes["http.request.method"] = method.rawValue
            var request = HTTPClientRequest(url: baseURL.appending(path: path).absoluteString)
            ServiceContext.propagate(into: &request.headers, using: HTTPHeadersInjector())
            request.method = method
            request.headers.add(name: "X-Request-Id", value: requestID)
            if authorized { request.headers.add(name: "Authorization", value: "Bearer \(internalToken)") }
            if let rawBody {
                request.headers.add(name: "Content-Type", value: "application/json")
                request.body = .bytes(rawBody)
            }
            do throws(AuthServiceUnavailable) {
                let response = try await execute(request)
                span.attributes["http.response.status_code"] = response.status
                return .success(response)
            } catch {
                span.setStatus(SpanStatus(code: .error))
                return .failure(error)
            }
        }
        return try result.get()
    }

    private func execute(_ request: HTTPClientRequest) async throws(AuthServiceUnavailable) -> ForwardedResponse {
        do {
            return try await withDeadline(.now + timeout) { [httpClient, request] in
                // The deadline is withDeadline's alone: it covers the body too, and cancelling the call ends the request.
                let response = try await httpClient.execute(request, deadline: .distantFuture)
                let body = try await response.body.collect(upTo: 1024 * 1024)
                return ForwardedResponse(status: Int(response.status.code), body: body)
            }
        } catch is DeadlineExceededError {
            throw AuthServiceUnavailable(description: "the auth service did not answer within \(timeout)")
        } catch {
            throw AuthServiceUnavailable(description: "the auth service is unreachable: \(error)")
        }
    }
}
