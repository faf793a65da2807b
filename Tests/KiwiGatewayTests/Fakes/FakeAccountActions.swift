import Foundation
import KiwiModels
import NIOCore
import Synchronization

@testable import KiwiGateway

/// The auth service's account changes, recorded, and its accounts; sign-in answers whatever it was told to.
final class FakeAccountActions: AccountActions {
    private struct State {
        var signInAnswer = ForwardedResponse(status: 200, body: ByteBuffer(string: #"{"sessionToken":"fake"}"#))
        var signInBodies: [String] = []
        var revokedTokens: [String] = []
        var deletedUsers: [UUID] = []
        var accounts: [UUID: UserAccount] = [:]
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

    /// What the auth service keeps of `userID` from now on; until told, an account of no email and no sessions, and none
    /// once deleted.
    func keep(_ account: UserAccount, of userID: UUID) {
        state.withLock { $0.accounts[userID] = account }
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

    func account(_ id: UUID, requestID: String) async throws(AuthServiceUnavailable) -> UserAccount? {
        try state.withLock { state throws(AuthServiceUnavailable) in
            if let failure = state.failure { throw failure }
            guard !state.deletedUsers.contains(id) else { return nil }
            return state.accounts[id]
                ?? UserAccount(userId: id, appleUserId: "000000.\(id.uuidString.lowercased()).0000", email: nil, createdAt: Date(), sessions: [])
        }
    }
}
