import AsyncHTTPClient
import Foundation
import KiwiAppleSignIn
import KiwiDevelopment
import NIOCore
import NIOHTTP1

/// The gateway's JSON routes as the load test's people use them around their scans: signing in (with development
/// identity tokens), the quota, households, profiles and shopping lists. Every call that does not answer 2xx throws a
/// ``LoadTestError`` naming it, with the `Retry-After` it carried.
struct GatewayAPI: Sendable {
    let gateway: String
    let client: HTTPClient
    let key: DevelopmentAppleKey
    /// The identity tokens' audience: one of the auth service's `APPLE_CLIENT_ID` values.
    let audience: String

    /// A new person, signed in: their session token.
    func signIn() async throws -> String {
        let now = Date()
        let identity = try await key.mint(
            AppleIdentityClaims(audience: audience, expires: now + 600, issuedAt: now, subject: "001.loadtest.\(UUID().uuidString.lowercased()).0001")
        )
        struct Session: Decodable { var sessionToken: String }
        let session: Session = try await call(.POST, "/v1/auth/apple", body: ["identityToken": identity])
        return session.sessionToken
    }

    /// The scans `token`'s person has left today.
    func scansLeft(token: String) async throws -> Int {
        struct Quota: Decodable { var remaining: Int }
        return (try await call(.GET, "/v1/quota", token: token) as Quota).remaining
    }

    /// Creates a household of `token`'s person, who is named `displayName` in it.
    func createHousehold(_ name: String, by token: String, named displayName: String) async throws {
        try await call(.POST, "/v1/household", token: token, body: ["name": name, "displayName": displayName])
    }

    /// A new invitation code to the household of `token`'s person.
    func invitation(by token: String) async throws -> String {
        struct Invitation: Decodable { var code: String }
        return (try await call(.POST, "/v1/household/invitations", token: token) as Invitation).code
    }

    /// Joins the household of invitation `code` as `token`'s person, sharing their profile, as the join route requires.
    func join(_ code: String, as token: String, named displayName: String) async throws {
        struct Join: Encodable {
            var code: String
            var displayName: String
            var shareProfile = true
        }
        try await call(.POST, "/v1/household/members", token: token, body: Join(code: code, displayName: displayName))
    }

    /// `method` on `path` with `body` as JSON, answered with JSON.
    func call<Answer: Decodable>(
        _ method: HTTPMethod,
        _ path: String,
        token: String? = nil,
        body: (some Encodable)? = Nothing?.none
    )
        async throws -> Answer
    {
        let answer = try await send(method, path, token: token, body: body)
        return try JSONDecoder().decode(Answer.self, from: Data(answer.readableBytesView))
    }

    /// `method` on `path` with `body` as JSON, for its answer's status alone.
    func call(_ method: HTTPMethod, _ path: String, token: String? = nil, body: (some Encodable)? = Nothing?.none) async throws {
        _ = try await send(method, path, token: token, body: body)
    }

    /// No body.
    struct Nothing: Encodable {}

    private func send(_ method: HTTPMethod, _ path: String, token: String?, body: (some Encodable)?) async throws -> ByteBuffer {
        var request = HTTPClientRequest(url: "\(gateway)\(path)")
        request.method = method
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: try JSONEncoder().encode(body)))
        }
        let response = try await client.execute(request, timeout: .seconds(30))
        let answer = try await response.body.collect(upTo: 1 << 20)
        guard (200..<300).contains(response.status.code) else {
            throw LoadTestError(
                "\(method.rawValue) \(request.url) answered \(response.status.code): \(String(buffer: answer))",
                retryAfter: ScanClient.retryAfter(response.headers)
            )
        }
        return answer
    }
}
