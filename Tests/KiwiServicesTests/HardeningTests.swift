import AsyncHTTPClient
import Foundation
import KiwiBenchmarking
import KiwiDevelopment
import KiwiJPEG
import KiwiTestSupport
import NIOCore
import NIOHTTP1
import Testing

@testable import KiwiLLMStub

/// What a new user, a fuzzer and a load balancer hit first: large photos, HEAD probes, malformed HTTP, re-signing up
/// to reset the quota, upper-case ids, and the API's own description.
@Suite("Hardening", .serialized, .timeLimit(.minutes(3)))
struct HardeningTests {
    let photo = SyntheticJPEG.make(size: 16 * 1024, seed: 61)

    @Test("deleting the account and signing up again with the same Apple id does not reset the day's quota")
    func quotaFollowsThePerson() async throws {
        try await SystemRig.run { rig in
            let subject = "001234.\(UUID().uuidString.lowercased()).0061"
            let day = UTCDay()
            let first = try await rig.signIn(subject: subject)
            for _ in 0..<4 { #expect(try await rig.scan(photo, token: first).status == 200) }
            #expect(try await rig.send(.DELETE, "/v1/account", token: first).status == 200)
            let again = try await rig.signIn(subject: subject)
            #expect(day.allows(try await rig.send(.GET, "/v1/quota", token: again).json()["remaining"] as? Int, exactly: 0, limit: 4))
            #expect(try await rig.scan(photo, token: again).status == 429)
            let someoneElse = try await rig.signIn()
            #expect(try await rig.scan(photo, token: someoneElse).status == 200)
            #expect(rig.stub.snapshot.requests == 5)
        }
    }

    @Test("a 3.8 MiB photo, and 50 MiB bodies with and without Content-Length, are 400 invalid_image and never buffered")
    func oversizedUploads() async throws {
        try await SystemRig.run { rig in
            let token = try await rig.signIn()
            let gateway = try #require(rig.processes["kiwi-gateway-0"]).pid
            let peakBefore = ProcessUsage(pid: gateway).peakRSSBytes
            let phonePhoto = try await offThePool { MultipartUpload.make(SyntheticJPEG.make(size: 3_800_000, seed: 62)) }
            var answers = [try await rig.send(.POST, "/v1/scan", token: token, contentType: phonePhoto.contentType, body: phonePhoto.body)]
            for chunked in [false, true] {
                answers.append(try await upload(FiftyMebibytePhoto(), chunked: chunked, token: token, to: rig.gateway))
            }
            for answer in answers {
                #expect(answer.status == 400)
                #expect(try answer.json()["error"] as? String == "invalid_image")
                #expect((try answer.json()["message"] as? String)?.contains("2 MiB") == true)
            }
            // Up to 8 MiB + 64 KiB is read (five photos may come in one upload), in a buffer that grows by doubling, and
            // copied once; the 50 MiB bodies are never read past that.
            let growth = ProcessUsage(pid: gateway).peakRSSBytes - peakBefore
            #expect(growth < 40 << 20, "the gateway's peak RSS grew by \(growth >> 20) MiB")
            #expect(try await rig.send(.GET, "/v1/quota", token: token).json()["remaining"] as? Int == 4)
        }
    }

    /// Streams `body` to `POST /v1/scan`, with `Transfer-Encoding: chunked` when `chunked`, else its `Content-Length`.
    private func upload(_ body: FiftyMebibytePhoto, chunked: Bool, token: String, to gateway: URL) async throws -> SystemRig.Exchange {
        var request = HTTPClientRequest(url: gateway.absoluteString + "/v1/scan")
        request.method = .POST
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        request.headers.add(name: "Content-Type", value: FiftyMebibytePhoto.contentType)
        request.body = .stream(body, length: chunked ? .unknown : .known(Int64(FiftyMebibytePhoto.length)))
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(60))
        let data = Data(try await response.body.collect(upTo: 1 << 20).readableBytesView)
        return SystemRig.Exchange(status: Int(response.status.code), headers: response.headers, body: data)
    }

    @Test("HEAD answers every GET route of every service with GET's status and headers and no body")
    func headMirrorsGet() async throws {
        try await SystemRig.run { rig in
            let token = try await rig.signIn()
            _ = try await rig.readiness(until: "ready")  // so that GET and HEAD see the same readiness
            var routes: [(URL, String, String?)] = ["/health", "/health/ready", "/openapi.yaml", "/openapi.json"].map { (rig.gateway, $0, nil) }
            routes.append((rig.gateway, "/v1/quota", token))
            routes.append((rig.gateway, "/v1/quota", nil))
            for name in ["kiwi-auth", "kiwi-scan-worker"] {
                let server = try #require(rig.servers[name])
                routes += [(server, "/health", nil), (server, "/health/ready", nil)]
            }
            for metrics in rig.metrics.values {
                routes.append((metrics.deletingLastPathComponent(), "/metrics", nil))
            }
            for (server, path, token) in routes {
                let get = try await rig.send(.GET, path, token: token, to: server)
                let head = try await rig.send(.HEAD, path, token: token, to: server)
                #expect(head.status == get.status, "\(server)\(path)")
                #expect(head.body.isEmpty, "\(server)\(path)")
                #expect(head.headers.first(name: "Content-Type") == get.headers.first(name: "Content-Type"), "\(server)\(path)")
                let names = { (headers: HTTPHeaders) in Set(headers.map { $0.name.lowercased() }) }
                #expect(names(head.headers) == names(get.headers), "\(server)\(path)")
                if path != "/metrics" {  // counters move between the two requests
                    #expect(head.headers.first(name: "Content-Length") == get.headers.first(name: "Content-Length"), "\(server)\(path)")
                }
            }
        }
    }

