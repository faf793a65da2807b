import Foundation

/// A day of the calendar with no time or zone, as a best-before date is printed: `yyyy-MM-dd` on the wire. Kept as
/// the count of days since 1970-01-01 so that days compare and add as numbers.
public struct CalendarDay: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// Days since 1970-01-01 (negative before it).
    public let daysSince1970: Int

    public init(daysSince1970: Int) {
        self.daysSince1970 = daysSince1970
    }

    /// The UTC day `date` falls on.
    public init(utc date: Date) {
        self.init(daysSince1970: Int((date.timeIntervalSince1970 / 86_400).rounded(.down)))
    }

    /// The day `date` falls on in `zone`.
    public init(_ date: Date, in zone: TimeZone) {
        self.init(utc: date.addingTimeInterval(TimeInterval(zone.secondsFromGMT(for: date))))
    }

    /// Reads `yyyy-MM-dd` (years 1 to 9999); nil for anything else, 2026-02-30 included.
    public init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].utf8.count == 4, parts[1].utf8.count == 2, parts[2].utf8.count == 2,
            parts.allSatisfy({ $0.utf8.allSatisfy { (48...57).contains($0) } }),
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
            year >= 1, (1...12).contains(month), (1...Self.length(ofMonth: month, in: year)).contains(day)
        else { return nil }
        self.init(daysSince1970: Self.days(year: year, month: month, day: day))
    }

    /// The day's year, month (1–12) and day of the month.
    public var civil: (year: Int, month: Int, day: Int) { Self.civil(daysSince1970) }

    public var description: String {
        let (year, month, day) = civil
        return String(format: "%04d-%02d-%02d", year, month, day)
    }

    public func adding(days: Int) -> CalendarDay {
        CalendarDay(daysSince1970: daysSince1970 + days)
    }

    public static func < (lhs: CalendarDay, rhs: CalendarDay) -> Bool {
        lhs.daysSince1970 < rhs.daysSince1970
    }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let day = CalendarDay(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "\(text) is not a yyyy-MM-dd date"))
        }
        self = day
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    private static func length(ofMonth month: Int, in year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Howard Hinnant's `days_from_civil` (proleptic Gregorian).
    private static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// Howard Hinnant's `civil_from_days`.
    private static func civil(_ days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shifted = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shifted + 2) / 5 + 1
        let month = shifted < 10 ? shifted + 3 : shifted - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
