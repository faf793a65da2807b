import Foundation
import HTTPTypes
import OpenAPIRuntime
import OpenAPIURLSession

/// Kiwi's public API for Swift apps: the client generated from `openapi.yaml` (``Client``), over URLSession, so it
/// builds for iOS as well as Linux.
public enum KiwiAPI {
    /// A client of the gateway at `serverURL`, sending `sessionToken` (when given) as the bearer token.
    public static func client(serverURL: URL, sessionToken: String? = nil) -> Client {
        Client(
            serverURL: serverURL,
            transport: URLSessionTransport(),
            middlewares: sessionToken.map { [BearerTokenMiddleware(token: $0)] } ?? []
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
