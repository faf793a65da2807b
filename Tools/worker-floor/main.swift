import AsyncHTTPClient
import Foundation
import KiwiConfiguration
import KiwiDevelopment
import KiwiMessaging
import KiwiOpenAI
import KiwiTopology
import Logging
import NIOCore
import NIOHTTP1

// kiwi-worker-floor: the least a scan worker can spend on a scan's bytes — a consumer that takes each message of
// QUEUE (declared as the scan-job queue is, WORKER_CONCURRENCY unacknowledged at once), base64-encodes its body (a
// photo) into the very request body a scan worker sent (REQUEST_FILE, as the stub's --save-request wrote it, the photo's
// data URL replaced), POSTs it to the OpenAI stub (OPENAI_BASE_URL) through AsyncHTTPClient as the worker does, reads the
// answer and throws it away, and then acknowledges. No seal, ledger, validation, guard or event: what the job's
// delivery, the photo's encoding and the model's exchange cost on their own. `make bench-floors` feeds it from
// `kiwi-floor-bench` at scenario A's rate and reads its CPU from /proc.

var environment = EnvironmentReader()
let amqpURL = environment.string("AMQP_URL", default: LocalStack.amqpURL)
let queue = environment.string("QUEUE", default: "kiwi.floor-bench.worker-jobs")
let concurrency = environment.int("WORKER_CONCURRENCY", default: 64, in: 1...10_000)
let requestFile = environment.required("REQUEST_FILE")
let baseURL = environment.requiredHTTPURL("OPENAI_BASE_URL")

/// A saved request body cut around its one photo: what comes before the base64 of the photo and what comes after.
struct RequestTemplate {
    let prefix: [UInt8]
    let suffix: [UInt8]

    init(_ body: [UInt8]) throws {
        let opening = Array("\"data:image/jpeg;base64,".utf8)
        guard let start = body.firstRange(of: opening)?.upperBound, let end = body[start...].firstIndex(of: UInt8(ascii: "\"")) else {
            throw ConfigurationError.Reason("REQUEST_FILE must hold a chat completion request with one JPEG data URL")
        }
        (prefix, suffix) = (Array(body[..<start]), Array(body[end...]))
    }

    /// The request body for `photo`, encoded once into its place.
    func body(for photo: [UInt8]) -> ByteBuffer {
        var body = ByteBuffer()
        body.reserveCapacity(prefix.count + Base64.encodedCount(photo.count) + suffix.count)
        body.writeBytes(prefix)
        body.writeBase64(photo)
        body.writeBytes(suffix)
        return body
    }
}

do {
    let (requestPath, openAI) = try environment.finish(requestFile, baseURL)
    let template = try RequestTemplate(Array(try Data(contentsOf: URL(fileURLWithPath: requestPath))))
    var logger = Logger(label: "kiwi-worker-floor")
    logger.logLevel = .warning
    var configuration = HTTPClient.Configuration()
    configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = concurrency
    let http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    let endpoint = openAI.appending(path: "chat/completions").absoluteString
    let consumer = AMQPConsumer(
        settings: try AMQPSettings(url: amqpURL, connectionName: "kiwi-worker-floor"),
        queue: queue,
        prefetch: concurrency,
        topology: KiwiTopology.scanJobs(queue: queue),
        logger: logger
    )
    try await withThrowingDiscardingTaskGroup { group in
        group.addTask { try await consumer.run() }
        for await delivery in consumer.deliveries {
            group.addTask {
                var request = HTTPClientRequest(url: endpoint)
                request.method = .POST
                request.headers.add(name: "Authorization", value: "Bearer sk-worker-floor")
                request.headers.add(name: "Content-Type", value: "application/json")
                request.body = .bytes(template.body(for: delivery.message.body))
                do {
                    let response = try await http.execute(request, deadline: .now() + .seconds(60))
                    for try await _ in response.body {}
                } catch {
                    FileHandle.standardError.write(Data("kiwi-worker-floor: a request failed: \(error)\n".utf8))
                }
                try await delivery.ack()
            }
        }
    }
} catch {
    FileHandle.standardError.write(Data("kiwi-worker-floor: \(error)\n".utf8))
    exit(1)
}
