import Foundation
import KiwiInternalAPI
import Testing

@testable import KiwiGateway

@Suite("Session cache")
struct SessionCacheTests {
    let user: UUID
    let session: AuthenticatedSession

    init() {
        user = UUID()
        session = AuthenticatedSession(userID: user, expiresAt: Date().addingTimeInterval(3600), quotaKey: Data(count: 32), tokenHash: "aa")
    }

    @Test("a stored session is served until its time to live runs out")
    func servesUntilTTL() async throws {
        let cache = SessionCache(timeToLive: .milliseconds(100))
        cache.store(session, requestedAt: .now)
        #expect(cache.session(forTokenHash: "aa") == session)
        try await Task.sleep(for: .milliseconds(150))
        #expect(cache.session(forTokenHash: "aa") == nil)
    }

    @Test("a session whose own expiry has passed is not served")
    func expiredSessionIsNotServed() {
        let cache = SessionCache()
        cache.store(
            AuthenticatedSession(userID: user, expiresAt: Date().addingTimeInterval(-1), quotaKey: Data(count: 32), tokenHash: "aa"),
            requestedAt: .now
        )
        #expect(cache.session(forTokenHash: "aa") == nil)
    }

    @Test("a revoked token and every session of a deleted user are evicted at once")
    func revocationsEvict() {
        let cache = SessionCache()
        cache.store(session, requestedAt: .now)
        cache.store(AuthenticatedSession(userID: user, expiresAt: session.expiresAt, quotaKey: Data(count: 32), tokenHash: "bb"), requestedAt: .now)
        cache.store(AuthenticatedSession(userID: UUID(), expiresAt: session.expiresAt, quotaKey: Data(count: 32), tokenHash: "cc"), requestedAt: .now)
        cache.apply(.session(tokenHash: "aa"))
        #expect(cache.session(forTokenHash: "aa") == nil && cache.session(forTokenHash: "bb") != nil)
        cache.apply(.user(user))
        #expect(cache.session(forTokenHash: "bb") == nil && cache.session(forTokenHash: "cc") != nil)
    }

    @Test("an introspection that started before a revocation does not put the session back")
    func lateIntrospectionIsDropped() {
        let cache = SessionCache()
        let requestedAt = ContinuousClock.now
        cache.apply(.session(tokenHash: "aa"))
        cache.store(session, requestedAt: requestedAt)
        #expect(cache.session(forTokenHash: "aa") == nil)
        cache.store(session, requestedAt: .now)
        #expect(cache.session(forTokenHash: "aa") == session)
    }

    @Test("a full cache drops its expired entries first and never grows past its capacity")
    func capacityIsBounded() {
        let cache = SessionCache(capacity: 2)
        for hash in ["a", "b", "c"] {
            cache.store(
                AuthenticatedSession(userID: user, expiresAt: session.expiresAt, quotaKey: Data(count: 32), tokenHash: hash),
                requestedAt: .now
            )
        }
        #expect(cache.session(forTokenHash: "c") != nil)
        #expect([cache.session(forTokenHash: "a"), cache.session(forTokenHash: "b")].compactMap { $0 }.count <= 1)
    }
}
