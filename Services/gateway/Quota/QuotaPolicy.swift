import Foundation

/// The daily scan allowance (DESIGN.md §2): `limit` scans per user per UTC day, renewed at midnight UTC.
struct QuotaPolicy: Sendable {
    let limit: Int

    private static let utc: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()

    /// The UTC day `now` falls on, as PostgreSQL's `date` reads it (`2026-11-22`).
    func day(of now: Date) -> String {
        Self.utcDay(of: now)
    }

    /// `date`'s day in UTC, `yyyy-MM-dd`.
    static func utcDay(of date: Date) -> String {
        let parts = utc.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
    }

    /// The next midnight UTC after `now`: when the allowance renews.
    func resetsAt(after now: Date) -> Date {
        Self.utc.nextDate(after: now, matching: DateComponents(hour: 0, minute: 0, second: 0), matchingPolicy: .strict)!
    }

    /// Whole seconds until the allowance renews, for `Retry-After` (at least 1).
    func retryAfterSeconds(at now: Date) -> Int {
        max(1, Int(resetsAt(after: now).timeIntervalSince(now).rounded(.up)))
    }
}
