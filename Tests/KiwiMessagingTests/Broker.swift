import Foundation
import KiwiMessaging
import Logging
import ServiceLifecycle
import Synchronization
import Testing

/// The RabbitMQ that `make test` started, reached under a connection name unique to one test.
func brokerSettings(_ name: String = "kiwi-test-\(UUID().uuidString.prefix(8))", heartbeatSeconds: Int = 30) throws -> AMQPSettings {
    let url = try #require(
        ProcessInfo.processInfo.environment["KIWI_TEST_AMQP_URL"],
        "KIWI_TEST_AMQP_URL is not set: run the tests with `make test`, which starts RabbitMQ"
    )
    return try AMQPSettings(url: url, heartbeatSeconds: heartbeatSeconds, connectionName: name)
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

/// Runs the services while `body` runs, then cancels them (which shuts them down) and waits for them.
func whileRunning<Result: Sendable>(
    _ services: [any Service], _ body: @Sendable () async throws -> Result
) async throws -> Result {
    try await withThrowingTaskGroup(of: Result?.self) { group in
        for service in services {
            group.addTask {
                try await service.run()
                return nil
            }
        }
        defer { group.cancelAll() }
        return try await body()
    }
}

/// Closes, from the broker's side, the connections whose name contains `pattern` (`infra.sh close-connections`).
func closeConnectionsFromBroker(named pattern: String) throws {
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appending(path: "../../deploy/local/infra.sh").standardized
    let process = Process()
    process.executableURL = script
    process.arguments = ["close-connections", pattern]
    try process.run()
    process.waitUntilExit()
    try #require(process.terminationStatus == 0)
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

/// A value that concurrent test tasks share.
final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    init(_ value: Value) {
        mutex = Mutex(value)
    }

    func withLock<Result: Sendable>(_ body: (inout Value) -> Result) -> Result {
        mutex.withLock { body(&$0) }
    }
}
