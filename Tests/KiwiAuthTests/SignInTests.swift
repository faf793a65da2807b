import Crypto
import Foundation
import HTTPTypes
import HummingbirdTesting
import KiwiDatabase
import KiwiInternalAPI
import KiwiModels
import KiwiTestSupport
import PostgresNIO
import Testing

@Suite("Sign in with Apple")
struct SignInTests {
    @Test("a valid identity token creates a session that introspects to its user, and the raw token is stored nowhere")
    func validTokenCreatesSession() async throws {
        let subject = AuthHarness.newSubject()
        try await AuthHarness.withService { client in
            let session = try await client.signIn(subject: subject, email: "kiwi@privaterelay.appleid.com")
            #expect(session.sessionToken.count == 43)
            #expect(abs(session.expiresAt.timeIntervalSinceNow - 30 * 24 * 3600) < 60)

            let response = try await client.introspect(session.sessionToken)
            #expect(response.status == .ok)
            let introspection = try KiwiJSON.decoder().decode(SessionIntrospection.self, from: Data(buffer: response.body))

            let rows = try await withClient(try PostgresClient.Configuration(url: try testDatabaseURL())) { postgres in
                var rows: [String] = []
                let query = try await postgres.query(
                    """
                    SELECT row_to_json(u)::text FROM users u WHERE u.apple_user_id = \(subject)
                    UNION ALL SELECT row_to_json(s)::text FROM sessions s JOIN users u ON u.id = s.user_id WHERE u.apple_user_id = \(subject)
                    UNION ALL SELECT encode(s.token_hash, 'hex') FROM sessions s JOIN users u ON u.id = s.user_id WHERE u.apple_user_id = \(subject)
                    """
                )
                for try await row in query.decode(String.self) { rows.append(row) }
                return rows
            }
            #expect(rows.count == 3)
            #expect(rows.contains { $0.contains(introspection.userId.uuidString.lowercased()) })
            #expect(!rows.contains { $0.contains(session.sessionToken) })
            let hash = SHA256.hash(data: Data(session.sessionToken.utf8)).hexEncodedString
            #expect(rows.last == hash)
        }
    }

    @Test("an invalid identity token is refused with 401 invalid_token")
    func invalidToken() async throws {
        try await AuthHarness.withService { client in
            let response = try await client.post("/v1/auth/apple", json: #"{"identityToken":"abc.def.ghi"}"#)
            #expect(response.status == .unauthorized)
            #expect(response.errorBody?.error == .invalidToken)
        }
    }

    @Test(
        "a malformed body, a token over 16 KiB or one with U+0000 is refused with 400",
        arguments: [
            "not json", #"{"token":"x"}"#, #"{"identityToken":"\#(String(repeating: "a", count: 16 * 1024 + 1))"}"#,
            #"{"identityToken":"abc.def\u0000.ghi"}"#,
        ]
    )
    func badRequests(_ body: String) async throws {
        try await AuthHarness.withService { client in
            let response = try await client.post("/v1/auth/apple", json: body)
            #expect(response.status == .badRequest)
            #expect(response.errorBody?.error == .badRequest)
        }
    }

    @Test("Apple's keys unreachable with none cached gives 503 auth_unavailable, not 401 or 500")
    func keysUnreachable() async throws {
        try await AuthHarness.withService(["APPLE_JWKS_FILE": "", "APPLE_JWKS_URL": "http://127.0.0.1:1/auth/keys"]) { client in
            let token = try await AuthHarness.identityToken(subject: AuthHarness.newSubject())
            let response = try await client.post("/v1/auth/apple", json: #"{"identityToken":"\#(token)"}"#)
            #expect(response.status == .serviceUnavailable)
            #expect(response.errorBody?.error == .authUnavailable)
        }
    }

    @Test("in production the development key is refused even when configured")
    func productionRefusesDevelopmentKey() async throws {
        try await AuthHarness.withService(["KIWI_ENV": "production", "APPLE_JWKS_URL": "http://127.0.0.1:1/auth/keys"]) { client in
            let token = try await AuthHarness.identityToken(subject: AuthHarness.newSubject())
            let response = try await client.post("/v1/auth/apple", json: #"{"identityToken":"\#(token)"}"#)
            // Had the development key been trusted, this would be 200; Apple's (unreachable) keys give 503.
            #expect(response.status == .serviceUnavailable)
        }
    }

    @Test("fifty concurrent first sign-ins of the same Apple account create exactly one user")
    func concurrentFirstSignIns() async throws {
        let subject = AuthHarness.newSubject()
        try await AuthHarness.withService { client in
            try await withThrowingDiscardingTaskGroup { group in
                for _ in 0..<50 { group.addTask { _ = try await client.signIn(subject: subject) } }
            }
        }
        let (users, sessions) = try await withClient(try PostgresClient.Configuration(url: try testDatabaseURL())) { postgres in
            var counts: [Int] = []
            for table in ["users u", "sessions s JOIN users u ON u.id = s.user_id"] {
                let rows = try await postgres.query(PostgresQuery(unsafeSQL: "SELECT count(*) FROM \(table) WHERE u.apple_user_id = '\(subject)'"))
                for try await count in rows.decode(Int.self) { counts.append(count) }
            }
            return (counts[0], counts[1])
        }
        #expect(users == 1)
        #expect(sessions == 50)
    }

    @Test("a later token's email replaces the stored one, and a token without email keeps it")
    func emailUpdates() async throws {
        let subject = AuthHarness.newSubject()
        try await AuthHarness.withService { client in
            _ = try await client.signIn(subject: subject, email: "first@privaterelay.appleid.com")
            _ = try await client.signIn(subject: subject)
            #expect(try await storedEmail(subject) == "first@privaterelay.appleid.com")
            _ = try await client.signIn(subject: subject, email: "second@example.com")
            #expect(try await storedEmail(subject) == "second@example.com")
        }
    }

    private func storedEmail(_ subject: String) async throws -> String? {
        try await withClient(try PostgresClient.Configuration(url: try testDatabaseURL())) { postgres in
            for try await email in try await postgres.query("SELECT email FROM users WHERE apple_user_id = \(subject)").decode(String?.self) {
                return email
            }
            return nil
        }
    }
}
