import Foundation
import HTTPTypes
import HummingbirdTesting
import KiwiInternalAPI
import Testing

@testable import KiwiGateway

/// Who gets past ``AuthenticationMiddleware``, in-process on fakes.
@Suite("Gateway router: authentication")
struct AuthenticationRouterTests {
    @Test("a request without an Authorization header is 401 unauthorized with a Bearer challenge")
    func missingHeader() async throws {
        try await FakeGateway().test { client async throws in
            let answer = try await client.execute(.get, "/v1/quota", token: nil)
            #expect(answer.status == .unauthorized)
            #expect(answer.errorCode == "unauthorized")
            #expect(answer.headers[.wwwAuthenticate] == #"Bearer realm="kiwi""#)
        }
    }

    @Test(
        "a malformed Authorization header is 401 with error=\"invalid_request\" in the challenge",
        arguments: ["Basic dXNlcjpwYXNz", "Bearer", "Bearer a b", "Bearer " + String(repeating: "x", count: 513)]
    )
    func malformedHeader(_ header: String) async throws {
        let gateway = FakeGateway()
        try await gateway.test { client async throws in
            let answer = try await client.execute(uri: "/v1/quota", method: .get, headers: [.authorization: header])
            #expect(answer.status == .unauthorized)
            #expect(answer.errorCode == "unauthorized")
            #expect(answer.headers[.wwwAuthenticate]?.contains(#"error="invalid_request""#) == true)
        }
        #expect(gateway.sessions.calls == 0)
    }

    @Test("a token the auth service does not know is 401 with error=\"invalid_token\"")
    func unknownToken() async throws {
        try await FakeGateway().test { client async throws in
            let answer = try await client.execute(.get, "/v1/quota", token: "no-such-session")
            #expect(answer.status == .unauthorized)
            #expect(answer.headers[.wwwAuthenticate]?.contains(#"error="invalid_token""#) == true)
        }
    }

    @Test("a session the auth service vouches for but that has expired since is 401")
    func expiredSession() async throws {
        let gateway = FakeGateway()
        let (token, _, _) = gateway.signIn(expiresAt: Date().addingTimeInterval(-1))
        try await gateway.test { client async throws in
            #expect(try await client.execute(.get, "/v1/quota", token: token).status == .unauthorized)
        }
    }

    @Test("an auth service that cannot be asked makes a request 503 auth_unavailable with Retry-After, never 401")
    func authServiceDown() async throws {
        let gateway = FakeGateway()
        let (token, _, _) = gateway.signIn()
        gateway.sessions.fail(with: AuthServiceUnavailable(description: "connection refused"))
        try await gateway.test { client async throws in
            let answer = try await client.execute(.get, "/v1/quota", token: token)
            #expect(answer.status == .serviceUnavailable)
            #expect(answer.errorCode == "auth_unavailable")
            #expect(answer.headers[.retryAfter] == "1")
        }
    }

    @Test("an introspection without a 32-byte quota key is 503 auth_unavailable")
    func missingQuotaKey() async throws {
        let gateway = FakeGateway()
        gateway.sessions.add(SessionIntrospection(userId: UUID(), expiresAt: Date().addingTimeInterval(60), quotaKey: "abcd"), for: "short-key")
        try await gateway.test { client async throws in
            let answer = try await client.execute(.get, "/v1/quota", token: "short-key")
            #expect(answer.status == .serviceUnavailable)
            #expect(answer.errorCode == "auth_unavailable")
        }
    }

    @Test("a session checked once is served from the cache for the next request")
    func cachedSession() async throws {
        let gateway = FakeGateway()
        let (token, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            #expect(try await client.execute(.get, "/v1/quota", token: token).status == .ok)
            #expect(try await client.execute(.get, "/v1/quota", token: token).status == .ok)
        }
        #expect(gateway.sessions.calls == 1)
    }

    @Test("while revocations are not being received every request asks the auth service")
    func noCachingWithoutRevocations() async throws {
        let gateway = FakeGateway()
        gateway.revocations(received: false)
        let (token, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            #expect(try await client.execute(.get, "/v1/quota", token: token).status == .ok)
            #expect(try await client.execute(.get, "/v1/quota", token: token).status == .ok)
        }
        #expect(gateway.sessions.calls == 2)
    }
}
