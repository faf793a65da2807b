import Foundation
import KiwiDatabase
import KiwiModels
import Logging
import PostgresNIO

/// The `profiles` table: one row per user who set a profile, the document as the API's JSON.
struct PostgresProfileStore: ProfileStore {
    let client: PostgresClient
    let logger: Logger
    /// The longest one operation may take; past it the request fails (503) instead of hanging on a stuck database.
    var timeout = StatementTimeout.default

    func profile(of userID: UUID) async throws -> KitchenProfile? {
        try await withStatementDeadline("profile read", timeout: timeout) {
            for try await json in try await client.execute(ProfileStatement(id: userID), logger: logger) {
                return try KiwiJSON.decoder().decode(KitchenProfile.self, from: Data(json.utf8))
            }
            return nil
        }
    }

    func profiles(of userIDs: [UUID]) async throws -> [UUID: KitchenProfile] {
        try await withStatementDeadline("profiles read", timeout: timeout) {
            let rows = try await client.query("SELECT user_id, profile::text FROM profiles WHERE user_id = ANY(\(userIDs))", logger: logger)
            var found: [UUID: KitchenProfile] = [:]
            for try await (userID, json) in rows.decode((UUID, String).self) {
                found[userID] = try KiwiJSON.decoder().decode(KitchenProfile.self, from: Data(json.utf8))
            }
            return found
        }
    }

    func save(_ profile: KitchenProfile, for userID: UUID) async throws {
        let json = String(decoding: try KiwiJSON.encoder().encode(profile), as: UTF8.self)
        try await withStatementDeadline("profile save", timeout: timeout) {
            try await client.execute(
                """
                INSERT INTO profiles (user_id, profile) VALUES (\(userID), \(json)::jsonb)
                ON CONFLICT (user_id) DO UPDATE SET profile = EXCLUDED.profile, updated_at = now()
                """,
                logger: logger
            )
        }
    }

    func adoptCurrency(_ currency: String, for userID: UUID) async throws {
        try await withStatementDeadline("profile currency", timeout: timeout) {
            try await client.execute(
                """
                INSERT INTO profiles (user_id, profile) VALUES (\(userID), jsonb_build_object('currency', \(currency)::text))
                ON CONFLICT (user_id) DO UPDATE SET profile = profiles.profile || EXCLUDED.profile, updated_at = now()
                WHERE NOT profiles.profile ? 'currency'
                """,
                logger: logger
            )
        }
    }

    func delete(of userID: UUID) async throws {
        try await withStatementDeadline("profile delete", timeout: timeout) {
            try await client.execute("DELETE FROM profiles WHERE user_id = \(userID)", logger: logger)
        }
    }
}

/// A person's profile as JSON, which every scan reads: prepared, as the scans' statements are.
private struct ProfileStatement: PreparedStatementByID {
    static let sql = "SELECT profile::text FROM profiles WHERE user_id = $1"
    typealias Row = String

    /// The person's.
    let id: UUID
}
