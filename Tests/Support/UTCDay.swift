import Foundation

/// The UTC day a test started charging scans on. The allowance renews at midnight UTC, so a test that scans just before
/// it and reads its quota just after reads a new day that holds only some of its charges, or none: record the day before
/// the first charge, and check the scans left with ``allows(_:exactly:limit:)``.
public struct UTCDay: Sendable, Hashable {
    /// `yyyy-MM-dd`, as the gateway names the day.
    public let day: String

    public init(_ date: Date = Date()) {
        day = date.formatted(Date.ISO8601FormatStyle(timeZone: TimeZone(identifier: "UTC")!).year().month().day())
    }

    /// Whether `remaining`, read just now (an argument is evaluated before the call), is `exactly` the scans left after
    /// the test's charges while it is still this day; once a midnight UTC has passed, between that and the whole `limit`.
    public func allows(_ remaining: Int?, exactly: Int, limit: Int) -> Bool {
        guard let remaining else { return false }
        return UTCDay() == self ? remaining == exactly : (exactly...limit).contains(remaining)
    }
}
