import Foundation
import HTTPTypes
import HummingbirdTesting
import KiwiServiceSupport
import NIOCore
import Testing

@testable import KiwiGateway

/// What every request gets whatever its route, in-process on fakes: 404, 405, request ids, readiness.
@Suite("Gateway router: routing")
struct RoutingRouterTests {
    @Test("an unknown path is 404 not_found in the error shape")
    func unknownPath() async throws {
        try await FakeGateway().test { client async throws in
            let answer = try await client.execute(uri: "/v1/fridge", method: .get)
            #expect(answer.status == .notFound)
            #expect(answer.errorCode == "not_found")
        }
    }

    @Test("a known path with the wrong method is 405 method_not_allowed naming the allowed ones in Allow")
    func wrongMethod() async throws {
        try await FakeGateway().test { client async throws in
            let answer = try await client.execute(uri: "/v1/scan", method: .get)
            #expect(answer.status == .methodNotAllowed)
            #expect(answer.errorCode == "method_not_allowed")
            #expect(answer.headers[.allow] == "POST")
        }
    }

    @Test("a client's plain X-Request-Id is echoed")
    func requestIDEchoed() async throws {
        try await FakeGateway().test { client async throws in
            let answer = try await client.execute(uri: "/health", method: .get, headers: [.requestID: "app-42.retry_1"])
            #expect(answer.headers[.requestID] == "app-42.retry_1")
        }
    }

    @Test("without a usable X-Request-Id the gateway makes up a UUID", arguments: [nil, "has spaces", String(repeating: "a", count: 129)])
    func requestIDMadeUp(_ sent: String?) async throws {
        try await FakeGateway().test { client async throws in
            let answer = try await client.execute(uri: "/health", method: .get, headers: sent.map { [.requestID: $0] } ?? [:])
            let made = try #require(answer.headers[.requestID])
            #expect(UUID(uuidString: made) != nil)
            #expect(made == made.lowercased())
        }
    }

    @Test("an error answer carries the request id too")
    func requestIDOnErrors() async throws {
        try await FakeGateway().test { client async throws in
            let answer = try await client.execute(uri: "/v1/quota", method: .get, headers: [.requestID: "r-1"])
            #expect(answer.status == .unauthorized)
            #expect(answer.headers[.requestID] == "r-1")
        }
    }

    @Test("readiness is 503 not_ready when a required check fails")
    func notReady() async throws {
        let gateway = FakeGateway(readiness: ["postgres": { false }, "auth": { true }])
        try await gateway.test { client async throws in
            let answer = try await client.execute(uri: "/health/ready", method: .get)
            #expect(answer.status == .serviceUnavailable)
            let body = try answer.json()
            #expect(body["error"] as? String == "not_ready")
            #expect(body["dependencies"] as? [String: String] == ["postgres": "unavailable", "auth": "ok"])
        }
    }

    @Test("readiness's 503 says when to ask again: Retry-After 1, as a failover or a restart is over in seconds")
    func notReadyRetryAfter() async throws {
        let gateway = FakeGateway(readiness: ["postgres": { false }])
        try await gateway.test { client async throws in
            let answer = try await client.execute(uri: "/health/ready", method: .get)
            #expect(answer.headers[.retryAfter] == "1")
        }
    }

    @Test("readiness is 200 degraded when only an optional check fails")
    func degraded() async throws {
        let gateway = FakeGateway(readiness: ["postgres": { true }], optionalReadiness: ["scanWorkers": { false }])
        try await gateway.test { client async throws in
            let answer = try await client.execute(uri: "/health/ready", method: .get)
            #expect(answer.status == .ok)
            let body = try answer.json()
            #expect(body["status"] as? String == "degraded")
            #expect(body["dependencies"] as? [String: String] == ["postgres": "ok", "scanWorkers": "degraded"])
        }
    }

    @Test("HEAD is answered wherever GET is, without a body")
    func head() async throws {
        try await FakeGateway().test { client async throws in
            let answer = try await client.execute(uri: "/openapi.yaml", method: .head)
            #expect(answer.status == .ok)
            #expect(answer.body.readableBytes == 0)
        }
    }
}
