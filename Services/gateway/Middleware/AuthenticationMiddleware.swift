import CoreMetrics
import Foundation
import Hummingbird
import KiwiInternalAPI
import KiwiLogging
import KiwiModels
import KiwiServiceSupport
import Logging

/// Lets a request through only with a live session: `Authorization: Bearer <session token>`, introspected at the
/// auth service and cached briefly in ``SessionCache``. A missing, malformed, unknown, expired or revoked token is
/// 401; an auth service that cannot be asked is 503 `auth_unavailable`, never 401.
struct AuthenticationMiddleware: RouterMiddleware {
    typealias Context = GatewayRequestContext

    let cache: SessionCache
    let sessions: any SessionIntrospector
    let metrics: GatewayMetrics
    /// Whether revocations are being received; without them a cached session could outlive its sign-out.
    let cachingAllowed: @Sendable () -> Bool

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let header = request.headers[.authorization] else { throw APIError.unauthorized("Sign in first: the request has no bearer token.") }
        guard header.lowercased().hasPrefix("bearer "), case let token = header.dropFirst("Bearer ".count).trimmingCharacters(in: .whitespaces),
            (1...512).contains(token.utf8.count), !token.contains(" ")
        else { throw APIError.unauthorized("The Authorization header must be 'Bearer <session token>'.", bearerError: "invalid_request") }

        let hash = SessionTokenDigest.hex(token)
        let caching = cachingAllowed()
        var session = caching ? cache.session(forTokenHash: hash) : nil
        if session != nil {
            metrics.sessionLookedUp(.cached)
        } else {
            let (sessions, requestID) = (sessions, context.requestID)
            let introspect: @Sendable () async throws(AuthServiceUnavailable) -> SessionIntrospection? = {
                try await sessions.introspect(token, requestID: requestID)
            }
            let (asked, shared) = caching ? await cache.introspection(ofTokenHash: hash, introspect) : (await SessionCache.ask(introspect), false)
            metrics.sessionLookedUp(shared ? .shared : .asked)
            let introspection: SessionIntrospection?
            do {
                introspection = try asked.answer.get()
            } catch {
                throw error.answer(logging: "cannot check a session", logger: context.logger)
            }
            guard let introspection, introspection.expiresAt > Date() else {
                throw APIError.unauthorized("The session is unknown, expired or signed out; sign in again.", bearerError: "invalid_token")
            }
            guard let quotaKey = Data(hexEncoded: introspection.quotaKey), quotaKey.count == 32 else {
                throw AuthServiceUnavailable(description: "the auth service sent no valid quota key")
                    .answer(logging: "cannot check a session", logger: context.logger)
            }
            let fresh = AuthenticatedSession(userID: introspection.userId, expiresAt: introspection.expiresAt, quotaKey: quotaKey, tokenHash: hash)
            if caching { cache.store(fresh, requestedAt: asked.requestedAt) }
            session = fresh
        }
        var context = context
        context.session = session
        context.bearerToken = token
        let user = LogRedaction.userID(session!.userID)
        context.logger[metadataKey: "user"] = .string(user)
        context.facts.user = user
        return try await next(request, context)
    }
}
