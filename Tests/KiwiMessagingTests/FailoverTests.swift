import Foundation
import KiwiDevelopment
import KiwiMessaging
import KiwiTestSupport
import KiwiTopology
import Testing

/// A cluster of nodes, played by several ``FaultProxy``s in front of the one RabbitMQ of `make test`: each proxy is a
/// node to the client, and counts the connections it was given, so a test can tell which node a link chose.
@Suite("Failing over between a cluster's nodes", .timeLimit(.minutes(2)))
struct FailoverTests {
    /// Settings whose nodes are the test broker reached on 127.0.0.1 at each of `ports`, in that order.
    func settings(ports: [Int], name: String) throws -> AMQPSettings {
        let broker = try #require(URLComponents(string: try testAMQPURL()))
        let urls = try ports.map { port in
            var url = broker
            url.host = "127.0.0.1"
            url.port = port
            return try #require(url.string)
        }
        return try AMQPSettings(urls: urls, connectionName: name)
    }

    func startNodes(_ count: Int) async throws -> [FaultProxy] {
        let broker = try #require(URLComponents(string: try testAMQPURL()))
        var nodes: [FaultProxy] = []
        for _ in 0..<count { nodes.append(try await FaultProxy.start(forwardingTo: try #require(broker.host), port: broker.port ?? 5672)) }
        return nodes
    }

    /// Publishes `body` to `queue` until the broker confirms it (a link may still be reconnecting), then waits for the
    /// consumer to receive it, acknowledging what it can of whatever else arrives first.
    func roundTrip(_ body: String, to queue: String, publisher: AMQPPublisher, consumer: AMQPConsumer) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(15)
        while true {
            do {
                try await publisher.publish(AMQPMessage(body: Array(body.utf8)), routingKey: queue)
                break
            } catch {
                guard ContinuousClock.now < deadline else { throw error }
                try await Task.sleep(for: .milliseconds(50))
            }
        }
        while ContinuousClock.now < deadline {
            let received = try await collect(1, from: consumer, ack: false)
            // A delivery of the connection just lost cannot be acknowledged: the broker gives it again.
            for delivery in received { try? await delivery.ack() }
            if received.map(\.message.body) == [Array(body.utf8)] { return true }
        }
        return false
    }

    @Test("with the first node unreachable, a link connects to the next one")
    func skipsUnreachableFirstNode() async throws {
        let closedPort = try PortAllocator.shared.reserve()
        let node = try #require(try await startNodes(1).first)
        let name = "kiwi-test-failover-\(UUID().uuidString.prefix(8))"
        let queue = uniqueQueue("failover-first")
        let topology = AMQPTopology(queues: [AMQPQueue(name: queue)])
        let publisher = AMQPPublisher(settings: try settings(ports: [closedPort, node.port], name: name), topology: topology, logger: testLogger)
        let consumer = AMQPConsumer(settings: try brokerSettings(), queue: queue, prefetch: 10, topology: topology, logger: testLogger)
        let delivered = try await whileRunning([publisher, consumer]) {
            await consumer.waitUntilConnected()
            return try await roundTrip("first answering node", to: queue, publisher: publisher, consumer: consumer)
        }
        #expect(delivered)
        #expect(node.connectionsAccepted == 1)
        await node.stop()
    }

    @Test("on losing its connection, a link moves to the next node, and from the last back to the first; consuming and confirms resume")
    func movesToNextNodeOnLoss() async throws {
        let nodes = try await startNodes(2)
        let name = "kiwi-test-failover-\(UUID().uuidString.prefix(8))"
        let queue = uniqueQueue("failover-next")
        let topology = AMQPTopology(queues: [AMQPQueue(name: queue)])
        let cluster = try settings(ports: nodes.map(\.port), name: name)
        let publisher = AMQPPublisher(settings: cluster, topology: topology, logger: testLogger)
        let consumer = AMQPConsumer(settings: cluster, queue: queue, prefetch: 10, topology: topology, logger: testLogger)
        let (delivered, connections) = try await whileRunning([publisher, consumer]) {
            await publisher.waitUntilConnected()
            await consumer.waitUntilConnected()
            var delivered: [Bool] = []
            var connections: [[Int]] = []
            for (index, step) in ["before any loss", "after the first loss", "after the second loss"].enumerated() {
                // The node both links are on crashes: each loses its connection at once (the broker's own close,
                // through `rabbitmqctl`, takes seconds on a loaded machine; RecoveryTests covers it). Only that node:
                // resetting the other too could catch a link that had already moved to it.
                if index > 0 { nodes[(index - 1) % nodes.count].resetOpenConnections() }
                delivered.append(try await roundTrip(step, to: queue, publisher: publisher, consumer: consumer))
                connections.append(nodes.map(\.connectionsAccepted))
            }
            return (delivered, connections)
        }
        #expect(delivered == [true, true, true])
        // Both links, each time: first node, then the second, then the first again.
        #expect(connections == [[2, 0], [2, 2], [4, 2]])
        for node in nodes { await node.stop() }
    }

    @Test("a gateway's subscription to scan events, an exclusive queue, is declared again on the next node and receives")
    func subscriptionRecoversOnNextNode() async throws {
        let nodes = try await startNodes(2)
        let name = "kiwi-test-failover-\(UUID().uuidString.prefix(8))"
        let instance = UUID().uuidString.lowercased()
        let subscription = KiwiTopology.scanEventSubscription(instance: instance)
        let consumer = AMQPConsumer(
            settings: try settings(ports: nodes.map(\.port), name: name),
            queue: subscription.queue,
            prefetch: 0,
            autoAck: true,
            topology: subscription.topology,
            logger: testLogger
        )
        let announcer = AMQPPublisher(settings: try brokerSettings(), topology: KiwiTopology.scanEvents, logger: testLogger)
        let received = try await whileRunning([consumer, announcer]) {
            await consumer.waitUntilConnected()
            await announcer.waitUntilConnected()
            try await closeConnectionsFromBroker(named: name)
            // The exchange is the services' own: other tests' events may arrive too.
            let marker = Array("failover \(UUID().uuidString)".utf8)
            return try await keepSending(until: consumer, receives: marker, within: .seconds(15)) {
                let key = KiwiTopology.scanNewsKey(of: UUID(), startedBy: instance)
                try? await announcer.publish(AMQPMessage(body: marker), exchange: KiwiTopology.scanNewsExchange, routingKey: key, mandatory: false)
            }
        }
        #expect(received)
        #expect(nodes[1].connectionsAccepted >= 1, "the subscription never moved to the second node")
        for node in nodes { await node.stop() }
    }
}
