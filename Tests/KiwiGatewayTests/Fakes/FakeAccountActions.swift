import Foundation
import NIOCore
import Synchronization

@testable import KiwiGateway

/// The auth service's account changes, recorded; sign-in answers whatever it was told to.
final class FakeAccountActions: AccountActions {
    private struct State {
        var signInAnswer = ForwardedResponse(status: 200, body: ByteBuffer(string: #"{"sessionToken":"fake"}"#))
        var signInBodies: [String] = []
        var revokedTokens: [String] = []
        var deletedUsers: [UUID] = []
        var failure: AuthServiceUnavailable?
    }

    private let state = Mutex(State())

    /// What `POST /v1/auth/apple` is answered with from now on.
    func answerSignIn(status: Int, body: String) {
        state.withLock { $0.signInAnswer = ForwardedResponse(status: status, body: ByteBuffer(string: body)) }
    }

    /// Makes every action fail (nil: succeed again).
    func fail(with failure: AuthServiceUnavailable?) {
        state.withLock { $0.failure = failure }
    }

    var signInBodies: [String] { state.withLock { $0.signInBodies } }
    var revokedTokens: [String] { state.withLock { $0.revokedTokens } }
    var deletedUsers: [UUID] { state.withLock { $0.deletedUsers } }

    func signInWithApple(body: ByteBuffer, requestID: String) async throws(AuthServiceUnavailable) -> ForwardedResponse {
        try state.withLock { state throws(AuthServiceUnavailable) in
            if let failure = state.failure { throw failure }
            state.signInBodies.append(String(buffer: body))
            return state.signInAnswer
        }
    }

    func revoke(_ token: String, requestID: String) async throws(AuthServiceUnavailable) {
        try state.withLock { state throws(AuthServiceUnavailable) in
            if let failure = state.failure { throw failure }
            state.revokedTokens.append(token)
        }
    }

    func deleteUser(_ id: UUID, requestID: String) async throws(AuthServiceUnavailable) {
        try state.withLock { state throws(AuthServiceUnavailable) in
            if let failure = state.failure { throw failure }
            state.deletedUsers.append(id)
        }
    }
}
