import AsyncHTTPClient
import Foundation
import KiwiTestSupport
import NIOCore
import NIOHTTP1
import Testing

/// The fake APNs (`Tools/fake-apns/fake_apns.py`) as a child process, with throw-away keys of its own: it checks every
/// request against Apple's documented rules (headers, payload, the provider token's signature and age), answers as a
/// test scripts it, and tells the test what it received.
final class FakeAPNs: Sendable {
    static let teamID = "KIWITEAM01"
    static let keyID = "KIWIKEY001"
    static let bundleID = "app.kiwi.ios"

    let process: ServiceProcess
    /// Where notifications go: `https://127.0.0.1:<port>`.
    let pushURL: URL
    let controlURL: URL
    /// The fake's keys: `ca.pem` (trust it), `auth-key.p8` (sign with it).
    let keys: URL

    /// A notification the fake accepted.
    struct Received: Decodable, Sendable {
        var token: String
        var headers: [String: String]
        var payload: Payload
        var jwtHeader: [String: String]
        var jwtClaims: Claims
        var receivedAt: Double

        struct Payload: Decodable, Sendable {
            var scanId: String
            var state: String
            var aps: APS
            struct APS: Decodable, Sendable {
                var alert: [String: String]
            }
        }
        struct Claims: Decodable, Sendable {
            var iss: String
            var iat: Int
        }
        enum CodingKeys: String, CodingKey {
            case token, headers, payload
            case jwtHeader = "jwt_header"
            case jwtClaims = "jwt_claims"
            case receivedAt = "received_at"
        }
    }

    /// A request the fake answered, accepted or not.
    struct Attempt: Decodable, Sendable {
        var path: String?
        var status: Int
        var reason: String?
        var at: Double
    }

    private init(process: ServiceProcess, pushURL: URL, controlURL: URL, keys: URL) {
        self.process = process
        self.pushURL = pushURL
        self.controlURL = controlURL
        self.keys = keys
    }

    /// Makes keys and starts the fake on free ports.
    static func start() async throws -> FakeAPNs {
        let python = try testTool("KIWI_TEST_FAKE_APNS_PYTHON")
        let tools = ServiceProcess.checkout.appending(path: "Tools/fake-apns")
        let keys = FileManager.default.temporaryDirectory.appending(path: "kiwi-fake-apns-\(UUID().uuidString)")
        let made = try await runProgram(python, [tools.appending(path: "make_test_certs.py").path, keys.path], includingStandardError: true)
        try #require(made.status == 0, "make_test_certs.py: \(made.output)")
        let process = try ServiceProcess(
            executable: URL(fileURLWithPath: python),
            arguments: [
                tools.appending(path: "fake_apns.py").path, "--port", "0", "--control-port", "0",
                "--cert", keys.appending(path: "server.pem").path, "--key", keys.appending(path: "server-key.pem").path,
                "--team-id", teamID, "--key-id", keyID, "--public-key", keys.appending(path: "auth-key-public.pem").path,
                "--bundle-id", bundleID,
            ],
            environment: ["PATH": "/usr/bin:/bin"]
        )
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline, process.exitStatus == nil {
            let output = process.capturedOutput()
            if let line = output.split(separator: "\n").first(where: { $0.hasPrefix("fake_apns ready ") }) {
                let fields = Dictionary(
                    line.split(separator: " ").dropFirst(2).map { $0.split(separator: "=", maxSplits: 1).map(String.init) }.map { ($0[0], $0[1]) }
                ) { a, _ in a }
                let push = try #require(fields["push"].flatMap(URL.init(string:)))
                let control = try #require(fields["control"].flatMap(URL.init(string:)))
                return FakeAPNs(process: process, pushURL: push, controlURL: control, keys: keys)
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        process.send(SIGKILL)
        Issue.record("the fake APNs did not start: \(process.capturedOutput().suffix(2000))")
        throw CancellationError()
    }

    /// What a notifier needs to send to this fake.
    var notifierEnvironment: [String: String] {
        get throws {
            [
                "APNS_TEAM_ID": Self.teamID,
                "APNS_KEY_ID": Self.keyID,
                "APNS_KEY": try String(contentsOf: keys.appending(path: "auth-key.p8"), encoding: .utf8),
                "APNS_PRODUCTION_URL": pushURL.absoluteString,
                "APNS_SANDBOX_URL": pushURL.absoluteString,
                "APNS_CA_FILE": keys.appending(path: "ca.pem").path,
            ]
        }
    }

    /// Every notification accepted so far.
    func received() async throws -> [Received] {
        struct Answer: Decodable { var notifications: [Received] }
        return try JSONDecoder().decode(Answer.self, from: try await control(.GET, "received")).notifications
    }

    /// Every request answered so far.
    func attempts() async throws -> [Attempt] {
        struct Answer: Decodable { var attempts: [Attempt] }
        return try JSONDecoder().decode(Answer.self, from: try await control(.GET, "attempts")).attempts
    }

    /// The notifications accepted for scan `scanID`, once there are at least `count` (waiting up to `timeout`).
    func received(_ count: Int, for scanID: UUID, within timeout: Duration = .seconds(30)) async throws -> [Received] {
        let deadline = ContinuousClock.now + timeout
        while true {
            let received = try await received().filter { $0.payload.scanId == scanID.uuidString.lowercased() }
            if received.count >= count || ContinuousClock.now >= deadline { return received }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    /// Answers the next requests for `token` with `answers` (status, reason), then `permanent` for good if given.
    func script(token: String, answers: [(Int, String)] = [], permanent: (Int, String)? = nil) async throws {
        func answer(_ pair: (Int, String)) -> [String: Any] { ["status": pair.0, "reason": pair.1] }
        var document: [String: Any] = ["token": token, "answers": answers.map(answer)]
        if let permanent { document["permanent"] = answer(permanent) }
        _ = try await control(.POST, "script", body: try JSONSerialization.data(withJSONObject: document))
    }

    /// From now on the provider token last accepted is answered 403 `ExpiredProviderToken`.
    func expireProviderToken() async throws { _ = try await control(.POST, "expire-token") }
    /// Stops listening for notifications (connections are refused) until ``up()``.
    func down() async throws { _ = try await control(.POST, "down") }
    func up() async throws { _ = try await control(.POST, "up") }

    func stop() async {
        process.send(SIGTERM)
        _ = await process.waitForExit()
        try? FileManager.default.removeItem(at: keys)
    }

    private func control(_ method: HTTPMethod, _ path: String, body: Data? = nil) async throws -> Data {
        var request = HTTPClientRequest(url: controlURL.appending(path: path).absoluteString)
        request.method = method
        if let body { request.body = .bytes(ByteBuffer(bytes: body)) }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
        let data = Data(try await response.body.collect(upTo: 16 << 20).readableBytesView)
        try #require(response.status == .ok, "fake APNs \(path): \(String(decoding: data, as: UTF8.self))")
        return data
    }
}
