import Foundation

extension Date {
    /// This date without its fractional seconds, as the API writes dates: what is stored then reads back as answered.
    public func rounded() -> Date {
        Date(timeIntervalSince1970: timeIntervalSince1970.rounded(.down))
    }
}
