import Foundation
import HTTPTypes
import HummingbirdTesting
import KiwiDatabase
import KiwiDevelopment
import KiwiInternalAPI
import KiwiMessaging
import KiwiModels
import KiwiTestSupport
import KiwiTopology
import Logging
import PostgresNIO
import Testing

@testable import KiwiAuth

@Suite("Internal API and sessions")
struct InternalAPITests {
    @Test("the auth service echoes X-Request-Id and answers unknown paths and wrong methods in the API's error shape")
    func requestTrackingAndErrorShape() async throws {
        try await AuthHarness.withService { client in
            let requestID = HTTPField.Name("X-Request-Id")!
            let health = try await client.execute(uri: "/health", method: .get, headers: [requestID: "auth-test-1"])
            #expect(health.headers[requestID] == "auth-test-1")
            let missing = try await client.execute(uri: "/nothing-here", method: .get)
            #expect(missing.status == .notFound && missing.errorBody?.error == .notFound)
            #expect(missing.headers[requestID]?.isEmpty == false)
            let wrong = try await client.execute(uri: "/v1/auth/apple", method: .get)
            #expect(wrong.status == .methodNotAllowed && wrong.errorBody?.error == .methodNotAllowed)
            #expect(wrong.headers[.allow] == "POST")
        }
    }

    @Test(
        "the internal API refuses requests without the internal token or with a wrong one with 403, not a session's 401",
        arguments: [nil, "wrong-token", ""]
    )
    func internalTokenRequired(_ internalToken: String?) async throws {
        try await AuthHarness.withService { client in
            let session = try await client.signIn(subject: AuthHarness.newSubject())
            let response = try await client.introspect(session.sessionToken, internalToken: internalToken)
            #expect(response.status == .forbidden)
            #expect(response.errorBody?.error == .forbidden)
        }
    }

    @Test("an unknown session token does not introspect")
    func unknownToken() async throws {
        try await AuthHarness.withService { client in
            let response = try await client.introspect("no-such-token")
            #expect(response.status == .unauthorized)
        }
    }

