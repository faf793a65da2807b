import Foundation
import KiwiTestSupport
import Testing

@testable import KiwiGateway

/// The tests' check of a day's scans left (`Tests/Support/UTCDay.swift`), whose after-midnight half no ordinary run takes.
@Suite("UTCDay, the tests' check of a day's quota")
struct UTCDayTests {
    @Test("names a moment's UTC day as the gateway does, on both sides of midnight")
    func namesTheGatewaysDay() {
        for date in [Date(timeIntervalSince1970: 1_795_823_999), Date(timeIntervalSince1970: 1_795_824_000), Date()] {
            #expect(UTCDay(date).day == QuotaPolicy.utcDay(of: date))
        }
    }

    @Test("on the same day only the exact figure passes; after a midnight, any between it and the limit, and nothing outside")
    func exactTheSameDayBoundedAfter() {
        let today = UTCDay()
        let sameDay = [2, 3, nil].map { today.allows($0, exactly: 2, limit: 4) }
        #expect(UTCDay() != today || sameDay == [true, false, false], "\(sameDay)")
        let yesterday = UTCDay(Date().addingTimeInterval(-86_400))
        #expect([1, 2, 3, 4, 5].map { yesterday.allows($0, exactly: 2, limit: 4) } == [false, true, true, true, false])
    }
}
