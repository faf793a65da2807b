import AsyncHTTPClient
import Foundation
import KiwiAppleSignIn
import KiwiConcurrency
import KiwiDatabase
import KiwiDevelopment
import KiwiInternalAPI
import KiwiJPEG
import KiwiModels
import KiwiTestSupport
import Logging
import NIOCore
import NIOHTTP1
import PostgresNIO
import Testing

@testable import KiwiAuth
@testable import KiwiLLMStub

/// The whole system as real processes: kiwi-auth, kiwi-scan-worker and kiwi-gateway from this build, against the
/// PostgreSQL and RabbitMQ of `make test`, a job queue of their own, and an in-process OpenAI stub. Apple is
/// stood in for by a key generated here, which the auth service trusts in development mode.
struct SystemRig: Sendable {
    static let audience = "app.kiwi.ios"
    /// Under the key id `kiwi dev-token` and `kiwi login --dev` sign with.
    static let key: DevelopmentAppleKey = try! DevelopmentAppleKey.generate(keyID: "kiwi-dev")
    static let jwksFile: String = {
        let file = FileManager.default.temporaryDirectory.appending(path: "kiwi-system-tests-\(UUID().uuidString).json")
        try! JSONEncoder().encode(try! key.jwks()).write(to: file)
        return file.path
    }()

    let gateway: URL
    /// Every gateway started, the first being ``gateway``.
    let gateways: [URL]
    let stub: StubState
    let processes: [String: ServiceProcess]
    /// Each process's HTTP base URL (`PORT`), by name (`kiwi-auth`, `kiwi-scan-worker`, `kiwi-gateway-0`, …).
    let servers: [String: URL]
    /// Each process's `GET /metrics`, by name (`kiwi-auth`, `kiwi-scan-worker`, `kiwi-gateway-0`, …).
    let metrics: [String: URL]

    /// Starts auth, `gateways` gateways and `workers` scan workers, and a notifier with `notifierEnvironment` if given
    /// (a fake APNs's, ``FakeAPNs/notifierEnvironment``), and runs `body`.
    static func run<Result: Sendable>(
        behaviour: StubBehaviour = StubBehaviour(),
        environment overrides: [String: String] = [:],
        gatewayEnvironment: [String: String] = [:],
        workerEnvironment: [String: String] = [:],
        gateways: Int = 1,
        workers: Int = 1,
        notifierEnvironment: [String: String]? = nil,
        _ body: @Sendable (SystemRig) async throws -> Result
    ) async throws -> Result {
        try await withLLMStub(behaviour: behaviour) { stubURL, stub in
            // A scan's deadline far above what one takes in the suite (at most 3 s here with half the CPU taken by other
            // work), so that a busy CI machine makes a test slower, not a 504. Tests of the deadline set their own.
            var environment = try serviceEnvironment(port: 0).merging([
                "APPLE_JWKS_FILE": jwksFile, "APPLE_CLIENT_ID": audience, "OPENAI_BASE_URL": stubURL.absoluteString,
                "SCAN_JOB_QUEUE": "kiwi.test.system.\(UUID().uuidString.lowercased())", "SCAN_TIMEOUT_SECONDS": "30", "WORKER_CONCURRENCY": "8",
            ]) { _, new in new }
            environment.merge(overrides) { _, new in new }
            var services = [("kiwi-auth", "kiwi-auth")]
            services += (0..<workers).map { ("kiwi-scan-worker", workerName($0)) }
            for index in 0..<gateways { services.append(("kiwi-gateway", "kiwi-gateway-\(index)")) }
            if notifierEnvironment != nil { services.append(("kiwi-notifier", "kiwi-notifier")) }
            var processes: [String: ServiceProcess] = [:]
            var metrics: [String: URL] = [:]
            var servers: [String: URL] = [:]
            defer { for process in processes.values { process.send(SIGTERM) } }
            // Auth starts first, so the others are given its address.
            for (executable, name) in services {
                let own =
                    switch executable {
                    case "kiwi-gateway": environment.merging(gatewayEnvironment) { _, new in new }
                    case "kiwi-scan-worker": environment.merging(workerEnvironment) { _, new in new }
                    case "kiwi-notifier": environment.merging(notifierEnvironment ?? [:]) { _, new in new }
                    default: environment
                    }
                let (process, port, metricsPort) = try await start(executable, name: name, environment: own)
                processes[name] = process
                servers[name] = URL(string: "http://127.0.0.1:\(port)")!
                metrics[name] = URL(string: "http://127.0.0.1:\(metricsPort)/metrics")!
                if executable == "kiwi-auth" { environment["AUTH_SERVICE_URL"] = "http://127.0.0.1:\(port)" }
            }
            let urls = services.filter { $0.0 == "kiwi-gateway" }.compactMap { servers[$0.1] }
            let rig = SystemRig(gateway: urls[0], gateways: urls, stub: stub, processes: processes, servers: servers, metrics: metrics)
            let result = try await body(rig)
            for process in processes.values {
                process.send(SIGTERM)
                _ = await process.waitForExit()
            }
            return result
        }
    }

