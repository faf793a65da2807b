import Foundation
import Hummingbird
import KiwiAppleSignIn
import KiwiInternalAPI
import KiwiLogging
import KiwiModels
import KiwiServiceSupport
import Logging

/// `POST /v1/auth/apple`: exchanges an Apple identity token for a Kiwi session.
struct AppleSignInController<Context: RequestContext> {
    let verifier: AppleIdentityTokenVerifier
    let users: PostgresUserStore
    let sessions: PostgresSessionStore

    func addRoutes(to group: RouterGroup<Context>) {
        group.post("apple", use: signIn)
    }

    @Sendable func signIn(request: Request, context: Context) async throws -> Response {
        let body: AppleSignInRequest
        do {
            body = try await request.decode(as: AppleSignInRequest.self, context: context)
        } catch {
            throw APIError.badRequest("The body must be JSON with an identityToken string.")
        }

        let identity: AppleIdentity
        do {
            identity = try await verifier.verify(body.identityToken)
        } catch .tooLong {
            throw APIError.badRequest("The identity token is longer than \(AppleIdentityTokenVerifier.maximumTokenLength) bytes.")
        } catch .keysUnavailable {
            throw APIError(.serviceUnavailable, .authUnavailable, "Sign in with Apple cannot be checked right now. Try again shortly.")
        } catch {
            context.logger.info("refused an Apple identity token", metadata: ["reason": "\(error)"])
            throw APIError(.unauthorized, .invalidToken, "The Apple identity token is not valid.")
        }

        let userID = try await users.upsert(appleUserID: identity.subject, email: identity.email)
        let token = SessionToken.generate()
        let expiresAt = Date(timeIntervalSinceNow: SessionToken.lifetime).rounded()
        try await sessions.create(userID: userID, tokenHash: SessionTokenDigest.sha256(token.value), expiresAt: expiresAt)
        context.logger.info("signed in", metadata: ["user": "\(LogRedaction.userID(userID))"])
        return try Response.json(SessionResponse(sessionToken: token.value, expiresAt: expiresAt))
    }
}
