import Foundation
import KiwiModels
import Testing

@Suite("Calendar days")
struct CalendarDayTests {
    @Test("a day reads back as it was written", arguments: ["1970-01-01", "2000-02-29", "2026-11-27", "2099-12-31", "1969-12-31"])
    func roundTrip(text: String) throws {
        #expect(try #require(CalendarDay(text)).description == text)
    }

    @Test("anything but a real yyyy-MM-dd day is refused", arguments: ["2026-02-29", "2026-13-01", "2026-1-01", "26-01-01", "", "2026-01-01T00:00"])
    func refused(text: String) {
        #expect(CalendarDay(text) == nil)
    }

    @Test("the UTC day of an instant, and days added to it")
    func utcDay() {
        let day = CalendarDay(utc: Date(timeIntervalSince1970: 86_400 * 3 + 86_399))
        #expect(day.description == "1970-01-04")
        #expect(day.adding(days: 365).description == "1971-01-04")
    }
}
