import AsyncHTTPClient
import Foundation
import KiwiAppleSignIn
import KiwiDevelopment
import NIOCore
import NIOHTTP1

/// Hands out session tokens of load-test users, each for as many scans as the gateway lets it make today, and
/// signs a new user in (with a development identity token, through the gateway) when the current one is used up.
/// Concurrent callers share one sign-in.
actor UserPool {
    private let gateway: String
    private let client: HTTPClient
    private let key: DevelopmentAppleKey
    private let audience: String
    private var current: (token: String, scansLeft: Int)?
    private var signingIn: Task<(token: String, scansLeft: Int), any Error>?
    /// Users signed in so far.
    private(set) var users = 0

    init(gateway: String, client: HTTPClient, key: DevelopmentAppleKey, audience: String) {
        self.gateway = gateway
        self.client = client
        self.key = key
        self.audience = audience
    }

    /// Signs the first user in, so that a gateway or auth service that refuses development sign-ins stops the
    /// load test before it starts.
    func prepare() async throws {
        let token = try await token()
        current = (token, (current?.scansLeft ?? 0) + 1)
    }

    /// A session token with a scan left today.
    func token() async throws -> String {
        while true {
            if let user = current, user.scansLeft > 0 {
                current = (user.token, user.scansLeft - 1)
                return user.token
            }
            let pending =
                signingIn
                ?? Task { [gateway, client, key, audience] in
                    try await Self.newUser(gateway: gateway, client: client, key: key, audience: audience)
                }
            signingIn = pending
            do {
                let user = try await pending.value
                if signingIn == pending {
                    (current, signingIn) = (user, nil)
                    users += 1
                }
            } catch {
                if signingIn == pending { signingIn = nil }
                throw error
            }
        }
    }

    /// Signs a new user in through the gateway and asks how many scans it has today.
    private static func newUser(
        gateway: String,
        client: HTTPClient,
        key: DevelopmentAppleKey,
        audience: String
    ) async throws -> (token: String, scansLeft: Int) {
        let now = Date()
        let identity = try await key.mint(
            AppleIdentityClaims(audience: audience, expires: now + 600, issuedAt: now, subject: "001.loadtest.\(UUID().uuidString.lowercased()).0001")
        )
        struct Session: Decodable { var sessionToken: String }
        struct Quota: Decodable { var remaining: Int }
        var signIn = HTTPClientRequest(url: "\(gateway)/v1/auth/apple")
        signIn.method = .POST
        signIn.headers.add(name: "Content-Type", value: "application/json")
        signIn.body = .bytes(ByteBuffer(bytes: try JSONEncoder().encode(["identityToken": identity])))
        let session: Session = try await send(signIn, with: client)
        var quota = HTTPClientRequest(url: "\(gateway)/v1/quota")
        quota.headers.add(name: "Authorization", value: "Bearer \(session.sessionToken)")
        return (session.sessionToken, (try await send(quota, with: client) as Quota).remaining)
    }

    private static func send<Answer: Decodable>(_ request: HTTPClientRequest, with client: HTTPClient) async throws -> Answer {
        let response = try await client.execute(request, timeout: .seconds(30))
        let body = try await response.body.collect(upTo: 1 << 20)
        guard response.status == .ok else {
            throw LoadTestError("\(request.method.rawValue) \(request.url) answered \(response.status.code): \(String(buffer: body))")
        }
        return try JSONDecoder().decode(Answer.self, from: Data(body.readableBytesView))
    }
}

/// A failure that ends the load test, with a sentence for the operator.
struct LoadTestError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