    /// The `index`th scan worker's name: `kiwi-scan-worker` for the first, `kiwi-scan-worker-1` and on for the others.
    static func workerName(_ index: Int) -> String {
        index == 0 ? "kiwi-scan-worker" : "kiwi-scan-worker-\(index)"
    }

    /// The names of the scan workers started.
    var workerNames: [String] {
        processes.keys.filter { $0.hasPrefix("kiwi-scan-worker") }.sorted()
    }

    /// The metrics process `name` exports now.
    func scrapeMetrics(of name: String) async throws -> PrometheusText {
        let url = try #require(metrics[name], "no process \(name)")
        let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: url.absoluteString), timeout: .seconds(10))
        return PrometheusText(String(buffer: try await response.body.collect(upTo: 4 << 20)))
    }

    /// Starts a service on free ports and waits until it serves. A port chosen free can be taken before the service
    /// binds it (by another test's connection, say): then the service exits at once, and it is started again on others.
    static func start(_ executable: String, name: String, environment: [String: String]) async throws -> (ServiceProcess, Int, Int) {
        for _ in 1...3 {
            var own = environment
            let (port, metricsPort) = (try reservePort(), try reservePort())
            (own["PORT"], own["METRICS_PORT"]) = (String(port), String(metricsPort))
            let process = try ServiceProcess(executable, environment: own)
            if await process.waitUntilServing(URL(string: "http://127.0.0.1:\(port)/health")!) == 200 { return (process, port, metricsPort) }
            let exited = await process.waitForExit(timeout: .seconds(5)) != nil
            let output = process.capturedOutput()
            try #require(exited && output.contains("Address already in use"), "\(name) did not start: \(output.suffix(2000))")
        }
        throw ServiceStartError(name: name)
    }

    struct ServiceStartError: Error {
        let name: String
    }

    /// An HTTP exchange with the gateway.
    struct Exchange: Sendable {
        var status: Int
        var headers: HTTPHeaders
        var body: Data

        func json() throws -> [String: Any] {
            try #require(
                try JSONSerialization.jsonObject(with: body) as? [String: Any],
                "not a JSON object: \(String(decoding: body, as: UTF8.self))"
            )
        }
    }

    func send(
        _ method: HTTPMethod,
        _ path: String,
        token: String? = nil,
        contentType: String? = nil,
        body: [UInt8]? = nil,
        to gateway: URL? = nil,
        headers: [(String, String)] = []
    ) async throws -> Exchange {
        try await Self.exchange(
            method,
            (gateway ?? self.gateway).absoluteString + path,
            token: token,
            contentType: contentType,
            body: body,
            headers: headers
        )
    }

    /// One HTTP exchange with `url`, given up after `timeout`.
    static func exchange(
        _ method: HTTPMethod,
        _ url: String,
        token: String? = nil,
        contentType: String? = nil,
        body: [UInt8]? = nil,
        headers: [(String, String)] = [],
        timeout: Duration = .seconds(30)
    ) async throws -> Exchange {
        var request = HTTPClientRequest(url: url)
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        request.method = method
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        if let contentType { request.headers.add(name: "Content-Type", value: contentType) }
        if let body { request.body = .bytes(ByteBuffer(bytes: body)) }
        let response = try await HTTPClient.shared.execute(request, timeout: .nanoseconds(timeout.nanoseconds))
        let data = Data(try await response.body.collect(upTo: 4 << 20).readableBytesView)
        return Exchange(status: Int(response.status.code), headers: response.headers, body: data)
    }

    /// `GET /health/ready` of the gateway (or of `server`), asked again for up to 10 s until its `status` is `status`
    /// (connections and consumers come up a moment after a service starts serving).
    func readiness(until status: String, of server: URL? = nil) async throws -> Exchange {
        let deadline = ContinuousClock.now + .seconds(10)
        var answer = try await send(.GET, "/health/ready", to: server)
        while (try? answer.json()["status"] as? String) != status, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(100))
            answer = try await send(.GET, "/health/ready", to: server)
        }
        return answer
    }

    /// Signs in through the gateway as the Apple identity `subject` (a fresh one unless given) and returns the session token.
    func signIn(email: String? = "cook@example.com", subject: String = "001234.\(UUID().uuidString.lowercased()).0042") async throws -> String {
        try await Self.signIn(at: gateway, email: email, subject: subject)
    }

    /// Signs in through the gateway at `gateway` as a fresh Apple identity, or `subject`, and returns the session token.
    static func signIn(
        at gateway: URL,
        email: String? = "cook@example.com",
        subject: String = "001234.\(UUID().uuidString.lowercased()).0042"
    ) async throws -> String {
        let identity = try await key.mint(
            AppleIdentityClaims(audience: audience, expires: Date() + 600, issuedAt: Date(), subject: subject, email: email)
        )
        let answer = try await exchange(
            .POST,
            gateway.absoluteString + "/v1/auth/apple",
            contentType: "application/json",
            body: Array("{\"identityToken\":\"\(identity)\"}".utf8)
        )
        try #require(answer.status == 200, "sign-in answered \(answer.status): \(String(decoding: answer.body, as: UTF8.self))")
        return try #require(try answer.json()["sessionToken"] as? String)
    }

    /// `POST /v1/scan` with `image` as the multipart field `field`, and any `headers`.
    /// `PUT /v1/profile` with `json`.
    func putProfile(_ json: String, token: String) async throws -> Exchange {
        try await send(.PUT, "/v1/profile", token: token, contentType: "application/json", body: Array(json.utf8))
    }

    func scan(_ image: [UInt8], token: String, field: String = "image", headers: [(String, String)] = []) async throws -> Exchange {
        let upload = MultipartUpload.make(image, field: field)
        return try await send(.POST, "/v1/scan", token: token, contentType: upload.contentType, body: upload.body, headers: headers)
    }

    /// The user id behind a session token, read from the database the services share.
    func userID(of token: String) async throws -> UUID {
        try await database { client in
            let rows = try await client.query("SELECT user_id FROM sessions WHERE token_hash = \(SessionTokenDigest.sha256(token))")
            for try await id in rows.decode(UUID.self) { return id }
            throw CancellationError()
        }
    }

    /// The key the daily scans of the person behind a session token are counted under, as the auth service makes it.
    func quotaKey(of token: String) async throws -> Data {
        let appleUserID = try await database { client in
            let rows = try await client.query(
                "SELECT u.apple_user_id FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.token_hash = \(SessionTokenDigest.sha256(token))"
            )
            for try await sub in rows.decode(String.self) { return sub }
            throw CancellationError()
        }
        return QuotaKeyMaker(secret: testQuotaKeySecret).quotaKey(forAppleUserID: appleUserID)
    }

    /// Sets today's used scans of the person behind `token`: the charges outside the ledger make up what their scans
    /// do not.
    func setUsed(_ count: Int, token: String) async throws {
        let key = try await quotaKey(of: token)
        try await database { client in
            try await client.execute(
                """
                WITH today AS (SELECT (now() AT TIME ZONE 'UTC')::date AS day),
                charged AS (SELECT count(*) AS scans FROM scans, today WHERE quota_key = \(key) AND scan_date = today.day AND state <> 'failed')
                INSERT INTO scan_usage (quota_key, scan_date, scan_count)
                SELECT \(key), today.day, greatest(\(count) - charged.scans, 0) FROM today, charged
                ON CONFLICT (quota_key, scan_date) DO UPDATE SET scan_count = EXCLUDED.scan_count
                """,
                logger: Logger(label: "test.system")
            )
        }
    }

    /// Runs `body` with a client of the test database.
    func database<Result: Sendable>(_ body: @Sendable (PostgresClient) async throws -> Result) async throws -> Result {
        try await withClient(try PostgresClient.Configuration(url: try testDatabaseURL()), body)
    }

}