    @Test(
        "requests that are not valid HTTP get a JSON 400 with a request id, and the connection closes",
        arguments: [
            "GARBAGE\r\n\r\n",
            "GET /health HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello!",
            "POST /v1/scan HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
            "GET /health HTTP/1.1\r\nHost: x\r\nCookie: \(String(repeating: "c", count: 100_000))\r\n\r\n",
        ]
    )
    func malformedRequests(_ request: String) async throws {
        try await SystemRig.run(workers: 0) { rig in
            let port = try #require(rig.gateway.port)
            let answer = try await offThePool { try RawHTTP.exchange(Array(request.utf8), port: port) }
            let (head, body) = try #require(RawHTTP.split(answer))
            #expect(head.hasPrefix("HTTP/1.1 400"), "\(head)")
            #expect(head.lowercased().contains("x-request-id: "))
            #expect(head.lowercased().contains("connection: close"))
            let json = try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])
            #expect(json["error"] as? String == "bad_request")
        }
    }

    @Test("scan answers carry lower-case ids")
    func idsAreLowerCase() async throws {
        try await SystemRig.run { rig in
            let token = try await rig.signIn()
            let answer = try await rig.scan(photo, token: token)
            #expect(answer.status == 200)
            let text = String(decoding: answer.body, as: UTF8.self)
            let ids = text.matches(of: /"id":"([^"]+)"/).map { String($0.output.1) }
            #expect(!ids.isEmpty)
            #expect(ids.allSatisfy { $0 == $0.lowercased() && UUID(uuidString: $0) != nil }, "\(ids)")
        }
    }

    @Test("the gateway serves its OpenAPI document as YAML and as the same document in JSON, cacheably")
    func servesOpenAPIDocument() async throws {
        let source = try String(contentsOf: ServiceProcess.checkout.appending(path: "Shared/APIDocument/openapi.yaml"), encoding: .utf8)
        try await SystemRig.run(workers: 0) { rig in
            let yaml = try await rig.send(.GET, "/openapi.yaml")
            #expect(yaml.status == 200)
            #expect(String(decoding: yaml.body, as: UTF8.self) == source)
            #expect(yaml.headers.first(name: "Content-Type")?.hasPrefix("application/yaml") == true)
            #expect(yaml.headers.first(name: "Cache-Control") == "public, max-age=3600")
            let tag = try #require(yaml.headers.first(name: "ETag"))

            let json = try await rig.send(.GET, "/openapi.json")
            #expect(json.status == 200)
            let document = try #require(try JSONSerialization.jsonObject(with: json.body) as? [String: Any])
            #expect(document["openapi"] as? String == "3.1.0")
            let paths = try #require(document["paths"] as? [String: Any])
            let sourcePaths = source.split(separator: "\n").filter { $0.hasPrefix("  /") }.map { String($0.dropFirst(2).dropLast()) }
            #expect(Set(paths.keys) == Set(sourcePaths))

            let cached = try await rig.send(.GET, "/openapi.json", headers: [("If-None-Match", tag)])
            #expect(cached.status == 304 && cached.body.isEmpty)
        }
    }
}

/// A multipart upload of a 50 MiB "JPEG", made 64 KiB at a time as it is sent: never 50 MiB in the test's memory.
struct FiftyMebibytePhoto: AsyncSequence, Sendable {
    static let envelope = MultipartUpload.envelope()
    static var contentType: String { envelope.contentType }
    static let head = envelope.head + [0xFF, 0xD8, 0xFF]
    static var tail: [UInt8] { envelope.tail }
    static let photoBytes = 50 << 20
    static let chunk = 64 << 10
    static var length: Int { head.count + photoBytes + tail.count }

    struct AsyncIterator: AsyncIteratorProtocol {
        var sent = -1

        mutating func next() async -> ByteBuffer? {
            defer { sent += sent < 0 ? 1 : FiftyMebibytePhoto.chunk }
            switch sent {
            case -1: return ByteBuffer(bytes: FiftyMebibytePhoto.head)
            case FiftyMebibytePhoto.photoBytes: return ByteBuffer(bytes: FiftyMebibytePhoto.tail)
            case let offset where offset < FiftyMebibytePhoto.photoBytes:
                return ByteBuffer(repeating: 0x42, count: Swift.min(FiftyMebibytePhoto.chunk, FiftyMebibytePhoto.photoBytes - offset))
            default: return nil
            }
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator() }
}

/// HTTP/1.1 spoken over a plain socket, for requests no HTTP client would send.
enum RawHTTP {
    /// Sends `request` to 127.0.0.1:`port` and returns everything read until the server closes (at most 5 s).
    static func exchange(_ request: [UInt8], port: Int) throws -> String {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        try #require(withLoopbackAddress(port: port) { connect(descriptor, $0, $1) == 0 })
        _ = request.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            received += buffer[0..<count]
        }
        return String(decoding: received, as: UTF8.self)
    }

    /// The head and body of a response.
    static func split(_ response: String) -> (head: String, body: String)? {
        guard let end = response.range(of: "\r\n\r\n") else { return nil }
        return (String(response[..<end.lowerBound]), String(response[end.upperBound...]))
    }
}
