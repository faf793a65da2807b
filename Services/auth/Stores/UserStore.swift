import Foundation
import KiwiDatabase
import KiwiModels
import Logging
import PostgresNIO

/// The users table: one row per Apple account. A concrete type, not a protocol: everything auth does is SQL, and its
/// tests run it against the real PostgreSQL.
struct PostgresUserStore: Sendable {
    let client: PostgresClient
    let logger: Logger
    /// The longest one operation may take; past it the request fails (503) instead of hanging on a stuck database.
    var timeout = StatementTimeout.default

    /// The user with this Apple `sub`, created if new; `email`, when given, replaces the stored one.
    /// One statement: concurrent first sign-ins of the same `sub` meet in the unique index, and every one
    /// of them gets the same row back.
    func upsert(appleUserID: String, email: String?) async throws -> UUID {
        try await withStatementDeadline("user upsert", timeout: timeout) {
            let rows = try await client.query(
                """
                INSERT INTO users (apple_user_id, email) VALUES (\(appleUserID), \(email))
                ON CONFLICT (apple_user_id) DO UPDATE
                    SET email = COALESCE(EXCLUDED.email, users.email), updated_at = now()
                RETURNING id
                """,
                logger: logger
            )
            for try await id in rows.decode(UUID.self) { return id }
            throw PostgresRowMissing()
        }
    }

    /// What is kept of the user, with their sessions that have not expired; nil when there is no such user.
    func account(_ id: UUID) async throws -> UserAccount? {
        try await withStatementDeadline("user read", timeout: timeout) {
            let rows = try await client.query(
                """
                SELECT u.apple_user_id, u.email, u.created_at, s.created_at, s.expires_at
                FROM users u LEFT JOIN sessions s ON s.user_id = u.id AND s.expires_at > now()
                WHERE u.id = \(id) ORDER BY s.created_at DESC
                """,
                logger: logger
            )
            var account: UserAccount?
            for try await (appleUserID, email, createdAt, sessionStart, sessionEnd) in rows.decode((String, String?, Date, Date?, Date?).self) {
                if account == nil { account = UserAccount(userId: id, appleUserId: appleUserID, email: email, createdAt: createdAt, sessions: []) }
                if let sessionStart, let sessionEnd { account?.sessions.append(SessionPeriod(createdAt: sessionStart, expiresAt: sessionEnd)) }
            }
            return account
        }
    }

    /// Deletes the user; their sessions go with them. Returns whether the user existed.
    func delete(_ id: UUID) async throws -> Bool {
        try await withStatementDeadline("user delete", timeout: timeout) {
            let rows = try await client.query("DELETE FROM users WHERE id = \(id) RETURNING id", logger: logger)
            for try await _ in rows.decode(UUID.self) { return true }
            return false
        }
    }
}