extension SystemRig {
    /// Scans `photo` with `POST /v1/scans`, waiting for the answer, and returns the finished scan.
    func finishedScan(_ photo: [UInt8], mode: ScanMode = .fridge, token: String) async throws -> ScanResource {
        let upload = MultipartUpload.make(photos: [photo], fields: mode == .fridge ? [] : [("mode", mode.rawValue)])
        let scanned = try await send(
            .POST,
            "/v1/scans",
            token: token,
            contentType: upload.contentType,
            body: upload.body,
            headers: [("Prefer", "wait=30")]
        )
        try #require(scanned.status == 200, "the scan answered \(scanned.status)")
        return try KiwiJSON.decoder().decode(ScanResource.self, from: scanned.body)
    }

    /// `POST /v1/recipes` for `recipe` of `scan`: the answer, and the saved recipe.
    func saveRecipe(_ recipe: Recipe, of scan: ScanResource, token: String) async throws -> (status: Int, saved: SavedRecipe) {
        let body = #"{"scanId":"\#(scan.id.uuidString.lowercased())","recipeId":"\#(recipe.id.uuidString.lowercased())"}"#
        let answer = try await send(.POST, "/v1/recipes", token: token, contentType: "application/json", body: Array(body.utf8))
        return (answer.status, try KiwiJSON.decoder().decode(SavedRecipe.self, from: answer.body))
    }
}
