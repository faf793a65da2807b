import Foundation
import KiwiDatabase
import KiwiModels
import KiwiScans
import Logging
import PostgresNIO

/// A scan that has ended, as its notification tells of it.
struct EndedScan: Sendable, Equatable {
    var id: UUID
    var userID: UUID
    var state: ScanState
    /// The name of the answer's first recipe, in the answer's language; nil for a failed scan or an answer without one.
    var firstRecipe: String?
    /// The language the person reads: the answer's, else their profile's, else English.
    var language: AnswerLanguage
    /// When it ended: its notification is worth sending for ``KiwiTopology/notificationLifetime`` after.
    var endedAt: Date
}

/// A phone to tell: its token, the app it was registered for (`apns-topic`) and that app's APNs environment.
struct NotifiedDevice: Sendable, Equatable {
    var token: DeviceToken
    var bundleID: String
    var environment: PushEnvironment
}

/// The notifier's reads and writes (docs/architecture.md, "Push notifications"): the gateway's `scans`, `profiles`
/// and `devices`, read, and `notifications_sent`, written, the one record that a phone was told.
struct NotificationStore: Sendable {
    let client: PostgresClient
    let logger: Logger
    var timeout = StatementTimeout.default

    /// Scan `id` if it has ended; nil while it runs, and once it is gone (deleted with its account).
    func endedScan(_ id: UUID) async throws -> EndedScan? {
        try await withStatementDeadline("ended scan", timeout: timeout) {
            let rows = try await client.query(
                """
                SELECT s.user_id, s.state, s.result->'recipes'->0->>'name',
                       coalesce(s.result->'appliedProfile'->>'language', p.profile->>'language'), s.updated_at
                FROM scans s LEFT JOIN profiles p ON p.user_id = s.user_id
                WHERE s.id = \(id) AND s.state IN ('succeeded', 'failed')
                """,
                logger: logger
            )
            for try await (userID, state, firstRecipe, language, endedAt) in rows.decode((UUID, String, String?, String?, Date).self) {
                guard let state = ScanState(rawValue: state) else { return nil }
                return EndedScan(
                    id: id,
                    userID: userID,
                    state: state,
                    firstRecipe: firstRecipe,
                    language: language.flatMap(AnswerLanguage.init(rawValue:)) ?? .en,
                    endedAt: endedAt
                )
            }
            return nil
        }
    }

    /// The person's phones whose session still lasts and that have not been told of `scan`.
    func devicesToTell(of scan: EndedScan) async throws -> [NotifiedDevice] {
        try await withStatementDeadline("devices to tell", timeout: timeout) {
            let rows = try await client.query(
                """
                SELECT d.token, d.bundle_id, d.environment FROM devices d
                WHERE d.user_id = \(scan.userID) AND d.session_expires_at > now()
                AND NOT EXISTS (SELECT 1 FROM notifications_sent n WHERE n.scan_id = \(scan.id) AND n.token = d.token)
                ORDER BY d.token
                """,
                logger: logger
            )
            var devices: [NotifiedDevice] = []
            for try await (token, bundleID, environment) in rows.decode((String, String, String).self) {
                guard let token = DeviceToken(token), let environment = PushEnvironment(rawValue: environment) else { continue }
                devices.append(NotifiedDevice(token: token, bundleID: bundleID, environment: environment))
            }
            return devices
        }
    }

    /// Records that `token` was told of `scan`; nothing if it already was, or if the scan is gone meanwhile.
    func recordSent(_ scan: EndedScan, to token: DeviceToken) async throws {
        try await withStatementDeadline("notification record", timeout: timeout) {
            try await client.execute(
                """
                INSERT INTO notifications_sent (scan_id, token) SELECT \(scan.id), \(token.hex)
                WHERE EXISTS (SELECT 1 FROM scans WHERE id = \(scan.id))
                ON CONFLICT DO NOTHING
                """,
                logger: logger
            )
        }
    }

    /// Forgets `token`, which APNs says reaches no app any more, if it is still the person's.
    func forget(_ token: DeviceToken, of userID: UUID) async throws {
        try await withStatementDeadline("device forget", timeout: timeout) {
            try await client.execute("DELETE FROM devices WHERE token = \(token.hex) AND user_id = \(userID)", logger: logger)
        }
    }
}
