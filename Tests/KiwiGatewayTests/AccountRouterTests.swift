import Foundation
import HTTPTypes
import HummingbirdTesting
import KiwiInternalAPI
import NIOCore
import Testing

@testable import KiwiGateway

/// Sign-in, sign-out and account deletion, in-process on fakes.
@Suite("Gateway router: accounts")
struct AccountRouterTests {
    @Test("the auth service's sign-in answers 200, 400 and 401 reach the client unchanged", arguments: [200, 400, 401])
    func signInPassedThrough(_ status: Int) async throws {
        let gateway = FakeGateway()
        let body = #"{"error":"from auth","message":"as it was"}"#
        gateway.accounts.answerSignIn(status: status, body: body)
        try await gateway.test { client async throws in
            let answer = try await client.execute(.post, "/v1/auth/apple", token: nil, body: ByteBuffer(string: #"{"identityToken":"x"}"#))
            #expect(answer.status.code == status)
            #expect(String(buffer: answer.body) == body)
            #expect(answer.headers[.contentType] == "application/json; charset=utf-8")
        }
        #expect(gateway.accounts.signInBodies == [#"{"identityToken":"x"}"#])
    }

    @Test("any other sign-in answer of the auth service is the gateway's 503 auth_unavailable")
    func signInUnexpectedAnswer() async throws {
        let gateway = FakeGateway()
        gateway.accounts.answerSignIn(status: 500, body: "")
        try await gateway.test { client async throws in
            let answer = try await client.execute(.post, "/v1/auth/apple", token: nil, body: ByteBuffer(string: "{}"))
            #expect(answer.status == .serviceUnavailable)
            #expect(answer.errorCode == "auth_unavailable")
        }
    }

    @Test("a sign-in body over 64 KiB is 400 and never forwarded")
    func signInTooLarge() async throws {
        let gateway = FakeGateway()
        try await gateway.test { client async throws in
            let body = ByteBuffer(repeating: UInt8(ascii: "x"), count: SignInController.largestBody + 1)
            let answer = try await client.execute(.post, "/v1/auth/apple", token: nil, body: body)
            #expect(answer.status == .badRequest)
            #expect(answer.errorCode == "bad_request")
        }
        #expect(gateway.accounts.signInBodies.isEmpty)
    }

    @Test("DELETE /v1/auth/session revokes this request's token and forgets its cached session")
    func signOut() async throws {
        let gateway = FakeGateway()
        let (token, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            #expect(try await client.execute(.get, "/v1/quota", token: token).status == .ok)
            #expect(try await client.execute(.delete, "/v1/auth/session", token: token).status == .noContent)
        }
        #expect(gateway.accounts.revokedTokens == [token])
        #expect(gateway.cache.session(forTokenHash: SessionTokenDigest.hex(token)) == nil)
    }

    @Test("DELETE /v1/account deletes the caller's user and forgets every cached session of theirs")
    func deleteAccount() async throws {
        let gateway = FakeGateway()
        let (token, session, _) = gateway.signIn()
        try await gateway.test { client async throws in
            #expect(try await client.execute(.get, "/v1/quota", token: token).status == .ok)
            let answer = try await client.execute(.delete, "/v1/account", token: token)
            #expect(answer.status == .ok)
            #expect(try answer.json()["deleted"] as? Bool == true)
        }
        #expect(gateway.accounts.deletedUsers == [session.userId])
        #expect(gateway.cache.session(forTokenHash: SessionTokenDigest.hex(token)) == nil)
    }

    @Test("an account change the auth service cannot make is 503 auth_unavailable")
    func accountChangeUnavailable() async throws {
        let gateway = FakeGateway()
        let (token, _, _) = gateway.signIn()
        gateway.accounts.fail(with: AuthServiceUnavailable(description: "timed out"))
        try await gateway.test { client async throws in
            for path in ["/v1/account", "/v1/auth/session"] {
                let answer = try await client.execute(.delete, path, token: token)
                #expect(answer.status == .serviceUnavailable, "\(path)")
                #expect(answer.errorCode == "auth_unavailable", "\(path)")
            }
        }
    }
}
