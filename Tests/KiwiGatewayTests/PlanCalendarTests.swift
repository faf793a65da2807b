import Foundation
import KiwiModels
import Testing

@testable import KiwiGateway

/// A plan as RFC 5545 text (``PlanCalendar``): what a calendar app reads, byte by byte.
@Suite("Plan calendar feed")
struct PlanCalendarTests {
    let berlin = TimeZone(identifier: "Europe/Berlin")!

    @Test("a meal time is the profile zone's local time, in winter and in summer")
    func localTimeInTheZone() {
        #expect(PlanCalendar.instant(of: CalendarDay("2026-12-30")!, hour: 19, minute: 0, in: berlin) == Date(timeIntervalSince1970: 1_798_653_600))
        #expect(PlanCalendar.instant(of: CalendarDay("2026-07-01")!, hour: 19, minute: 0, in: berlin) == Date(timeIntervalSince1970: 1_782_925_200))
    }

    @Test("text escapes backslashes, semicolons, commas and line breaks")
    func textIsEscaped() {
        #expect(PlanCalendar.escaped("Salt, pepper; oil\\vinegar\nand more") == #"Salt\, pepper\; oil\\vinegar\nand more"#)
    }

    @Test("a long line folds at 75 octets, never inside a character, each further part after a space")
    func longLinesFold() {
        let line = "SUMMARY:" + String(repeating: "é", count: 60)
        let parts = PlanCalendar.folded(line).components(separatedBy: "\r\n")
        #expect(parts.count == 2)
        #expect(parts.allSatisfy { $0.utf8.count <= 75 })
        #expect(parts.dropFirst().allSatisfy { $0.hasPrefix(" ") })
        #expect(parts[0] + parts[1].dropFirst() == line)
    }

    @Test("every line ends CRLF; each meal is an event with its UID, a stamp, a start and an end; an empty meal says so")
    func feedHasWhatSubscribersNeed() throws {
        let day = CalendarDay("2026-12-30")!
        let outline = MealOutline(name: "Leek soup", mainIngredient: "leeks", summary: "A soup.", cookTimeMinutes: 25, usesUp: [])
        let meals = [
            PlannedMeal(id: UUID(), date: day, meal: .dinner, outline: outline),
            PlannedMeal(id: UUID(), date: day.adding(days: 1), meal: .dinner, outline: nil, emptyReason: "It contains fish."),
        ]
        let plan = MealPlanRecord(
            id: UUID(),
            createdBy: UUID(),
            request: PlanRequest(from: day, days: 2, meals: [.dinner], servings: 2),
            pantryWasEmpty: false,
            createdAt: Date(),
            schedule: meals
        )
        let feed = PlanCalendar.feed(of: plan, times: .standard, zone: berlin, link: URL(string: "https://kiwi.example/v1/plans/x")!, now: Date())
        #expect(feed.hasSuffix("END:VCALENDAR\r\n") && !feed.replacingOccurrences(of: "\r\n", with: "").contains("\n"))
        let lines = feed.components(separatedBy: "\r\n")
        #expect(lines.prefix(3) == ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Kiwi//Meal plans//EN"])
        #expect(lines.filter { $0 == "BEGIN:VEVENT" }.count == 2)
        #expect(lines.contains("UID:\(meals[0].id.uuidString.lowercased())@kiwi"))
        #expect(lines.contains("DTSTART:20261230T180000Z") && lines.contains("DTEND:20261230T182500Z"))
        #expect(lines.contains("SUMMARY:Dinner: nothing planned yet") && lines.contains("DESCRIPTION:It contains fish."))
    }
}
