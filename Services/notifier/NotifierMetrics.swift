import CoreMetrics
import Foundation

/// The notifier's metrics (docs/operations.md, "Metrics"): what became of each phone's notification, and how long
/// after its scan ended a phone was told.
struct NotifierMetrics: Sendable {
    /// Notifications by outcome: `sent`; `token_gone` (APNs called the token dead, and it was forgotten); `retried`
    /// (one more wait for APNs); `refused` (any other 4xx, by reason in the logs); `expired` (given up on, an hour after
    /// the scan).
    func notification(_ outcome: String) {
        Counter(label: "kiwi_notifications_total", dimensions: [("outcome", outcome)]).increment()
    }

    /// From a scan's end to APNs' 200 for one of its phones.
    func delivered(after delay: TimeInterval) {
        Timer(label: "kiwi_notification_delay_seconds", preferredDisplayUnit: .seconds).recordNanoseconds(Int64(max(0, delay) * 1e9))
    }
}
