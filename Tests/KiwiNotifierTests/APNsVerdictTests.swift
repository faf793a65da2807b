import Foundation
import Testing

@testable import KiwiNotifier

/// APNs' answers as Apple's table of status codes and reasons lists them ("Handling notification responses from
/// APNs"), each read as the issue says it must be.
@Suite("What the notifier makes of APNs' answers")
struct APNsVerdictTests {
    func verdict(_ status: Int, _ reason: String? = nil) -> APNsVerdict {
        APNsClient.verdict(status: status, body: reason.map { Data(#"{"reason":"\#($0)"}"#.utf8) } ?? Data())
    }

    @Test("200 is delivered")
    func delivered() {
        #expect(verdict(200) == .delivered)
    }

    @Test("410 Unregistered and 400 BadDeviceToken mean the token reaches no app")
    func tokenGone() {
        #expect(verdict(410, "Unregistered") == .tokenGone(reason: "Unregistered"))
        #expect(verdict(410, "ExpiredToken") == .tokenGone(reason: "ExpiredToken"))
        #expect(verdict(400, "BadDeviceToken") == .tokenGone(reason: "BadDeviceToken"))
    }

    @Test("403 ExpiredProviderToken asks for a new provider token; another 403 is refused")
    func expiredProviderToken() {
        #expect(verdict(403, "ExpiredProviderToken") == .providerTokenExpired)
        #expect(verdict(403, "InvalidProviderToken") == .refused(status: 403, reason: "InvalidProviderToken"))
    }

    @Test("429 and every 5xx are tried again later, with or without a reason")
    func retriedLater() {
        #expect(verdict(429, "TooManyRequests") == .retryLater(reason: "TooManyRequests"))
        #expect(verdict(500, "InternalServerError") == .retryLater(reason: "InternalServerError"))
        #expect(verdict(503, "ServiceUnavailable") == .retryLater(reason: "ServiceUnavailable"))
        #expect(verdict(502) == .retryLater(reason: "status 502"))
    }

    @Test("any other 4xx is refused by its reason, not retried")
    func refused() {
        #expect(verdict(400, "BadTopic") == .refused(status: 400, reason: "BadTopic"))
        #expect(verdict(400, "DeviceTokenNotForTopic") == .refused(status: 400, reason: "DeviceTokenNotForTopic"))
        #expect(verdict(413, "PayloadTooLarge") == .refused(status: 413, reason: "PayloadTooLarge"))
        #expect(verdict(404) == .refused(status: 404, reason: "status 404"))
    }
}
