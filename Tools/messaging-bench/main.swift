import Foundation
import KiwiConcurrency
import KiwiDevelopment
import KiwiMessaging
import Logging
import ServiceLifecycle

// kiwi-messaging-bench: throughput of confirmed publishing and consuming, and request/reply latency,
// against the RabbitMQ at AMQP_URL (default: the local stack). Prints a table; asserts nothing.

let url = ProcessInfo.processInfo.environment["AMQP_URL"].flatMap { $0.isEmpty ? nil : $0 } ?? "amqp://kiwi:kiwi@127.0.0.1:55672/%2F"
let logger: Logger = {
    var logger = Logger(label: "kiwi-messaging-bench")
    logger.logLevel = .warning
    return logger
}()

func settings(_ role: String) throws -> AMQPSettings {
    try AMQPSettings(url: url, connectionName: "kiwi-messaging-bench \(role)")
}

struct ThroughputResult {
    let bodySize: Int
    let messages: Int
    let seconds: Double
}

/// Publishes `messages` bodies of `bodySize` bytes from 64 concurrent publishers, each awaiting its
/// confirm, while one consumer (prefetch 256) acknowledges them; times first publish to last ack.
func throughput(bodySize: Int, messages: Int) async throws -> ThroughputResult {
    let queue = "kiwi.bench.\(UUID().uuidString.lowercased())"
    let topology = AMQPTopology(queues: [AMQPQueue(name: queue, durable: false, autoDelete: true)])
    let publisher = AMQPPublisher(settings: try settings("publisher"), topology: topology, logger: logger)
    let consumer = AMQPConsumer(settings: try settings("consumer"), queue: queue, prefetch: 256, topology: topology, logger: logger)
    let body = [UInt8](repeating: 0x4B, count: bodySize)
    return try await whileRunning([publisher, consumer]) {
        await publisher.waitUntilConnected()
        await consumer.waitUntilConnected()
        let start = ContinuousClock.now
        try await withThrowingDiscardingTaskGroup { group in
            group.addTask {
                var received = 0
                for await delivery in consumer.deliveries {
                    try await delivery.ack()
                    received += 1
                    if received == messages { break }
                }
            }
            for worker in 0..<64 {
                group.addTask {
                    for _ in stride(from: worker, to: messages, by: 64) {
                        try await publisher.publish(AMQPMessage(body: body), routingKey: queue)
                    }
                }
            }
        }
        let elapsed = ContinuousClock.now - start
        return ThroughputResult(bodySize: bodySize, messages: messages, seconds: elapsed.seconds)
    }
}

struct LatencyResult {
    let concurrency: Int
    let requests: Int
    let seconds: Double
    let sorted: [Double]

    func percentile(_ p: Double) -> Double { sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] }
}

/// `requests` request/reply round trips (1 KiB each way) at `concurrency`, against an echoing responder.
func requestReply(concurrency: Int, requests: Int) async throws -> LatencyResult {
    let queue = "kiwi.bench.\(UUID().uuidString.lowercased())"
    let topology = AMQPTopology(queues: [AMQPQueue(name: queue, durable: false, autoDelete: true)])
    let responderIn = AMQPConsumer(settings: try settings("responder"), queue: queue, prefetch: 512, topology: topology, logger: logger)
    let responderOut = AMQPPublisher(settings: try settings("responder"), logger: logger)
    let requester = AMQPRequester(settings: try settings("requester"), topology: topology, logger: logger)
    let body = [UInt8](repeating: 0x4B, count: 1024)
    return try await whileRunning([responderIn, responderOut, requester]) {
        await requester.waitUntilConnected()
        await responderIn.waitUntilConnected()
        await responderOut.waitUntilConnected()
        return try await withThrowingTaskGroup(of: [Double].self) { group in
            group.addTask {
                try await withThrowingDiscardingTaskGroup { replies in
                    for await delivery in responderIn.deliveries {
                        replies.addTask {
                            try await responderOut.reply(to: delivery.message, with: AMQPMessage(body: delivery.message.body))
                            try await delivery.ack()
                        }
                    }
                }
                return []
            }
            group.addTask {
                try await withThrowingTaskGroup(of: [Double].self) { callers in
                    for caller in 0..<concurrency {
                        callers.addTask {
                            var latencies: [Double] = []
                            for _ in stride(from: caller, to: requests, by: concurrency) {
                                let start = ContinuousClock.now
                                _ = try await requester.request(AMQPMessage(body: body), routingKey: queue, timeout: .seconds(30))
                                latencies.append((ContinuousClock.now - start).seconds * 1000)
                            }
                            return latencies
                        }
                    }
                    return try await callers.reduce(into: []) { $0 += $1 }
                }
            }
            let start = ContinuousClock.now
            let latencies = try await group.next()!
            group.cancelAll()
            return LatencyResult(
                concurrency: concurrency,
                requests: requests,
                seconds: (ContinuousClock.now - start).seconds,
                sorted: latencies.sorted()
            )
        }
    }
}

func pad(_ text: String, _ width: Int) -> String {
    String(repeating: " ", count: max(0, width - text.count)) + text
}

func runBenchmarks() async throws {
    let cpu = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8))?
        .split(separator: "\n").first { $0.hasPrefix("model name") }?.split(separator: ":").last?.trimmingCharacters(in: .whitespaces)
    print("kiwi-messaging-bench — \(ProcessInfo.processInfo.activeProcessorCount) cores, \(cpu ?? "unknown CPU"); broker \(try settings("x"))")
    print("")
    print("confirmed publish + consume (64 publishers awaiting confirms, 1 consumer, prefetch 256)")
    print("  body        messages     seconds     messages/s        MB/s")
    for (size, count) in [(1024, 20_000), (512 * 1024, 400)] {
        let result = try await throughput(bodySize: size, messages: count)
        let rate = Double(result.messages) / result.seconds
        let megabytes = rate * Double(result.bodySize) / 1_048_576
        print(
            "  " + pad(size >= 1024 * 1024 ? "\(size / 1_048_576) MiB" : "\(size / 1024) KiB", 8)
                + pad(String(result.messages), 12) + pad(String(format: "%.2f", result.seconds), 12)
                + pad(String(format: "%.0f", rate), 15) + pad(String(format: "%.1f", megabytes), 12)
        )
    }
    print("")
    print("request/reply round trip (1 KiB each way, echo responder)")
    print("  concurrency  requests   requests/s    p50 ms    p99 ms    max ms")
    for (concurrency, requests) in [(1, 2_000), (256, 20_000)] {
        let result = try await requestReply(concurrency: concurrency, requests: requests)
        print(
            "  " + pad(String(concurrency), 11) + pad(String(result.requests), 10)
                + pad(String(format: "%.0f", Double(result.requests) / result.seconds), 13)
                + pad(String(format: "%.2f", result.percentile(0.5)), 10) + pad(String(format: "%.2f", result.percentile(0.99)), 10)
                + pad(String(format: "%.2f", result.sorted.last ?? 0), 10)
        )
    }
}

do {
    try await runBenchmarks()
} catch {
    FileHandle.standardError.write(Data("kiwi-messaging-bench: \(error)\n".utf8))
    exit(1)
}
