import Foundation
import KiwiAPIClient
import KiwiAppleSignIn
import KiwiDevelopment
import KiwiJPEG
import OpenAPIRuntime
import Testing

/// The Swift client generated from `openapi.yaml`, against the live gateway: every operation, so the document
/// cannot drift from the server without a test failing.
@Suite("Generated API client against the live gateway", .serialized, .timeLimit(.minutes(3)))
struct APIClientTests {
    let photo = SyntheticJPEG.make(size: 16 * 1024, seed: 41)

    func identityToken() async throws -> String {
        try await SystemRig.key.mint(
            AppleIdentityClaims(
                audience: SystemRig.audience,
                expires: Date() + 600,
                issuedAt: Date(),
                subject: "001234.\(UUID().uuidString.lowercased()).0042"
            )
        )
    }

    @Test("every operation of the document decodes the gateway's real answers, errors included")
    func everyOperation() async throws {
        try await SystemRig.run { rig in
            let anonymous = KiwiAPI.client(serverURL: rig.gateway)
            let health = try await anonymous.getHealth().ok
            #expect(try health.body.json.status == "ok")
            #expect(!health.headers.xRequestId.isEmpty)
            // Its connections to the broker come up a moment after it serves: ask once it says so.
            _ = try await rig.readiness(until: "ready")
            #expect(try await anonymous.getReadiness().ok.body.json.dependencies.additionalProperties["postgres"] == .ok)
            let refused = try await anonymous.signInWithApple(body: .json(.init(identityToken: "not-a-jwt")))
            #expect(try refused.unauthorized.body.json.error == "invalid_token")

            let session = try await anonymous.signInWithApple(body: .json(.init(identityToken: try await identityToken()))).ok.body.json
            #expect(session.expiresAt > Date())
            let client = KiwiAPI.client(serverURL: rig.gateway, sessionToken: session.sessionToken)
            #expect(try await client.getQuota().ok.body.json.remaining == 4)

            let scan = try await client.scanFridge(
                body: .multipartForm([.image(.init(payload: .init(body: HTTPBody(photo)), filename: "fridge.jpg"))])
            )
            let recipes = try scan.ok.body.json
            #expect(!recipes.ingredients.isEmpty && !recipes.recipes.isEmpty)
            let id = try #require(scan.ok.headers.location.split(separator: "/").last.map(String.init))
            let stored = try await client.getScan(path: .init(id: id)).ok.body.json
            #expect(stored.status == .succeeded)
            #expect(stored.result == recipes)
            #expect(try await client.getScan(path: .init(id: UUID().uuidString)).notFound.body.json.error == "not_found")
            let png = try await client.scanFridge(body: .multipartForm([.image(.init(payload: .init(body: HTTPBody([0x89, 0x50, 0x4E, 0x47]))))]))
            #expect(try png.badRequest.body.json.error == "invalid_image")

            _ = try await client.signOut().noContent
            #expect(try await client.getQuota().unauthorized.body.json.error == "unauthorized")

            let other = try await anonymous.signInWithApple(body: .json(.init(identityToken: try await identityToken()))).ok.body.json
            let leaving = KiwiAPI.client(serverURL: rig.gateway, sessionToken: other.sessionToken)
            #expect(try await leaving.deleteAccount().ok.body.json.deleted)
            #expect(try await leaving.deleteAccount().unauthorized.body.json.error == "unauthorized")
        }
    }

    @Test("a spent allowance decodes as 429 with resetsAt and Retry-After")
    func rateLimitDecodes() async throws {
        try await SystemRig.run(environment: ["SCAN_DAILY_LIMIT": "1"]) { rig in
            let anonymous = KiwiAPI.client(serverURL: rig.gateway)
            let session = try await anonymous.signInWithApple(body: .json(.init(identityToken: try await identityToken()))).ok.body.json
            let client = KiwiAPI.client(serverURL: rig.gateway, sessionToken: session.sessionToken)
            _ = try await client.scanFridge(body: .multipartForm([.image(.init(payload: .init(body: HTTPBody(photo))))])).ok
            let limited = try await client.scanFridge(body: .multipartForm([.image(.init(payload: .init(body: HTTPBody(photo))))])).tooManyRequests
            #expect(limited.headers.retryAfter > 0)
            #expect(try limited.body.json.resetsAt != nil)
        }
    }

    @Test("a gateway with no scan worker answers a degraded readiness that the client decodes")
    func degradedReadinessDecodes() async throws {
        try await SystemRig.run(workers: 0) { rig in
            _ = try await rig.readiness(until: "degraded")
            let readiness = try await KiwiAPI.client(serverURL: rig.gateway).getReadiness().ok.body.json
            #expect(readiness.status == "degraded")
            #expect(readiness.dependencies.additionalProperties["scanWorkers"] == .degraded)
        }
    }
}
