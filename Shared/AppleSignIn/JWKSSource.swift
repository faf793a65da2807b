import AsyncHTTPClient
import Foundation
import JWTKit
import KiwiConcurrency
import NIOCore
import NIOHTTP1

/// Where Apple's public signing keys come from.
public protocol JWKSSource: Sendable {
    /// Fetches the current key set; throws when it cannot.
    func fetchKeys() async throws -> JWKS
}

/// Apple's JWKS endpoint (`APPLE_JWKS_URL`), fetched over HTTPS with a timeout.
public struct HTTPJWKSSource: JWKSSource {
    public let url: URL
    public let timeout: Duration
    private let client: HTTPClient

    public init(url: URL, timeout: Duration = .seconds(5), client: HTTPClient = .shared) {
        self.url = url
        self.timeout = timeout
        self.client = client
    }

    /// The whole exchange — connecting, headers and body — must finish within `timeout`.
    public func fetchKeys() async throws -> JWKS {
        do {
            return try await withDeadline(.now + timeout) { [client, url] in
                // The deadline is withDeadline's alone: it covers the body too, and cancelling the call ends the request.
                let response = try await client.execute(HTTPClientRequest(url: url.absoluteString), deadline: .distantFuture)
                guard response.status == .ok else { throw JWKSFetchError("\(url) answered \(response.status.code)") }
                let body = try await response.body.collect(upTo: 1024 * 1024)
                return try JSONDecoder().decode(JWKS.self, from: Data(body.readableBytesView))
            }
        } catch is DeadlineExceededError {
            throw JWKSFetchError("\(url) did not answer within \(timeout)")
        }
    }
}

/// A key set in a local file (`APPLE_JWKS_FILE`): the development key that `kiwi dev-token` signs with.
public struct FileJWKSSource: JWKSSource {
    public let path: String

    public init(path: String) {
        self.path = path
    }

    public func fetchKeys() async throws -> JWKS {
        try JSONDecoder().decode(JWKS.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
    }
}

/// A key set could not be fetched.
public struct JWKSFetchError: Error, CustomStringConvertible {
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}

extension TimeAmount {
    init(_ duration: Duration) {
        self = .nanoseconds(duration.nanoseconds)
    }
}
