import Foundation
import KiwiDevelopment
import KiwiMessaging
import KiwiTestSupport
import Synchronization
import Testing

@Suite("Recovery from connection loss")
struct RecoveryTests {
    @Test("after the broker closes the connections, publishing and consuming resume and no caller hangs", .timeLimit(.minutes(3)))
    func recoversFromBrokerSideClose() async throws {
        let name = "kiwi-test-recovery-\(UUID().uuidString.prefix(8))"
        let queue = uniqueQueue("recovery")
        // Both connections declare the queue, so whichever reconnects first recreates it.
        let topology = AMQPTopology(queues: [temporaryQueue(queue)])
        let publisher = AMQPPublisher(settings: try brokerSettings(name), topology: topology, logger: testLogger)
        let drops = Locked(0)
        let consumer = AMQPConsumer(
            settings: try brokerSettings(name),
            queue: queue,
            prefetch: 50,
            topology: topology,
            logger: testLogger,
            connectionLost: { error in if error != .shutDown { drops.withLock { $0 += 1 } } }
        )
        let received = Locked<Set<Int>>([])
        let failures = Locked(0)

        let confirmedAfterClose = try await whileRunning([publisher, consumer]) {
            try await withThrowingTaskGroup(of: Set<Int>.self) { group in
                group.addTask {
                    for await delivery in consumer.deliveries {
                        _ = received.withLock { $0.insert(Int(String(decoding: delivery.message.body, as: UTF8.self))!) }
                        try? await delivery.ack()
                    }
                    return []
                }
                group.addTask {
                    await publisher.waitUntilConnected()
                    await consumer.waitUntilConnected()
                    var confirmed: Set<Int> = []
                    for index in 0..<400 {
                        if index == 100 { try await closeConnectionsFromBroker(named: name) }
                        do {
                            try await publisher.publish(AMQPMessage(body: Array(String(index).utf8)), routingKey: queue)
                            if index >= 100 { confirmed.insert(index) }
                        } catch {
                            failures.withLock { $0 += 1 }
                            try await Task.sleep(for: .milliseconds(20))
                        }
                    }
                    // Every message confirmed after the close must reach the consumer.
                    let deadline = ContinuousClock.now + .seconds(20)
                    while ContinuousClock.now < deadline, !confirmed.isSubset(of: received.withLock { $0 }) {
                        try await Task.sleep(for: .milliseconds(50))
                    }
                    return confirmed
                }
                defer { group.cancelAll() }
                return try await group.next()!
            }
        }
        #expect(drops.withLock { $0 } == 1, "the broker did not close the consumer's connection")
        #expect(confirmedAfterClose.count > 100, "publishing did not resume: \(failures.withLock { $0 }) failures")
        #expect(confirmedAfterClose.isSubset(of: received.withLock { $0 }))
    }

    @Test("a connection idle for three heartbeat intervals stays open")
    func idleConnectionSurvivesHeartbeats() async throws {
        let queue = uniqueQueue("idle")
        let topology = AMQPTopology(queues: [temporaryQueue(queue)])
        let drops = Locked(0)
        let publisher = AMQPPublisher(settings: try brokerSettings(heartbeatSeconds: 1), topology: topology, logger: testLogger)
        let consumer = AMQPConsumer(
            settings: try brokerSettings(heartbeatSeconds: 1),
            queue: queue,
            prefetch: 1,
            topology: topology,
            logger: testLogger,
            connectionLost: { error in if error != .shutDown { drops.withLock { $0 += 1 } } }
        )
        let received = try await whileRunning([publisher, consumer]) {
            await publisher.waitUntilConnected()
            await consumer.waitUntilConnected()
            try await Task.sleep(for: .seconds(3.5))
            #expect(publisher.isConnected && consumer.isConnected)
            try await publisher.publish(AMQPMessage(body: [42]), routingKey: queue)
            return try await collect(1, from: consumer)
        }
        #expect(drops.withLock { $0 } == 0)
        #expect(received.first?.message.body == [42])
    }

}
