import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import KiwiAppleSignIn
import KiwiDatabase
import KiwiDevelopment
import KiwiModels
import KiwiTestSupport
import Logging
import NIOCore
import Testing

@testable import KiwiAuth

/// Builds the auth service through its real composition root, against the PostgreSQL and RabbitMQ of
/// `make test`, trusting a locally generated stand-in for Apple's key (development mode).
struct AuthHarness {
    static let internalToken = String(repeating: "i", count: 40)
    static let audience = "app.kiwi.ios"
    /// One key for the whole run: generating RSA keys is slow in debug builds.
    static let key: DevelopmentAppleKey = try! DevelopmentAppleKey.generate(keyID: "kiwi-test")
    static let jwksFile: String = {
        let file = FileManager.default.temporaryDirectory.appending(path: "kiwi-auth-tests-\(UUID().uuidString).json")
        try! JSONEncoder().encode(try! key.jwks()).write(to: file)
        return file.path
    }()

    static func environment(_ overrides: [String: String] = [:]) throws -> [String: String] {
        [
            "KIWI_ENV": "development",
            "DATABASE_URL": try testDatabaseURL(),
            "AMQP_URL": try testAMQPURL(),
            "INTERNAL_API_TOKEN": internalToken,
            "QUOTA_KEY_SECRET": String(repeating: "q", count: 32),
            "APPLE_CLIENT_ID": "\(audience),app.kiwi.web",
            "APPLE_JWKS_FILE": jwksFile,
        ].merging(overrides) { _, override in override }
    }

    /// Runs `body` against a fresh instance of the service.
    static func withService(_ overrides: [String: String] = [:], _ body: @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        var logger = Logger(label: "test.auth")
        logger.logLevel = .warning
        let app = try await buildApplication(configuration: try AuthConfiguration(environment: try environment(overrides)), logger: logger)
        try await app.test(.router) { client in try await body(client) }
    }

    /// An identity token for `subject`, as Apple would issue it right now.
    static func identityToken(subject: String, email: String? = nil) async throws -> String {
        try await key.mint(AppleIdentityClaims(audience: audience, expires: Date() + 600, issuedAt: Date(), subject: subject, email: email))
    }

    /// A unique Apple `sub`, so that tests never share users.
    static func newSubject() -> String { "001234.\(UUID().uuidString.lowercased()).0042" }
}

extension TestClientProtocol {
    func post(_ path: String, json: String, headers: HTTPFields = [:]) async throws -> TestResponse {
        var headers = headers
        headers[.contentType] = "application/json"
        return try await execute(uri: path, method: .post, headers: headers, body: ByteBuffer(string: json))
    }

    func signIn(subject: String, email: String? = nil) async throws -> SessionResponse {
        let token = try await AuthHarness.identityToken(subject: subject, email: email)
        let response = try await post("/v1/auth/apple", json: #"{"identityToken":"\#(token)"}"#)
        try #require(response.status == .ok, "\(String(buffer: response.body))")
        return try KiwiJSON.decoder().decode(SessionResponse.self, from: Data(buffer: response.body))
    }

    func introspect(_ token: String, internalToken: String? = AuthHarness.internalToken) async throws -> TestResponse {
        var headers: HTTPFields = [:]
        if let internalToken { headers[.authorization] = "Bearer \(internalToken)" }
        return try await post("/internal/v1/sessions/introspect", json: #"{"token":"\#(token)"}"#, headers: headers)
    }
}

extension TestResponse {
    /// The body as the API's error shape.
    var errorBody: ErrorBody? { try? KiwiJSON.decoder().decode(ErrorBody.self, from: Data(buffer: body)) }
}

extension Data {
    init(buffer: ByteBuffer) {
        self.init(buffer.readableBytesView)
    }
}
