import AsyncHTTPClient
import Foundation
import KiwiBenchmarking
import KiwiConfiguration
import NIOCore
import NIOHTTP1
import Synchronization

// kiwi-stream-floor: what reading streamed completions costs with nothing done with them — the floor under a streamed
// scan's reading (`make bench`, scenario S). Sends one saved scan-worker request (REQUEST_FILE, as the stub's
// --save-request wrote it, with "stream": true) to the OpenAI stub (OPENAI_BASE_URL) from STREAMS lanes at once, reads
// each answer's body through AsyncHTTPClient as the scan worker does, and throws it away. The lanes start over
// RAMP_SECONDS; this process's CPU is read over FLOOR_SECONDS after WARMUP_SECONDS, per stream that ended in that
// window. READER picks how a body is read: `async` (the default) through the response's async sequence, as the worker
// reads it; `event-loop` by a response delegate on the event loop, with no hop to a task per chunk: what a reader
// below the async body could reach. Prints a table, and writes its figures to REPORT_JSON when set; asserts nothing.

var environment = EnvironmentReader()
let requestFile = environment.required("REQUEST_FILE")
let baseURL = environment.requiredHTTPURL("OPENAI_BASE_URL")
let streams = environment.int("STREAMS", default: 64, in: 1...10_000)
let rampSeconds = environment.int("RAMP_SECONDS", default: 15, in: 0...3600)
let warmupSeconds = environment.int("WARMUP_SECONDS", default: 25, in: 0...3600)
let floorSeconds = environment.int("FLOOR_SECONDS", default: 60, in: 1...3600)
let reportFile = environment.optional("REPORT_JSON")
let reader = environment.value("READER", default: Reader.async) { text in
    guard let reader = Reader(rawValue: text) else { throw ConfigurationError.Reason("must be async or event-loop") }
    return reader
}

/// How a stream's body is read.
enum Reader: String {
    case async
    case eventLoop = "event-loop"
}

do {
    let (requestPath, openAI) = try environment.finish(requestFile, baseURL)
    let body = try Data(contentsOf: URL(fileURLWithPath: requestPath))
    // As the scan worker's client: a connection for every stream at once.
    var configuration = HTTPClient.Configuration()
    configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = streams
    let http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    let start = ContinuousClock.now
    let measuringFrom = start + .seconds(warmupSeconds)
    let stopAt = measuringFrom + .seconds(floorSeconds)
    let ended = Counter()
    let window = Task { () -> Double in
        try? await Task.sleep(until: measuringFrom)
        let before = ProcessUsage(pid: getpid()).cpuSeconds
        try? await Task.sleep(until: stopAt)
        return ProcessUsage(pid: getpid()).cpuSeconds - before
    }
    await withDiscardingTaskGroup { group in
        for lane in 0..<streams {
            group.addTask {
                try? await Task.sleep(until: start + .seconds(Double(rampSeconds) * Double(lane) / Double(streams)))
                while ContinuousClock.now < stopAt {
                    let url = openAI.appendingPathComponent("chat/completions").absoluteString
                    let headers: HTTPHeaders = ["Content-Type": "application/json", "Authorization": "Bearer sk-stream-floor"]
                    let bytes: Int
                    do {
                        switch reader {
                        case .async:
                            var request = HTTPClientRequest(url: url)
                            request.method = .POST
                            request.headers = headers
                            request.body = .bytes(ByteBuffer(bytes: body))
                            let response = try await http.execute(request, timeout: .seconds(120))
                            var read = 0
                            for try await chunk in response.body { read += chunk.readableBytes }
                            bytes = read
                        case .eventLoop:
                            let request = try HTTPClient.Request(url: url, method: .POST, headers: headers, body: .bytes(body))
                            bytes = try await http.execute(request: request, delegate: ByteCounter(), deadline: .now() + .seconds(120)).get()
                        }
                    } catch {
                        FileHandle.standardError.write(Data("kiwi-stream-floor: a stream failed: \(error)\n".utf8))
                        try? await Task.sleep(for: .seconds(1))
                        continue
                    }
                    let now = ContinuousClock.now
                    if now >= measuringFrom && now < stopAt && bytes > 0 { ended.increment() }
                }
            }
        }
    }
    let cpu = await window.value
    try await http.shutdown()
    let count = ended.value
    let perStream = count > 0 ? cpu * 1000 / Double(count) : 0
    print("| reading streamed answers, nothing else | streams ended in the window | CPU ms per stream |")
    print("|---|---|---|")
    print("| \(streams) at once, \(floorSeconds) s, \(reader.rawValue) reader | \(count) | \(String(format: "%.2f", perStream)) |")
    if let reportFile {
        let report: [String: Any] = ["streams": count, "cpuMsPerStream": perStream, "reader": reader.rawValue]
        try JSONSerialization.data(withJSONObject: report, options: [.sortedKeys]).write(to: URL(fileURLWithPath: reportFile))
    }
} catch {
    FileHandle.standardError.write(Data("kiwi-stream-floor: \(error)\n".utf8))
    exit(1)
}

/// Streams that ended in the window, counted from every lane.
final class Counter: Sendable {
    private let count = Mutex(0)
    func increment() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}

/// Counts a body's bytes on the event loop that reads them: AsyncHTTPClient calls a delegate on that loop only, one
/// call at a time, so the count needs no lock.
final class ByteCounter: HTTPClientResponseDelegate, @unchecked Sendable {
    private var bytes = 0

    func didReceiveBodyPart(task: HTTPClient.Task<Int>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        bytes += buffer.readableBytes
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didFinishRequest(task: HTTPClient.Task<Int>) throws -> Int { bytes }
}
