import Foundation
import KiwiModels

/// A plan as an iCalendar feed (RFC 5545; docs/architecture.md, "Meal plans"), for Apple Calendar, Google Calendar and
/// any client that subscribes to one: an event per meal at the profile's meal time in its time zone, written in UTC
/// (RFC 5545 §3.3.5's form 2), which every client reads without a `VTIMEZONE`. Each event has what a subscribed feed
/// needs: a `UID` that stays the meal's, `DTSTAMP`, `DTSTART` and `DTEND`; the calendar its `PRODID` and `VERSION`.
enum PlanCalendar {
    /// The feed of `plan`, its meals at `times` in `zone`, each linking to `link`, stamped `now`.
    static func feed(of plan: MealPlanRecord, times: MealTimes, zone: TimeZone, link: URL, now: Date) -> String {
        var lines = [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Kiwi//Meal plans//EN", "CALSCALE:GREGORIAN", "METHOD:PUBLISH",
            "X-WR-CALNAME:" + escaped("Kiwi meals from \(plan.request.from)"),
        ]
        for meal in plan.schedule ?? [] {
            let (hour, minute) = times.clock(of: meal.meal)
            let start = instant(of: meal.date, hour: hour, minute: minute, in: zone)
            let minutes = max(meal.outline?.cookTimeMinutes ?? 30, 15)
            let title = meal.outline?.name ?? "\(meal.meal.rawValue.capitalized): nothing planned yet"
            let description = meal.outline.map { "\($0.summary) Main ingredient: \($0.mainIngredient)." } ?? meal.emptyReason ?? ""
            lines += [
                "BEGIN:VEVENT",
                "UID:\(meal.id.uuidString.lowercased())@kiwi",
                "DTSTAMP:\(utc(now))",
                "DTSTART:\(utc(start))",
                "DTEND:\(utc(start.addingTimeInterval(Double(minutes) * 60)))",
                "SUMMARY:" + escaped(title),
                "DESCRIPTION:" + escaped(description),
                "URL:\(link.absoluteString)",
                "END:VEVENT",
            ]
        }
        lines.append("END:VCALENDAR")
        return lines.map(folded).joined(separator: "\r\n") + "\r\n"
    }

    /// The instant of `hour`:`minute` on `day` in `zone`; a time a clock change skips is read as the next that exists.
    static func instant(of day: CalendarDay, hour: Int, minute: Int, in zone: TimeZone) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let (year, month, date) = day.civil
        let components = DateComponents(year: year, month: month, day: date, hour: hour, minute: minute)
        return calendar.date(from: components) ?? Date(timeIntervalSince1970: Double(day.daysSince1970) * 86_400)
    }

    /// A UTC date-time, `yyyyMMdd'T'HHmmss'Z'`.
    private static func utc(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return String(format: "%04d%02d%02dT%02d%02d%02dZ", parts.year!, parts.month!, parts.day!, parts.hour!, parts.minute!, parts.second!)
    }

    /// A TEXT value (RFC 5545 §3.3.11): backslashes, semicolons, commas and line breaks escaped.
    static func escaped(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "\\": escaped += "\\\\"
            case ";": escaped += "\\;"
            case ",": escaped += "\\,"
            case "\n", "\r\n", "\r": escaped += "\\n"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    /// A content line folded at 75 octets (RFC 5545 §3.1), never inside a character: each further part begins with a
    /// space.
    static func folded(_ line: String) -> String {
        var parts: [String] = []
        var current = ""
        var octets = 0
        for character in line {
            let size = character.utf8.count
            // The first part holds 75 octets; each later one 74 after its leading space.
            if octets + size > (parts.isEmpty ? 75 : 74) {
                parts.append(current)
                (current, octets) = ("", 0)
            }
            current.append(character)
            octets += size
        }
        parts.append(current)
        return parts.joined(separator: "\r\n ")
    }
}
