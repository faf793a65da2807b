import AsyncHTTPClient
import Foundation
import KiwiAppleSignIn
import KiwiJPEG
import KiwiTestSupport
import NIOCore
import NIOHTTP1
import Testing

@testable import KiwiLLMStub

/// The whole system as real processes: kiwi-auth, kiwi-scan-worker and kiwi-gateway from this build, against the
/// PostgreSQL and RabbitMQ of `make test`, a job queue of their own, and an in-process OpenAI stub. Apple is
/// stood in for by a key generated here, which the auth service trusts in development mode.
struct SystemRig: Sendable {
    static let audience = "app.kiwi.ios"
    static let key: DevelopmentAppleKey = try! DevelopmentAppleKey.generate(keyID: "kiwi-system-test")
    static let jwksFile: String = {
        let file = FileManager.default.temporaryDirectory.appending(path: "kiwi-system-tests-\(UUID().uuidString).json")
        try! JSONEncoder().encode(try! key.jwks()).write(to: file)
        return file.path
    }()

    let gateway: URL
    let stub: StubState
    let processes: [String: ServiceProcess]

    /// Starts the three services (and a second gateway with `gateways: 2`) and runs `body` with the first gateway.
    static func run<Result: Sendable>(
        behaviour: StubBehaviour = StubBehaviour(), environment overrides: [String: String] = [:], _ body: @Sendable (SystemRig) async throws -> Result
    ) async throws -> Result {
        try await withLLMStub(behaviour: behaviour) { stubURL, stub in
            let (authPort, gatewayPort, workerPort) = (try freePort(), try freePort(), try freePort())
            var environment = try serviceEnvironment(port: 0).merging([
                "AUTH_SERVICE_URL": "http://127.0.0.1:\(authPort)", "APPLE_JWKS_FILE": jwksFile, "APPLE_CLIENT_ID": audience,
                "OPENAI_BASE_URL": stubURL.absoluteString, "SCAN_JOB_QUEUE": "kiwi.test.system.\(UUID().uuidString.lowercased())",
                "SCAN_TIMEOUT_SECONDS": "10", "WORKER_CONCURRENCY": "8",
            ]) { _, new in new }
            environment.merge(overrides) { _, new in new }
            var processes: [String: ServiceProcess] = [:]
            for (name, port) in [("kiwi-auth", authPort), ("kiwi-scan-worker", workerPort), ("kiwi-gateway", gatewayPort)] {
                var own = environment
                own["PORT"] = String(port)
                let process = try ServiceProcess(name, environment: own)
                processes[name] = process
                #expect(await process.waitUntilServing(URL(string: "http://127.0.0.1:\(port)/health")!) == 200, "\(name) did not start")
            }
            defer { for process in processes.values { process.send(SIGTERM) } }
            let rig = SystemRig(gateway: URL(string: "http://127.0.0.1:\(gatewayPort)")!, stub: stub, processes: processes)
            let result = try await body(rig)
            for process in processes.values {
                process.send(SIGTERM)
                _ = await process.waitForExit()
            }
            return result
        }
    }

    /// An HTTP exchange with the gateway.
    struct Exchange: Sendable {
        var status: Int
        var headers: HTTPHeaders
        var body: Data

        func json() throws -> [String: Any] {
            try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any], "not a JSON object: \(String(decoding: body, as: UTF8.self))")
        }
    }

    func send(_ method: HTTPMethod, _ path: String, token: String? = nil, contentType: String? = nil, body: [UInt8]? = nil) async throws -> Exchange {
        var request = HTTPClientRequest(url: gateway.absoluteString + path)
        request.method = method
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        if let contentType { request.headers.add(name: "Content-Type", value: contentType) }
        if let body { request.body = .bytes(ByteBuffer(bytes: body)) }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        let data = Data(try await response.body.collect(upTo: 4 << 20).readableBytesView)
        return Exchange(status: Int(response.status.code), headers: response.headers, body: data)
    }

    /// Signs in through the gateway with a fresh Apple identity and returns the session token.
    func signIn(email: String? = "cook@example.com") async throws -> String {
        let subject = "001234.\(UUID().uuidString.lowercased()).0042"
        let identity = try await Self.key.mint(AppleIdentityClaims(audience: Self.audience, expires: Date() + 600, issuedAt: Date(), subject: subject, email: email))
        let answer = try await send(.POST, "/v1/auth/apple", contentType: "application/json", body: Array("{\"identityToken\":\"\(identity)\"}".utf8))
        try #require(answer.status == 200, "sign-in answered \(answer.status): \(String(decoding: answer.body, as: UTF8.self))")
        return try #require(try answer.json()["sessionToken"] as? String)
    }

    /// `POST /v1/scan` with `image` as the multipart field `field`.
    func scan(_ image: [UInt8], token: String, field: String = "image") async throws -> Exchange {
        let boundary = "kiwi-\(UUID().uuidString)"
        let body = Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(field)\"; filename=\"fridge.jpg\"\r\nContent-Type: image/jpeg\r\n\r\n".utf8)
            + image + Array("\r\n--\(boundary)--\r\n".utf8)
        return try await send(.POST, "/v1/scan", token: token, contentType: "multipart/form-data; boundary=\(boundary)", body: body)
    }
}
