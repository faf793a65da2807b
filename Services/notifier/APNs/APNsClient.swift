import AsyncHTTPClient
import Foundation
import KiwiModels
import KiwiScans
import Logging
import NIOCore
import NIOHTTP1

/// One notification of a scan's end to one phone (Apple, "Sending notification requests to APNs",
/// https://developer.apple.com/documentation/usernotifications/sending-notification-requests-to-apns): an alert whose
/// `apns-collapse-id` is the scan's id, so that a phone told twice (a notifier that crashed between Apple's 200 and
/// its record) shows it once.
struct ScanEndNotification: Sendable, Equatable {
    var scan: EndedScan
    var device: NotifiedDevice
    /// When APNs stops trying to deliver it (`apns-expiration`): a phone that was off longer hears nothing.
    var expiresAt: Date

    /// The JSON payload: the `aps` dictionary Apple defines, with the scan's id and state for the app to open it.
    var payload: [UInt8] {
        struct Payload: Encodable {
            struct APS: Encodable {
                struct Alert: Encodable {
                    var title: String
                    var body: String
                }
                var alert: Alert
                var sound = "default"
                var threadID = "kiwi.scans"

                enum CodingKeys: String, CodingKey {
                    case alert, sound
                    case threadID = "thread-id"
                }
            }
            var aps: APS
            var scanId: String
            var state: String
        }
        let text = NotificationText(scan)
        let payload = Payload(
            aps: Payload.APS(alert: Payload.APS.Alert(title: text.title, body: text.body)),
            scanId: scan.id.uuidString.lowercased(),
            state: scan.state.rawValue
        )
        // A value of strings only always encodes.
        return Array(try! JSONEncoder().encode(payload))
    }

    /// The request's headers besides the provider token (Apple's table of request headers).
    var headers: HTTPHeaders {
        [
            "apns-push-type": "alert",
            "apns-topic": device.bundleID,
            "apns-expiration": String(Int(expiresAt.timeIntervalSince1970)),
            // 10: deliver at once, as an alert that the person waits for should be.
            "apns-priority": "10",
            "apns-collapse-id": scan.id.uuidString.lowercased(),
            "content-type": "application/json",
        ]
    }
}

/// What APNs made of one notification (Apple, "Handling notification responses from APNs": the table of status codes
/// and the `reason` of each error; https://developer.apple.com/documentation/usernotifications/handling-notification-responses-from-apns).
enum APNsVerdict: Sendable, Equatable {
    /// 200: APNs took it.
    case delivered
    /// 410 (the token is no longer active for the topic, e.g. `Unregistered`) or 400 `BadDeviceToken`: the token
    /// reaches no app any more; forget it.
    case tokenGone(reason: String)
    /// 403 `ExpiredProviderToken`: make a new provider token and send again.
    case providerTokenExpired
    /// 429 (`TooManyRequests` for one device, `TooManyProviderTokenUpdates`) or 5xx (`InternalServerError`,
    /// `ServiceUnavailable`, `Shutdown`), or no answer at all: send again after a wait; Apple sends no `Retry-After`.
    case retryLater(reason: String)
    /// Any other 4xx: the request itself is wrong (a `BadTopic`, a `DeviceTokenNotForTopic`), and sending it again
    /// changes nothing.
    case refused(status: Int, reason: String)
}

/// Sends notifications to APNs over HTTP/2, each with the current provider token.
struct APNsClient: Sendable {
    let http: HTTPClient
    let endpoints: APNsEndpoints
    let providerToken: ProviderToken
    /// The longest one request may take before it counts as unanswered.
    var timeout: TimeAmount = .seconds(15)

    /// Sends `notification`; a provider token APNs calls expired is replaced once and the notification sent again.
    func send(_ notification: ScanEndNotification) async -> APNsVerdict {
        do {
            let token = try await providerToken.token()
            let verdict = await send(notification, providerToken: token)
            guard verdict == .providerTokenExpired else { return verdict }
            return await send(notification, providerToken: try await providerToken.token(replacing: token))
        } catch {
            // Only signing can throw here, and a key that signed once signs again: a fault of this process.
            return .retryLater(reason: "provider token: \(error)")
        }
    }

    private func send(_ notification: ScanEndNotification, providerToken: String) async -> APNsVerdict {
        let url = endpoints.url(of: notification.device.environment).appending(path: "3/device/\(notification.device.token.hex)")
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = .POST
        request.headers = notification.headers
        request.headers.add(name: "authorization", value: "bearer \(providerToken)")
        request.body = .bytes(ByteBuffer(bytes: notification.payload))
        do {
            let response = try await http.execute(request, timeout: timeout)
            let body = try await response.body.collect(upTo: 64 * 1024)
            return Self.verdict(status: Int(response.status.code), body: Data(body.readableBytesView))
        } catch {
            return .retryLater(reason: "no answer: \(error)")
        }
    }

    /// The verdict of APNs' answer `status` with its JSON `body` (`{"reason": …}` on an error).
    static func verdict(status: Int, body: Data) -> APNsVerdict {
        struct Failure: Decodable { var reason: String }
        let reason = (try? JSONDecoder().decode(Failure.self, from: body))?.reason ?? "status \(status)"
        switch (status, reason) {
        case (200, _): return .delivered
        case (410, _), (400, "BadDeviceToken"): return .tokenGone(reason: reason)
        case (403, "ExpiredProviderToken"): return .providerTokenExpired
        case (429, _), (500...599, _): return .retryLater(reason: reason)
        default: return .refused(status: status, reason: reason)
        }
    }
}
