import Foundation
import KiwiDatabase
import KiwiModels
import Logging
import PostgresNIO

/// The `devices` table: one row per token, with its person and the session that registered it.
struct PostgresDeviceStore: DeviceStore {
    let client: PostgresClient
    let logger: Logger
    /// The longest one operation may take; past it the request fails (503) instead of hanging on a stuck database.
    var timeout = StatementTimeout.default

    /// The person's registrations take turns (a lock on their id for the transaction), so that two at once never leave
    /// more than `limit`.
    func register(_ registration: DeviceRegistration, for userID: UUID, session: DeviceSession, limit: Int) async throws -> Device {
        guard let sessionHash = Data(hexEncoded: session.tokenHash) else { preconditionFailure("a session's token hash is hex") }
        return try await withStatementDeadline("device register", timeout: timeout) {
            try await client.withTransaction(logger: logger) { connection in
                try await connection.query("SELECT pg_advisory_xact_lock(hashtextextended(\(userID.uuidString), 0))", logger: logger)
                let rows = try await connection.query(
                    """
                    INSERT INTO devices (token, user_id, session_hash, session_expires_at, bundle_id, environment)
                    VALUES (\(registration.token.hex), \(userID), \(sessionHash), \(session.expiresAt), \(registration.bundleID),
                            \(registration.environment.rawValue))
                    ON CONFLICT (token) DO UPDATE SET user_id = EXCLUDED.user_id, session_hash = EXCLUDED.session_hash,
                        session_expires_at = EXCLUDED.session_expires_at, bundle_id = EXCLUDED.bundle_id,
                        environment = EXCLUDED.environment, registered_at = now()
                    RETURNING registered_at
                    """,
                    logger: logger
                )
                var registeredAt: Date?
                for try await at in rows.decode(Date.self) { registeredAt = at }
                guard let registeredAt else { throw PostgresRowMissing() }
                try await connection.query(
                    """
                    DELETE FROM devices WHERE user_id = \(userID) AND token IN (
                        SELECT token FROM devices WHERE user_id = \(userID) ORDER BY registered_at DESC, token OFFSET \(limit)
                    )
                    """,
                    logger: logger
                )
                return Device(
                    tokenEnding: registration.token.ending,
                    bundleId: registration.bundleID,
                    environment: registration.environment,
                    registeredAt: registeredAt
                )
            }
        }
    }

    func remove(_ token: DeviceToken, of userID: UUID) async throws -> Bool {
        try await withStatementDeadline("device remove", timeout: timeout) {
            let rows = try await client.query("DELETE FROM devices WHERE token = \(token.hex) AND user_id = \(userID) RETURNING 1", logger: logger)
            for try await _ in rows.decode(Int.self) { return true }
            return false
        }
    }

    func removeAll(ofSession sessionTokenHash: String) async throws {
        guard let session = Data(hexEncoded: sessionTokenHash) else { preconditionFailure("a session's token hash is hex") }
        try await withStatementDeadline("session devices remove", timeout: timeout) {
            try await client.execute("DELETE FROM devices WHERE session_hash = \(session)", logger: logger)
        }
    }

    func removeAll(of userID: UUID) async throws {
        try await withStatementDeadline("devices remove", timeout: timeout) {
            try await client.execute("DELETE FROM devices WHERE user_id = \(userID)", logger: logger)
        }
    }

    func devices(of userID: UUID, at now: Date) async throws -> [Device] {
        try await withStatementDeadline("devices read", timeout: timeout) {
            let rows = try await client.query(
                """
                SELECT token, bundle_id, environment, registered_at FROM devices
                WHERE user_id = \(userID) AND session_expires_at > \(now) ORDER BY registered_at DESC, token
                """,
                logger: logger
            )
            var devices: [Device] = []
            for try await (token, bundleID, environment, registeredAt) in rows.decode((String, String, String, Date).self) {
                guard let token = DeviceToken(token), let environment = PushEnvironment(rawValue: environment) else { throw PostgresRowMissing() }
                devices.append(Device(tokenEnding: token.ending, bundleId: bundleID, environment: environment, registeredAt: registeredAt))
            }
            return devices
        }
    }

    func removeExpired(before now: Date) async throws -> Int {
        try await withStatementDeadline("expired devices remove", timeout: timeout) {
            let rows = try await client.query("DELETE FROM devices WHERE session_expires_at <= \(now) RETURNING 1", logger: logger)
            var removed = 0
            for try await _ in rows.decode(Int.self) { removed += 1 }
            return removed
        }
    }
}
