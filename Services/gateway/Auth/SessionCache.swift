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
/// Revocation events (sign-out, account deletion) evict entries at once. An introspection that was already on its
/// way when its session was revoked must not put the session back: `store` refuses a result older than the
/// latest revocation that covers it.
final class SessionCache: Sendable {
    private struct State {
        var entries: [String: (session: AuthenticatedSession, until: ContinuousClock.Instant)] = [:]
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

    /// Forgets every session: revocations may have been missed (the subscription's connection dropped).
    func clear() {
        state.withLock { $0.entries.removeAll() }
    }

    /// Applies a revocation announced by the auth service.
    func apply(_ event: RevocationEvent) {
        let now = ContinuousClock.now
        state.withLock { state in
            let forgetBefore = now - revocationMemory
            state.revokedTokens = state.revokedTokens.filter { $0.value > forgetBefore }
            state.revokedUsers = state.revokedUsers.filter { $0.value > forgetBefore }
            if let hash = event.sessionTokenHash {
                state.entries[hash] = nil
                state.revokedTokens[hash] = now
            }
            if let userID = event.userId {
                state.entries = state.entries.filter { $0.value.session.userID != userID }
                state.revokedUsers[userID] = now
            }
        }
    }
}
