import Foundation
import KiwiMessaging
import KiwiTestSupport
import Logging
import ServiceLifecycle
import Synchronization
import Testing

/// The RabbitMQ that `make test` started, reached under a connection name unique to one test.
func brokerSettings(_ name: String = "kiwi-test-\(UUID().uuidString.prefix(8))", heartbeatSeconds: Int = 30) throws -> AMQPSettings {
    try AMQPSettings(url: try testAMQPURL(), heartbeatSeconds: heartbeatSeconds, connectionName: name)
}

/// A queue name no other test uses.
func uniqueQueue(_ purpose: String) -> String {
    "kiwi.test.\(purpose).\(UUID().uuidString.lowercased())"
}

/// A queue that goes away when its last consumer does, so tests leave nothing behind.
func temporaryQueue(_ name: String, deadLetterExchange: String? = nil) -> AMQPQueue {
    AMQPQueue(name: name, durable: false, autoDelete: true, deadLetterExchange: deadLetterExchange)
}

let testLogger: Logger = {
    var logger = Logger(label: "test.messaging")
    logger.logLevel = .warning
    return logger
}()

/// Closes, from the broker's side, the connections whose name contains `pattern` (`infra.sh close-connections`).
func closeConnectionsFromBroker(named pattern: String) async throws {
    try await runInfra(["close-connections", pattern])
}

/// Deletes, from the broker's side, every queue whose name starts with `prefix`, as `rabbitmqctl delete_queue` does
/// (`infra.sh delete-queues`).
func deleteQueuesFromBroker(named prefix: String) async throws {
    try await runInfra(["delete-queues", prefix])
}

/// Runs `deploy/local/infra.sh` with `arguments`, which must succeed.
private func runInfra(_ arguments: [String]) async throws {
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appending(path: "../../deploy/local/infra.sh").standardized
    let result = try await runProgram(script.path, arguments, includingStandardError: true)
    try #require(result.status == 0, "infra.sh \(arguments[0]) failed: \(result.output)")
}

/// Whether a message whose body is `body` reaches `consumer` within `timeout`, `send` sending it every 200 ms meanwhile:
/// what is sent while a subscription is down is lost by design, so it goes out until it arrives.
func keepSending(
    until consumer: AMQPConsumer,
    receives body: [UInt8],
    within timeout: Duration,
    send: @escaping @Sendable () async throws -> Void
) async throws -> Bool {
    try await withThrowingTaskGroup(of: Bool.self) { group in
        group.addTask {
            for await delivery in consumer.deliveries where delivery.message.body == body { return true }
            return false
        }
        group.addTask {
            while true {
                try await send()
                try await Task.sleep(for: .milliseconds(200))
            }
        }
        group.addTask {
            try await Task.sleep(for: timeout)
            return false
        }
        defer { group.cancelAll() }
        return try await group.next()!
    }
}

/// Collects up to `count` deliveries, waiting at most `timeout` for them.
func collect(_ count: Int, from consumer: AMQPConsumer, timeout: Duration = .seconds(10), ack: Bool = true) async throws -> [AMQPDelivery] {
    try await withThrowingTaskGroup(of: [AMQPDelivery].self) { group in
        group.addTask {
            var received: [AMQPDelivery] = []
            for await delivery in consumer.deliveries {
                if ack { try await delivery.ack() }
                received.append(delivery)
                if received.count == count { break }
            }
            return received
        }
        group.addTask {
            try await Task.sleep(for: timeout)
            return []
        }
        defer { group.cancelAll() }
        return try await group.next()!
    }
}
