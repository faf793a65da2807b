import Foundation
import Hummingbird
import KiwiConfiguration
import KiwiModels
import Logging

// kiwi-gateway-floor: the least a gateway can spend on a scan's upload — a Hummingbird server that reads a
// `POST /v1/scan` body whole, as the gateway does (up to the gateway's limit), and answers with a fixed body the size of
// a scan's answer. No session, quota, photo check, job or event: what the upload and the answer cost on their own.
// `make bench-floors` drives it from `kiwi-floor-bench` at scenario A's rate and reads its CPU from /proc.

var environment = EnvironmentReader()
let port = environment.port("PORT", default: 18090)
/// The answer's size: a scan's answer in scenario A is about 3–5 KB of JSON.
let answerBytes = environment.int("ANSWER_BYTES", default: 4096, in: 12...1 << 20)
/// The gateway's limit on a scan upload: its photos and room for their multipart envelopes.
let maximumBodySize = ScanPhoto.maximumTotalSize + 64 * 1024

do {
    try environment.finish()
    var logger = Logger(label: "kiwi-gateway-floor")
    logger.logLevel = .warning
    let answer = ByteBuffer(string: "{\"floor\":\"" + String(repeating: "x", count: answerBytes - 12) + "\"}")
    let router = Router()
    router.get("health") { _, _ in HTTPResponse.Status.ok }
    router.post("v1/scan") { request, _ -> Response in
        _ = try await request.body.collect(upTo: maximumBodySize)
        return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: answer))
    }
    let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)), logger: logger)
    try await app.runService()
} catch {
    FileHandle.standardError.write(Data("kiwi-gateway-floor: \(error)\n".utf8))
    exit(1)
}
