import Foundation
import KiwiInternalAPI
import KiwiTestSupport
import Testing

@testable import KiwiGateway

@Suite("Session cache", .timeLimit(.minutes(1)))
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

    @Test("requests of one token that arrive while its introspection is on its way share it: the auth service is asked once")
    func concurrentRequestsShareOneIntrospection() async throws {
        let cache = SessionCache()
        let held = HeldIntrospection(user: user)
        async let first = cache.introspection(ofTokenHash: "aa", held.introspect)
        async let second = cache.introspection(ofTokenHash: "aa", held.introspect)
        // Declared after the requests, so it runs before they are awaited: a failed expectation ends the test, not hangs it.
        defer { held.answerAll() }
        try await eventually { cache.requests(sharingTokenHash: "aa") == 2 }
        held.answerAll()
        let answers = await [first, second]
        #expect(try answers.map { try $0.introspection.answer.get()?.userId } == [user, user])
        #expect(answers.filter(\.shared).count == 1)
        #expect(held.asked == 1)
        #expect(cache.requests(sharingTokenHash: "aa") == 0)
    }

    @Test(
        "a request after a revocation of the token or its user asks the auth service anew instead of sharing an introspection from before it",
        arguments: [false, true]
    )
    func revocationEndsSharing(ofUser: Bool) async throws {
        let cache = SessionCache()
        let shared = try await twoRequests(to: cache, whileTheFirstIsAsked: { cache.apply(ofUser ? .user(self.user) : .session(tokenHash: "aa")) })
        #expect(shared == [false, false])
    }

    @Test("a cache with no time to live shares no introspection either: every request asks the auth service")
    func noSharingWithoutCaching() async throws {
        #expect(try await twoRequests(to: SessionCache(timeToLive: .zero)) == [false, false])
    }

    /// Whether each of two requests of one token shared an introspection: the second made once the first has asked
    /// the auth service and `meanwhile` has run, both answered once the second has asked too.
    private func twoRequests(to cache: SessionCache, whileTheFirstIsAsked meanwhile: () -> Void = {}) async throws -> [Bool] {
        let held = HeldIntrospection(user: user)
        async let first = cache.introspection(ofTokenHash: "aa", held.introspect)
        defer { held.answerAll() }
        try await eventually { held.asked == 1 }
        meanwhile()
        async let second = cache.introspection(ofTokenHash: "aa", held.introspect)
        defer { held.answerAll() }
        try await eventually { held.asked == 2 }
        held.answerAll()
        return await [first, second].map(\.shared)
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

/// An introspection that answers only when told to, counting how often it was asked.
private final class HeldIntrospection: Sendable {
    private struct State {
        var asked = 0
        var waiting: [CheckedContinuation<Void, Never>] = []
        /// Once set, every introspection answers at once.
        var answering = false
    }

    private let state = Locked(State())
    let user: UUID

    init(user: UUID) {
        self.user = user
    }

    var asked: Int { state.withLock { $0.asked } }

    /// Lets every introspection answer, those waiting and those to come.
    func answerAll() {
        let waiting = state.withLock { state in
            state.answering = true
            defer { state.waiting = [] }
            return state.waiting
        }
        for continuation in waiting { continuation.resume() }
    }

    @Sendable func introspect() async throws(AuthServiceUnavailable) -> SessionIntrospection? {
        await withCheckedContinuation { continuation in
            let answering = state.withLock { state in
                state.asked += 1
                if !state.answering { state.waiting.append(continuation) }
                return state.answering
            }
            if answering { continuation.resume() }
        }
        return SessionIntrospection(userId: user, expiresAt: Date().addingTimeInterval(3600), quotaKey: String(repeating: "ab", count: 32))
    }
}
