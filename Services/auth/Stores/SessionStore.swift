import Foundation
import KiwiDatabase
import Logging
import PostgresNIO

/// A session that is still valid, and whose it is.
struct LiveSession: Sendable, Hashable {
    let userID: UUID
    let expiresAt: Date
    /// The user's Apple `sub`; it never leaves the auth service.
    let appleUserID: String
}

/// The sessions table, addressed by token hash only. A concrete type, like ``PostgresUserStore``.
struct PostgresSessionStore: Sendable {
    let client: PostgresClient
    let logger: Logger
    /// The longest one operation may take; past it the request fails (503) instead of hanging on a stuck database.
    var timeout = StatementTimeout.default

    /// Stores a new session.
    func create(userID: UUID, tokenHash: Data, expiresAt: Date) async throws {
        try await withStatementDeadline("session create", timeout: timeout) {
            try await client.execute(
                "INSERT INTO sessions (user_id, token_hash, expires_at) VALUES (\(userID), \(tokenHash), \(expiresAt))",
                logger: logger
            )
        }
    }

    /// The live session with this token hash (not expired, not revoked), with its user's Apple `sub`.
    func find(tokenHash: Data) async throws -> LiveSession? {
        try await withStatementDeadline("session find", timeout: timeout) {
            let rows = try await client.query(
                """
                SELECT s.user_id, s.expires_at, u.apple_user_id FROM sessions s JOIN users u ON u.id = s.user_id
                WHERE s.token_hash = \(tokenHash) AND s.expires_at > now()
                """,
                logger: logger
            )
            for try await (userID, expiresAt, appleUserID) in rows.decode((UUID, Date, String).self) {
                return LiveSession(userID: userID, expiresAt: expiresAt, appleUserID: appleUserID)
            }
            return nil
        }
    }

    /// Deletes the session; returns whether it existed.
    func revoke(tokenHash: Data) async throws -> Bool {
        try await withStatementDeadline("session revoke", timeout: timeout) {
            let rows = try await client.query("DELETE FROM sessions WHERE token_hash = \(tokenHash) RETURNING id", logger: logger)
            for try await _ in rows.decode(UUID.self) { return true }
            return false
        }
    }

    /// Deletes expired sessions and returns how many.
    func purgeExpired() async throws -> Int {
        try await withStatementDeadline("session purge", timeout: timeout) {
            let rows = try await client.query(
                "WITH purged AS (DELETE FROM sessions WHERE expires_at <= now() RETURNING 1) SELECT count(*) FROM purged",
                logger: logger
            )
            for try await count in rows.decode(Int.self) { return count }
            return 0
        }
    }
}