    @Test("a session token with U+0000 is refused with 400, as text no service stores")
    func tokenWithNULIsRefused() async throws {
        try await AuthHarness.withService { client in
            let response = try await client.introspect(#"no-such\u0000token"#)
            #expect(response.status == .badRequest)
            #expect(response.errorBody?.error == .badRequest)
        }
    }

    @Test("an expired session does not introspect")
    func expiredSession() async throws {
        try await AuthHarness.withService { client in
            let session = try await client.signIn(subject: AuthHarness.newSubject())
            try await database { postgres in
                try await postgres.query(
                    "UPDATE sessions SET expires_at = now() - interval '1 second' WHERE token_hash = \(SessionTokenDigest.sha256(session.sessionToken))"
                )
            }
            #expect(try await client.introspect(session.sessionToken).status == .unauthorized)
        }
    }

    @Test("a revoked session no longer introspects, and its revocation is announced to the gateways")
    func revokedSession() async throws {
        try await withRevocationEvents { events in
            try await AuthHarness.withService { client in
                let session = try await client.signIn(subject: AuthHarness.newSubject())
                let revoke = try await client.post(
                    "/internal/v1/sessions/revoke",
                    json: #"{"token":"\#(session.sessionToken)"}"#,
                    headers: [.authorization: "Bearer \(AuthHarness.internalToken)"]
                )
                #expect(revoke.status == .noContent)
                #expect(try await client.introspect(session.sessionToken).status == .unauthorized)
                #expect(await events.first { $0 == .session(tokenHash: SessionTokenDigest.hex(session.sessionToken)) } != nil)
            }
        }
    }

    @Test("deleting a user removes them and their sessions, and is announced to the gateways")
    func deleteUser() async throws {
        try await withRevocationEvents { events in
            try await AuthHarness.withService { client in
                let session = try await client.signIn(subject: AuthHarness.newSubject())
                let userID = try KiwiJSON.decoder().decode(
                    SessionIntrospection.self,
                    from: Data(buffer: try await client.introspect(session.sessionToken).body)
                ).userId
                let response = try await client.execute(
                    uri: InternalAPI.userPath(userID),
                    method: .delete,
                    headers: [.authorization: "Bearer \(AuthHarness.internalToken)"]
                )
                #expect(response.status == .noContent)
                #expect(try await client.introspect(session.sessionToken).status == .unauthorized)
                let remaining = try await database { postgres in
                    var total = 0
                    for table in ["users WHERE id", "sessions WHERE user_id"] {
                        let rows = try await postgres.query(PostgresQuery(unsafeSQL: "SELECT count(*) FROM \(table) = '\(userID.uuidString)'"))
                        for try await count in rows.decode(Int.self) { total += count }
                    }
                    return total
                }
                #expect(remaining == 0)
                #expect(await events.first { $0 == .user(userID) } != nil)
            }
        }
    }

    @Test("reading a user answers their Apple id, when they signed up and their live sessions; an unknown user is 404")
    func readUser() async throws {
        try await AuthHarness.withService { client in
            let subject = AuthHarness.newSubject()
            let first = try await client.signIn(subject: subject)
            _ = try await client.signIn(subject: subject)
            let userID = try KiwiJSON.decoder().decode(
                SessionIntrospection.self,
                from: Data(buffer: try await client.introspect(first.sessionToken).body)
            ).userId
            let authorized: HTTPFields = [.authorization: "Bearer \(AuthHarness.internalToken)"]
            let response = try await client.execute(uri: InternalAPI.userPath(userID), method: .get, headers: authorized)
            #expect(response.status == .ok)
            let account = try KiwiJSON.decoder().decode(UserAccount.self, from: Data(buffer: response.body))
            #expect(account.appleUserId == subject)
            #expect(account.sessions.count == 2)
            #expect(account.sessions.allSatisfy { $0.expiresAt > Date() })
            #expect(try await client.execute(uri: InternalAPI.userPath(UUID()), method: .get, headers: authorized).status == .notFound)
        }
    }

    @Test("introspection's quota key is the same for every account of one Apple id and differs between Apple ids")
    func quotaKeyFollowsTheAppleID() async throws {
        try await AuthHarness.withService { client in
            func quotaKey(_ subject: String) async throws -> (key: String, user: UUID) {
                let session = try await client.signIn(subject: subject)
                let introspection = try KiwiJSON.decoder().decode(
                    SessionIntrospection.self,
                    from: Data(buffer: try await client.introspect(session.sessionToken).body)
                )
                return (introspection.quotaKey, introspection.userId)
            }
            let subject = AuthHarness.newSubject()
            let first = try await quotaKey(subject)
            let deletion = try await client.execute(
                uri: InternalAPI.userPath(first.user),
                method: .delete,
                headers: [.authorization: "Bearer \(AuthHarness.internalToken)"]
            )
            #expect(deletion.status == .noContent)
            let again = try await quotaKey(subject)
            #expect(again.user != first.user)
            let other = try await quotaKey(AuthHarness.newSubject())
            #expect(first.key.count == 64 && first.key == again.key)
            #expect(other.key != first.key)
        }
    }

    @Test("purging deletes expired sessions and keeps live ones")
    func purgeExpired() async throws {
        try await AuthHarness.withService { client in
            let live = try await client.signIn(subject: AuthHarness.newSubject())
            let expired = try await client.signIn(subject: AuthHarness.newSubject())
            try await database { postgres in
                try await postgres.query(
                    "UPDATE sessions SET expires_at = now() - interval '1 day' WHERE token_hash = \(SessionTokenDigest.sha256(expired.sessionToken))"
                )
                let repository = PostgresSessionStore(client: postgres, logger: Logger(label: "test.purge"))
                #expect(try await repository.purgeExpired() >= 1)
                #expect(try await repository.find(tokenHash: SessionTokenDigest.sha256(live.sessionToken)) != nil)
                let rows = try await postgres.query(
                    "SELECT count(*) FROM sessions WHERE token_hash = \(SessionTokenDigest.sha256(expired.sessionToken))"
                )
                for try await count in rows.decode(Int.self) { #expect(count == 0) }
            }
        }
    }

    @discardableResult
    private func database<Result: Sendable>(_ body: @Sendable (PostgresClient) async throws -> Result) async throws -> Result {
        try await withClient(try PostgresClient.Configuration(url: try testDatabaseURL()), body)
    }

    /// Subscribes to the revocation exchange like a gateway does, for as long as `body` runs.
    private func withRevocationEvents(
        _ body: @Sendable (AsyncCompactMapSequence<AsyncStream<AMQPDelivery>, RevocationEvent>) async throws -> Void
    ) async throws {
        let subscription = KiwiTopology.revocationSubscription(instance: UUID().uuidString.lowercased())
        let consumer = AMQPConsumer(
            settings: try AMQPSettings(url: try testAMQPURL(), connectionName: "kiwi-test-revocations"),
            queue: subscription.queue,
            prefetch: 100,
            autoAck: true,
            topology: subscription.topology,
            logger: Logger(label: "test.revocations")
        )
        try await whileRunning([consumer]) {
            await consumer.waitUntilConnected()
            try await body(consumer.deliveries.compactMap { try? KiwiJSON.decoder().decode(RevocationEvent.self, from: Data($0.message.body)) })
        }
    }
}
