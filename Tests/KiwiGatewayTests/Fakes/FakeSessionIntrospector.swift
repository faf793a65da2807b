import Foundation
import KiwiInternalAPI
import KiwiModels
import Synchronization

@testable import KiwiGateway

/// The auth service's introspection, from a table of tokens: an unknown token is no session.
final class FakeSessionIntrospector: SessionIntrospector {
    private struct State {
        var sessions: [String: SessionIntrospection] = [:]
        var failure: AuthServiceUnavailable?
        var calls = 0
    }

    private let state = Mutex(State())

    /// Makes `token` a live session of a new user, valid for an hour, and returns it.
    @discardableResult
    func signIn(_ token: String, userID: UUID = UUID(), expiresAt: Date = Date().addingTimeInterval(3600)) -> SessionIntrospection {
        let session = SessionIntrospection(userId: userID, expiresAt: expiresAt, quotaKey: Self.quotaKey(for: userID))
        add(session, for: token)
        return session
    }

    /// Answers `session` for `token`, as it is (an expired or malformed one included).
    func add(_ session: SessionIntrospection, for token: String) {
        state.withLock { $0.sessions[token] = session }
    }

    /// Makes every introspection fail (nil: answer again).
    func fail(with failure: AuthServiceUnavailable?) {
        state.withLock { $0.failure = failure }
    }

    /// How many introspections were asked for.
    var calls: Int { state.withLock { $0.calls } }

    func introspect(_ token: String, requestID: String) async throws(AuthServiceUnavailable) -> SessionIntrospection? {
        let (session, failure) = state.withLock { state in
            state.calls += 1
            return (state.sessions[token], state.failure)
        }
        if let failure { throw failure }
        return session
    }

    /// A 32-byte quota key derived from the user id, as hex: one per user, like the auth service's.
    static func quotaKey(for userID: UUID) -> String {
        let bytes = withUnsafeBytes(of: userID.uuid) { Array($0) }
        return (bytes + bytes).hexEncodedString
    }
}
