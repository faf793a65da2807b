import Foundation
import KiwiConcurrency
import KiwiConfiguration
import KiwiDevelopment
import KiwiMessaging
import Logging
import ServiceLifecycle

// kiwi-messaging-bench: throughput of confirmed publishing and consuming against the RabbitMQ at AMQP_URL (default: the local stack). Prints a table; asserts nothing.

let url = EnvironmentReader().string("AMQP_URL", default: LocalStack.amqpURL)
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
}

do {
    try await runBenchmarks()
} catch {
    FileHandle.standardError.write(Data("kiwi-messaging-bench: \(error)\n".utf8))
    exit(1)
}
