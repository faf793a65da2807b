import AsyncHTTPClient
import Foundation
import KiwiDevelopment
import KiwiMessaging
import KiwiModels
import KiwiScanMessages
import KiwiScans
import KiwiTestSupport
import KiwiTopology
import Logging
import NIOHTTP1
import PostgresNIO
import Testing

/// The notifier through all the services, with the fake APNs: a scan ends, and its person's phones hear of it
/// (docs/architecture.md, "Push notifications").
@Suite("Push notifications end to end", .serialized, .timeLimit(.minutes(3)))
struct NotifierEndToEndTests {
    /// A phone's token: 32 bytes, as Apple's are today.
    static func phone() -> String {
        (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
    }

    /// A notifier environment of its own queue, so that notifiers of other tests take none of this test's news.
    static func notifierEnvironment(_ apns: FakeAPNs) throws -> [String: String] {
        try apns.notifierEnvironment.merging(["NOTIFIER_QUEUE": "kiwi.test.notifier.\(UUID().uuidString.lowercased())"]) { _, new in new }
    }

    /// Runs `body` with a fake APNs and a system whose notifier sends to it.
    func withNotifyingSystem(_ body: @Sendable (SystemRig, FakeAPNs, [String: String]) async throws -> Void) async throws {
        let apns = try await FakeAPNs.start()
        let environment = try Self.notifierEnvironment(apns)
        do {
            try await SystemRig.run(notifierEnvironment: environment) { rig in try await body(rig, apns, environment) }
        } catch {
            await apns.stop()
            throw error
        }
        await apns.stop()
    }

    /// Registers `phones` of the person with session `token` for the fake's app.
    func register(_ phones: [String], token: String, in rig: SystemRig) async throws {
        for phone in phones {
            let body = #"{"bundleId": "\#(FakeAPNs.bundleID)", "environment": "production"}"#
            let answer = try await rig.send(.PUT, "/v1/devices/\(phone)", token: token, contentType: "application/json", body: Array(body.utf8))
            try #require(answer.status == 200)
        }
    }

    /// The tokens recorded as told of `scan`.
    func recorded(_ scan: UUID, in rig: SystemRig) async throws -> Set<String> {
        try await rig.database { client in
            var tokens: Set<String> = []
            for try await token in try await client.query("SELECT token FROM notifications_sent WHERE scan_id = \(scan)").decode(String.self) {
                tokens.insert(token)
            }
            return tokens
        }
    }

    static let photo = SyntheticJPEG.make(size: 16 * 1024, seed: 62)

    @Test("a scan's end tells each of its person's two phones once, with the scan, its first recipe and a valid provider token")
    func eachPhoneToldOnce() async throws {
        try await withNotifyingSystem { rig, apns, _ in
            let token = try await rig.signIn()
            let phones = [Self.phone(), Self.phone()]
            try await register(phones, token: token, in: rig)
            let scan = try await rig.finishedScan(Self.photo, token: token)
            let received = try await apns.received(2, for: scan.id)
            #expect(Set(received.map(\.token)) == Set(phones))
            for notification in received {
                #expect(notification.headers["apns-topic"] == FakeAPNs.bundleID)
                #expect(notification.headers["apns-collapse-id"] == scan.id.uuidString.lowercased())
                #expect(notification.payload.state == "succeeded")
                let recipe = try #require(scan.result?.recipes.first?.name)
                #expect(notification.payload.aps.alert["body"]?.contains(recipe) == true)
                #expect(notification.jwtHeader["kid"] == FakeAPNs.keyID)
                #expect(notification.jwtClaims.iss == FakeAPNs.teamID)
            }
            try await waitUntil { try await recorded(scan.id, in: rig) == Set(phones) }
            // News of the scan handled again (redelivered, or sent twice) tells no phone twice.
            let publisher = AMQPPublisher(
                settings: try AMQPSettings(url: try testAMQPURL(), connectionName: "kiwi-test-notifier-news"),
                topology: KiwiTopology.scanEvents,
                logger: Logger(label: "test.notifier")
            )
            try await whileRunning([publisher]) {
                await publisher.waitUntilConnected()
                let event = ScanEvent(scanID: scan.id, state: .succeeded)
                try await publisher.publish(
                    event.message,
                    exchange: KiwiTopology.scanNewsExchange,
                    routingKey: KiwiTopology.scanNewsKey(of: scan.id, startedBy: nil),
                    mandatory: false
                )
            }
            try await Task.sleep(for: .seconds(2))
            #expect(try await apns.received(3, for: scan.id, within: .zero).count == 2)
        }
    }

    @Test("a notifier killed while APNs is down, and its successor killed after recording, still tell each phone once")
    func killedNotifiers() async throws {
        try await withNotifyingSystem { rig, apns, environment in
            let first = try #require(rig.processes["kiwi-notifier"])
            let token = try await rig.signIn()
            let phones = [Self.phone(), Self.phone()]
            try await register(phones, token: token, in: rig)
            try await apns.down()
            let scan = try await rig.finishedScan(Self.photo, token: token)
            // The notifier has the news, and waits for APNs: killed before it could send.
            try await Task.sleep(for: .seconds(2))
            first.send(SIGKILL)
            _ = await first.waitForExit()
            try await apns.up()
            let (second, _, _) = try await SystemRig.start(
                "kiwi-notifier",
                name: "kiwi-notifier-2",
                environment: try serviceEnvironment(port: 0).merging(environment) { _, new in new }
            )
            let received = try await apns.received(2, for: scan.id)
            #expect(Set(received.map(\.token)) == Set(phones))
            // Killed once both phones are recorded; its successor finds them told.
            try await waitUntil { try await recorded(scan.id, in: rig) == Set(phones) }
            second.send(SIGKILL)
            _ = await second.waitForExit()
            let (third, _, _) = try await SystemRig.start(
                "kiwi-notifier",
                name: "kiwi-notifier-3",
                environment: try serviceEnvironment(port: 0).merging(environment) { _, new in new }
            )
            try await Task.sleep(for: .seconds(3))
            #expect(try await apns.received(3, for: scan.id, within: .zero).count == 2)
            third.send(SIGTERM)
            _ = await third.waitForExit()
        }
    }

    @Test("410 Unregistered and 400 BadDeviceToken remove the phone; 429 is sent again after waits that double")
    func apnsErrors() async throws {
        try await withNotifyingSystem { rig, apns, _ in
            let token = try await rig.signIn()
            let (unregistered, bad, busy) = (Self.phone(), Self.phone(), Self.phone())
            try await register([unregistered, bad, busy], token: token, in: rig)
            try await apns.script(token: unregistered, permanent: (410, "Unregistered"))
            try await apns.script(token: bad, permanent: (400, "BadDeviceToken"))
            try await apns.script(token: busy, answers: [(429, "TooManyRequests"), (429, "TooManyRequests")])
            let scan = try await rig.finishedScan(Self.photo, token: token)
            let received = try await apns.received(1, for: scan.id)
            #expect(received.map(\.token) == [busy])
            let tries = try await apns.attempts().filter { $0.path == "/3/device/\(busy)" }.map(\.at)
            try #require(tries.count == 3)
            // 1 s, then 2 s, each shortened by at most a quarter.
            #expect(tries[1] - tries[0] >= 0.7)
            #expect(tries[2] - tries[1] >= 1.45)
            try await waitUntil {
                try await rig.database { client in
                    try await client.query("SELECT count(*) FROM devices WHERE token IN (\(unregistered), \(bad))").decode(Int.self).first { _ in true
                    } == 0
                }
            }
            try await waitUntil { try await recorded(scan.id, in: rig) == [busy] }
        }
    }

    @Test("a provider token APNs calls expired is replaced, and the notification sent with the new one")
    func expiredProviderToken() async throws {
        try await withNotifyingSystem { rig, apns, _ in
            let token = try await rig.signIn()
            let phone = Self.phone()
            try await register([phone], token: token, in: rig)
            let first = try await rig.finishedScan(Self.photo, token: token)
            let before = try #require(try await apns.received(1, for: first.id).first)
            try await apns.expireProviderToken()
            let second = try await rig.finishedScan(Self.photo, token: token)
            let after = try #require(try await apns.received(1, for: second.id).first)
            #expect(after.jwtClaims.iat >= before.jwtClaims.iat)
            let refused = try await apns.attempts().filter { $0.reason == "ExpiredProviderToken" }
            #expect(refused.count == 1)
        }
    }

    /// Waits up to 30 s for `condition`.
    func waitUntil(_ condition: () async throws -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while try await !condition() {
            try #require(ContinuousClock.now < deadline, "not within 30 s")
            try await Task.sleep(for: .milliseconds(100))
        }
    }
}
