import Foundation
import HTTPTypes
import KiwiAPIClient
import OpenAPIRuntime
import Synchronization
import Testing

/// The generated client's retry after a brief outage: 503 `service_unavailable` with a short `Retry-After` only.
@Suite("Asking again after a brief outage")
struct BriefOutageRetryTests {
    /// The answers `next` gives in turn, and how many requests it received.
    final class Server: Sendable {
        let answers: Mutex<[(HTTPResponse, String)]>
        let received = Atomic<Int>(0)

        init(_ answers: [(HTTPResponse, String)]) {
            self.answers = Mutex(answers)
        }

        func next(_ request: HTTPRequest, _ body: HTTPBody?, _ url: URL) async throws -> (HTTPResponse, HTTPBody?) {
            received.add(1, ordering: .relaxed)
            let (response, text) = answers.withLock { $0.removeFirst() }
            return (response, HTTPBody(text))
        }
    }

    static func unavailable(_ code: String, retryAfter: String = "1") -> (HTTPResponse, String) {
        (HTTPResponse(status: .serviceUnavailable, headerFields: [.retryAfter: retryAfter]), #"{"error": "\#(code)", "message": "…"}"#)
    }

    static let ok = (HTTPResponse(status: .ok), #"{"items": []}"#)

    func send(_ server: Server, body: HTTPBody? = HTTPBody("{}")) async throws -> (HTTPResponse, String) {
        let middleware = BriefOutageRetryMiddleware(sleep: { _ in })
        let (response, answer) = try await middleware.intercept(
            HTTPRequest(method: .post, scheme: "http", authority: "kiwi", path: "/v1/pantry/items"),
            body: body,
            baseURL: URL(string: "http://kiwi")!,
            operationID: "addToPantry",
            next: server.next
        )
        return (response, try await String(collecting: answer ?? HTTPBody(), upTo: 1024))
    }

    @Test("a 503 service_unavailable with Retry-After is asked again, and the answer after it returned")
    func storeOutageIsRetried() async throws {
        let server = Server([Self.unavailable("service_unavailable"), Self.unavailable("service_unavailable"), Self.ok])
        let (response, text) = try await send(server)
        #expect(response.status == .ok && text == Self.ok.1)
        #expect(server.received.load(ordering: .relaxed) == 3)
    }

    @Test("after three tries the last 503 is returned whole")
    func triesEnd() async throws {
        let server = Server(Array(repeating: Self.unavailable("service_unavailable"), count: 3))
        let (response, text) = try await send(server)
        #expect(response.status == .serviceUnavailable && text.contains("service_unavailable"))
        #expect(server.received.load(ordering: .relaxed) == 3)
    }

    @Test(
        "another code, a long Retry-After, or a body that cannot be sent again is answered at once",
        arguments: [("scan_unavailable", "1", true), ("service_unavailable", "30", true), ("service_unavailable", "1", false)]
    )
    func notRetried(_ code: String, _ retryAfter: String, _ repeatableBody: Bool) async throws {
        let server = Server([Self.unavailable(code, retryAfter: retryAfter), Self.ok])
        let body =
            repeatableBody
            ? HTTPBody("{}") : HTTPBody(AsyncStream { $0.finish() } as AsyncStream<ArraySlice<UInt8>>, length: .unknown, iterationBehavior: .single)
        let (response, text) = try await send(server, body: body)
        #expect(response.status == .serviceUnavailable && text.contains(code))
        #expect(server.received.load(ordering: .relaxed) == 1)
    }
}
