import Foundation
import KiwiModels
import KiwiScans
import NIOHTTP1
import Testing

@testable import KiwiNotifier

@Suite("A scan's end as a notification")
struct ScanEndNotificationTests {
    static let scanID = UUID(uuidString: "5D0C8A1E-7B7A-4F3C-9E51-2B6C1D0E9F11")!
    static let token = DeviceToken(String(repeating: "ab", count: 32))!

    func notification(_ state: ScanState = .succeeded, recipe: String? = "Shakshuka", language: AnswerLanguage = .en) -> ScanEndNotification {
        let scan = EndedScan(
            id: Self.scanID,
            userID: UUID(),
            state: state,
            firstRecipe: recipe,
            language: language,
            endedAt: Date(timeIntervalSince1970: 1_800_000_000)
        )
        let device = NotifiedDevice(token: Self.token, bundleID: "app.kiwi.ios", environment: .production)
        return ScanEndNotification(scan: scan, device: device, expiresAt: Date(timeIntervalSince1970: 1_800_003_600))
    }

    func payload(of notification: ScanEndNotification) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(notification.payload)) as? [String: Any])
    }

    @Test("the headers are Apple's: an alert for the app's topic, sent now, expiring, collapsed by the scan's id")
    func headers() {
        let headers = notification().headers
        #expect(headers["apns-push-type"] == ["alert"])
        #expect(headers["apns-topic"] == ["app.kiwi.ios"])
        #expect(headers["apns-priority"] == ["10"])
        #expect(headers["apns-expiration"] == ["1800003600"])
        #expect(headers["apns-collapse-id"] == ["5d0c8a1e-7b7a-4f3c-9e51-2b6c1d0e9f11"])
    }

    @Test("the payload carries the scan's id and state, and an alert naming the first recipe")
    func payloadOfASucceededScan() throws {
        let payload = try payload(of: notification())
        #expect(payload["scanId"] as? String == "5d0c8a1e-7b7a-4f3c-9e51-2b6c1d0e9f11")
        #expect(payload["state"] as? String == "succeeded")
        let alert = try #require((payload["aps"] as? [String: Any])?["alert"] as? [String: String])
        #expect(alert == ["title": "Your scan is ready", "body": "First up: Shakshuka"])
    }

    @Test("a failed scan's alert says that nothing was charged")
    func payloadOfAFailedScan() throws {
        let alert = NotificationText(notification(.failed, recipe: nil).scan)
        #expect(alert.title == "Your scan could not be finished")
        #expect(alert.body == "Open Kiwi to try again. Nothing was charged.")
    }

    @Test("an answer without recipes (a plan, a receipt) is announced without a name")
    func withoutRecipes() {
        #expect(NotificationText(notification(recipe: nil).scan).body == "Open Kiwi to see what it found.")
    }

    @Test("the alert is in the person's language, the recipe's name as the answer wrote it", arguments: AnswerLanguage.allCases)
    func inTheLanguage(_ language: AnswerLanguage) {
        let text = NotificationText(notification(recipe: "Tortilla", language: language).scan)
        #expect(text.body.contains("Tortilla"))
        let english = NotificationText(notification(recipe: "Tortilla", language: .en).scan)
        #expect((text.title == english.title) == (language == .en))
    }

    @Test("a long recipe name is shortened, and the payload stays far below APNs' 4 KB")
    func longName() {
        let notification = notification(recipe: String(repeating: "Ü", count: 5000))
        #expect(NotificationText(notification.scan).body.count <= "First up: ".count + NotificationText.longestName)
        #expect(notification.payload.count < 1024)
    }
}
