import Foundation
import Hummingbird
import KiwiInternalAPI
import KiwiLogging
import KiwiModels
import KiwiServiceSupport
import Logging

/// The internal API the gateway calls: introspect a token, revoke a session, read a user for their export, delete a
/// user.
struct InternalController<Context: RequestContext> {
    let users: PostgresUserStore
    let sessions: PostgresSessionStore
    let quotaKeys: QuotaKeyMaker
    let announcer: RevocationAnnouncer

    func addRoutes(to group: RouterGroup<Context>) {
        group.post("sessions/introspect", use: introspect)
        group.post("sessions/revoke", use: revoke)
        group.get("users/:id", use: readUser)
        group.delete("users/:id", use: deleteUser)
    }

    @Sendable func introspect(request: Request, context: Context) async throws -> Response {
        let body = try await decodeToken(request, context)
        guard let session = try await sessions.find(tokenHash: SessionTokenDigest.sha256(body.token)) else {
            throw APIError.unauthorized("The session token is unknown, expired or revoked.")
        }
        return try Response.json(
            SessionIntrospection(
                userId: session.userID,
                expiresAt: session.expiresAt,
                quotaKey: quotaKeys.quotaKey(forAppleUserID: session.appleUserID).hexEncodedString
            )
        )
    }

    @Sendable func revoke(request: Request, context: Context) async throws -> Response {
        let body = try await decodeToken(request, context)
        if try await sessions.revoke(tokenHash: SessionTokenDigest.sha256(body.token)) {
            await announcer.announce(.session(tokenHash: SessionTokenDigest.hex(body.token)))
        }
        return Response(status: .noContent)
    }

    @Sendable func readUser(request: Request, context: Context) async throws -> Response {
        guard let account = try await users.account(try Self.userID(context)) else {
            throw APIError(.notFound, .notFound, "There is no such user.")
        }
        return try Response.json(account)
    }

    @Sendable func deleteUser(request: Request, context: Context) async throws -> Response {
        let id = try Self.userID(context)
        if try await users.delete(id) {
            context.logger.info("deleted a user and all their data", metadata: ["user": "\(LogRedaction.userID(id))"])
            await announcer.announce(.user(id))
        }
        return Response(status: .noContent)
    }

    private static func userID(_ context: Context) throws -> UUID {
        guard let id = context.parameters.get("id", as: UUID.self) else { throw APIError.badRequest("The user id must be a UUID.") }
        return id
    }

    private func decodeToken(_ request: Request, _ context: Context) async throws -> SessionTokenBody {
        do {
            return try await request.decode(as: SessionTokenBody.self, context: context)
        } catch {
            throw APIError.badRequest("The body must be JSON with a token string.")
        }
    }
}
