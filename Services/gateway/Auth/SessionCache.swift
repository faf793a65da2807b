import Foundation
import KiwiInternalAPI
import Synchronization

/// Whose request this is: the session behind a bearer token, as the auth service vouched for it.
struct AuthenticatedSession: Sendable, Hashable {
    let userID: UUID
    let expiresAt: Date
    /// The key the person's daily scans are counted under (``SessionIntrospection/quotaKey``), 32 bytes.
    let quotaKey: Data
    /// Hex SHA-256 of the token: how caches and revocation events name it (never the token itself).
    let tokenHash: String
}

/// Introspection results, kept for a few seconds so that not every request costs a call to the auth service.
///
/// Revocation events (sign-outs, account deletion) evict entries at once. An introspection that was already on its
/// way when its session was revoked must not put the session back: `store` refuses a result older than the
/// latest revocation that covers it.
///
/// A token that is not cached is introspected once however many of its requests arrive while the answer is on its way
/// (``introspection(ofTokenHash:_:)``): when the auth service is slow, a person's every lane would otherwise ask it
/// again, and slow it down further. A cache with no time to live shares nothing either.
final class SessionCache: Sendable {
    /// What an introspection answered, and when it was asked.
    typealias Introspection = (answer: Result<SessionIntrospection?, AuthServiceUnavailable>, requestedAt: ContinuousClock.Instant)

    private struct Flight {
        let id: UUID
        let task: Task<Introspection, Never>
        /// How many requests it answers, the one that started it included.
        var requests = 1
    }

    private struct State {
        var entries: [String: (session: AuthenticatedSession, until: ContinuousClock.Instant)] = [:]
        /// Introspections on their way, by token hash.
        var flights: [String: Flight] = [:]
        /// When tokens and users were last revoked, kept as long as an introspection can take.
        var revokedTokens: [String: ContinuousClock.Instant] = [:]
        var revokedUsers: [UUID: ContinuousClock.Instant] = [:]
    }

    private let state = Mutex(State())
    /// How long an introspection result is trusted.
    let timeToLive: Duration
    /// How long a revocation is remembered against in-flight introspections; longer than any introspection takes.
    let revocationMemory: Duration
    /// The most entries kept; beyond it, expired entries are dropped, then the cache starts over.
    let capacity: Int

    init(timeToLive: Duration = .seconds(5), revocationMemory: Duration = .seconds(30), capacity: Int = 100_000) {
        self.timeToLive = timeToLive
        self.revocationMemory = revocationMemory
        self.capacity = capacity
    }

    /// The cached session for a token hash, if still fresh and not expired.
    func session(forTokenHash hash: String, now: Date = Date()) -> AuthenticatedSession? {
        state.withLock { state in
            guard let entry = state.entries[hash] else { return nil }
            guard entry.until > .now, entry.session.expiresAt > now else {
                state.entries[hash] = nil
                return nil
            }
            return entry.session
        }
    }

    /// Caches an introspection result that was requested at `requestedAt`, unless a revocation came since.
    func store(_ session: AuthenticatedSession, requestedAt: ContinuousClock.Instant) {
        state.withLock { state in
            if let revoked = state.revokedTokens[session.tokenHash], revoked >= requestedAt { return }
            if let revoked = state.revokedUsers[session.userID], revoked >= requestedAt { return }
            if state.entries.count >= capacity {
                let now = ContinuousClock.now
                state.entries = state.entries.filter { $0.value.until > now }
                if state.entries.count >= capacity { state.entries.removeAll(keepingCapacity: true) }
            }
            state.entries[session.tokenHash] = (session, .now + timeToLive)
        }
    }

    /// The introspection of the token hashed as `hash`: the one already on its way (`shared`), or `introspect`, run
    /// once for every request of the token that arrives until it answers. A request cancelled meanwhile still waits
    /// for the answer (at most the auth client's timeout): the others need it.
    func introspection(
        ofTokenHash hash: String,
        _ introspect: @escaping @Sendable () async throws(AuthServiceUnavailable) -> SessionIntrospection?
    ) async -> (introspection: Introspection, shared: Bool) {
        guard timeToLive > .zero else { return (await Self.ask(introspect), false) }
        let (task, shared) = state.withLock { state in
            if let flight = state.flights[hash]?.task {
                state.flights[hash]?.requests += 1
                return (flight, true)
            }
            let id = UUID()
            let task = Task { () -> Introspection in
                let asked = await Self.ask(introspect)
                self.land(hash, id)
                return asked
            }
            state.flights[hash] = Flight(id: id, task: task)
            return (task, false)
        }
        return (await task.value, shared)
    }

    /// How many requests the introspection of `hash` that is on its way answers; 0 when none is on its way.
    func requests(sharingTokenHash hash: String) -> Int {
        state.withLock { $0.flights[hash]?.requests ?? 0 }
    }

    /// `introspect`'s answer, asked now.
    static func ask(_ introspect: () async throws(AuthServiceUnavailable) -> SessionIntrospection?) async -> Introspection {
        let requestedAt = ContinuousClock.now
        do { return (.success(try await introspect()), requestedAt) } catch { return (.failure(error), requestedAt) }
    }

    /// Forgets flight `id` of `hash` once it has answered, unless a revocation already has.
    private func land(_ hash: String, _ id: UUID) {
        state.withLock { state in
            if state.flights[hash]?.id == id { state.flights[hash] = nil }
        }
    }

    /// Forgets every session: revocations may have been missed (the subscription's connection dropped).
    func clear() {
        state.withLock { state in
            state.entries.removeAll()
            state.flights.removeAll()
        }
    }

    /// Applies a revocation announced by the auth service.
    func apply(_ event: RevocationEvent) {
        let now = ContinuousClock.now
        state.withLock { state in
            let forgetBefore = now - revocationMemory
            state.revokedTokens = state.revokedTokens.filter { $0.value > forgetBefore }
            state.revokedUsers = state.revokedUsers.filter { $0.value > forgetBefore }
            // A request after the revocation asks anew: an introspection on its way may have been answered before it.
            // Flights are known by token, not user, so a user's revocation forgets them all.
            if let hash = event.sessionTokenHash {
                state.entries[hash] = nil
                state.flights[hash] = nil
                state.revokedTokens[hash] = now
            }
            if let userID = event.userId {
                state.entries = state.entries.filter { $0.value.session.userID != userID }
                state.flights.removeAll()
                state.revokedUsers[userID] = now
            }
        }
    }
}

/// How a request's session was found: in the cache, by asking the auth service, or by waiting for the answer another
/// request of the same token asked for.
enum SessionLookup {
    case cached, asked, shared
}
