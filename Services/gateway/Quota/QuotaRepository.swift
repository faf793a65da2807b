import Foundation
import KiwiConcurrency
import KiwiDatabase
import Logging
import PostgresNIO

/// One scan taken from a person's allowance for a given UTC day; refunding gives back exactly that day's scan.
struct QuotaReservation: Sendable, Hashable {
    let quotaKey: Data
    let day: String
}

/// The `scan_usage` table: scans used per person (their quota key, ``AuthenticatedSession/quotaKey``) per UTC day.
/// The database is the authority, so every gateway replica sees the same counts.
protocol QuotaRepository: Sendable {
    /// Scans the person with `quotaKey` has used on `day`.
    func used(by quotaKey: Data, on day: String) async throws -> Int
    /// Takes one scan if fewer than `limit` were used on `day`, atomically: concurrent requests can never exceed it.
    /// Returns nil when the allowance is spent.
    func reserve(for quotaKey: Data, on day: String, limit: Int) async throws -> QuotaReservation?
    /// Gives a reserved scan back (the scan failed).
    func refund(_ reservation: QuotaReservation) async throws
    /// Deletes the counts of days before `day`: usage is kept only for the day it counts against. Returns how many.
    func purge(before day: String) async throws -> Int
}

struct PostgresQuotaRepository: QuotaRepository {
    let client: PostgresClient
    let logger: Logger
    /// The longest a quota statement may take; past it the request fails (503) instead of hanging on a stuck database.
    var timeout = Duration.seconds(5)

    func used(by quotaKey: Data, on day: String) async throws -> Int {
        try await withStatementDeadline("quota used", timeout: timeout) { try await usedNow(by: quotaKey, on: day) }
    }

    private func usedNow(by quotaKey: Data, on day: String) async throws -> Int {
        let rows = try await client.query(
            "SELECT scan_count FROM scan_usage WHERE quota_key = \(quotaKey) AND scan_date = \(day)::date",
            logger: logger
        )
        for try await count in rows.decode(Int.self) { return count }
        return 0
    }

    /// One statement: the first scan of the day inserts 1; later ones increment only while below the limit,
    /// under the row lock `ON CONFLICT DO UPDATE` takes, so two racing requests see each other's increment.
    func reserve(for quotaKey: Data, on day: String, limit: Int) async throws -> QuotaReservation? {
        try await withStatementDeadline("quota reserve", timeout: timeout) { try await reserveNow(for: quotaKey, on: day, limit: limit) }
    }

    private func reserveNow(for quotaKey: Data, on day: String, limit: Int) async throws -> QuotaReservation? {
        let rows = try await client.query(
            """
            INSERT INTO scan_usage (quota_key, scan_date, scan_count) VALUES (\(quotaKey), \(day)::date, 1)
            ON CONFLICT (quota_key, scan_date) DO UPDATE SET scan_count = scan_usage.scan_count + 1
            WHERE scan_usage.scan_count < \(limit)
            RETURNING scan_count
            """,
            logger: logger
        )
        for try await _ in rows.decode(Int.self) { return QuotaReservation(quotaKey: quotaKey, day: day) }
        return nil
    }

    func refund(_ reservation: QuotaReservation) async throws {
        try await withStatementDeadline("quota refund", timeout: timeout) { try await refundNow(reservation) }
    }

    private func refundNow(_ reservation: QuotaReservation) async throws {
        try await client.execute(
            """
            UPDATE scan_usage SET scan_count = scan_count - 1
            WHERE quota_key = \(reservation.quotaKey) AND scan_date = \(reservation.day)::date AND scan_count > 0
            """,
            logger: logger
        )
    }

    func purge(before day: String) async throws -> Int {
        try await withStatementDeadline("quota purge", timeout: timeout) {
            let rows = try await client.query(
                "WITH purged AS (DELETE FROM scan_usage WHERE scan_date < \(day)::date RETURNING 1) SELECT count(*) FROM purged",
                logger: logger
            )
            for try await count in rows.decode(Int.self) { return count }
            return 0
        }
    }
}
