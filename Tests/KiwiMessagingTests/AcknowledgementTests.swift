import Foundation
import KiwiDevelopment
import KiwiMessaging
import KiwiTestSupport
import Synchronization
import Testing

@Suite("Acknowledgements")
struct AcknowledgementTests {
    @Test("a delivery whose body was discarded keeps its properties, every copy sees the empty body, and it can still be acknowledged")
    func discardedBodyStillSettles() async throws {
        let queue = uniqueQueue("discard")
        let topology = AMQPTopology(queues: [temporaryQueue(queue)])
        let publisher = AMQPPublisher(settings: try brokerSettings(), topology: topology, logger: testLogger)
        let consumer = AMQPConsumer(settings: try brokerSettings(), queue: queue, prefetch: 1, topology: topology, logger: testLogger)
        try await whileRunning([publisher, consumer]) {
            await consumer.waitUntilConnected()
            try await publisher.publish(
                AMQPMessage(body: Array(repeating: 7, count: 1 << 20), properties: AMQPProperties(correlationID: "job-1", replyTo: "answers")),
                routingKey: queue
            )
            let delivery = try #require(try await collect(1, from: consumer, ack: false).first)
            let copy = delivery
            #expect(delivery.message.body.count == 1 << 20)
            delivery.discardBody()
            #expect(copy.message.body.isEmpty)
            #expect(copy.message.properties.correlationID == "job-1" && copy.message.properties.replyTo == "answers")
            try await copy.ack()
        }
    }

    @Test("a consumer never holds more unacknowledged deliveries than its prefetch")
    func prefetchBoundsUnacknowledged() async throws {
        let queue = uniqueQueue("prefetch")
        let topology = AMQPTopology(queues: [temporaryQueue(queue)])
        let publisher = AMQPPublisher(settings: try brokerSettings(), topology: topology, logger: testLogger)
        let consumer = AMQPConsumer(settings: try brokerSettings(), queue: queue, prefetch: 5, topology: topology, logger: testLogger)
        let held = Locked<[AMQPDelivery]>([])
        let counts = try await whileRunning([publisher, consumer]) {
            try await withThrowingTaskGroup(of: [Int].self) { group in
                group.addTask {
                    for await delivery in consumer.deliveries { held.withLock { $0.append(delivery) } }
                    return []
                }
                group.addTask {
                    await consumer.waitUntilConnected()
                    for index in 0..<12 { try await publisher.publish(AMQPMessage(body: [UInt8(index)]), routingKey: queue) }
                    var counts: [Int] = []
                    for expected in [5, 5, 2] {
                        // Wait for what should come, then give the broker time to send more than it should.
                        let deadline = ContinuousClock.now + .seconds(15)
                        while held.withLock({ $0.count }) < expected, ContinuousClock.now < deadline {
                            try await Task.sleep(for: .milliseconds(20))
                        }
                        try await Task.sleep(for: .milliseconds(500))
                        let unacknowledged = held.withLock { held in
                            defer { held = [] }
                            return held
                        }
                        counts.append(unacknowledged.count)
                        for delivery in unacknowledged { try await delivery.ack() }
                    }
                    return counts
                }
                defer { group.cancelAll() }
                return try await group.next()!
            }
        }
        #expect(counts == [5, 5, 2])
    }

    @Test("a nack with requeue brings the message back flagged as redelivered")
    func nackRequeueRedelivers() async throws {
        let queue = uniqueQueue("requeue")
        let topology = AMQPTopology(queues: [temporaryQueue(queue)])
        let publisher = AMQPPublisher(settings: try brokerSettings(), topology: topology, logger: testLogger)
        let consumer = AMQPConsumer(settings: try brokerSettings(), queue: queue, prefetch: 1, topology: topology, logger: testLogger)
        let (first, second) = try await whileRunning([publisher, consumer]) {
            await consumer.waitUntilConnected()
            try await publisher.publish(AMQPMessage(body: Array("again".utf8)), routingKey: queue)
            let first = try #require(try await collect(1, from: consumer, ack: false).first)
            try await first.nack(requeue: true)
            let second = try #require(try await collect(1, from: consumer).first)
            return (first, second)
        }
        #expect(!first.redelivered)
        #expect(second.redelivered)
        #expect(second.message.body == Array("again".utf8))
    }

    @Test("a rejected message goes to the dead-letter queue, not back to its queue")
    func rejectDeadLetters() async throws {
        let queue = uniqueQueue("poison")
        let deadLetterExchange = uniqueQueue("dlx")
        let deadLetterQueue = uniqueQueue("dead")
        let topology = AMQPTopology(
            exchanges: [AMQPExchange(name: deadLetterExchange, kind: .fanout, durable: false)],
            queues: [temporaryQueue(queue, deadLetterExchange: deadLetterExchange), temporaryQueue(deadLetterQueue)],
            bindings: [AMQPBinding(queue: deadLetterQueue, exchange: deadLetterExchange)]
        )
        let publisher = AMQPPublisher(settings: try brokerSettings(), topology: topology, logger: testLogger)
        let consumer = AMQPConsumer(settings: try brokerSettings(), queue: queue, prefetch: 1, topology: topology, logger: testLogger)
        let graveyard = AMQPConsumer(settings: try brokerSettings(), queue: deadLetterQueue, prefetch: 1, topology: topology, logger: testLogger)
        let (dead, again) = try await whileRunning([publisher, consumer, graveyard]) {
            await consumer.waitUntilConnected()
            await graveyard.waitUntilConnected()
            try await publisher.publish(AMQPMessage(body: Array("poison".utf8)), routingKey: queue)
            try await #require(try await collect(1, from: consumer, ack: false).first).reject()
            let dead = try await collect(1, from: graveyard)
            let again = try await collect(1, from: consumer, timeout: .milliseconds(500))
            return (dead, again)
        }
        #expect(dead.first?.message.body == Array("poison".utf8))
        #expect(again.isEmpty)
    }

    @Test(
        "a consumer that stops consuming still settles what it holds, its deliveries end, and new messages go to others",
        .timeLimit(.minutes(1))
    )
    func stopConsumingKeepsSettling() async throws {
        let queue = uniqueQueue("stop")
        // Not auto-delete: the queue must outlive the stopped consumer, whose messages are still unacknowledged.
        let topology = AMQPTopology(queues: [AMQPQueue(name: queue, durable: false)])
        let publisher = AMQPPublisher(settings: try brokerSettings(), topology: topology, logger: testLogger)
        let stopping = AMQPConsumer(settings: try brokerSettings(), queue: queue, prefetch: 2, topology: topology, logger: testLogger)
        let successor = AMQPConsumer(settings: try brokerSettings(), queue: queue, prefetch: 2, topology: topology, logger: testLogger)
        let (held, later) = try await whileRunning([publisher, stopping]) {
            await stopping.waitUntilConnected()
            for index in 0..<2 { try await publisher.publish(AMQPMessage(body: [UInt8(index)]), routingKey: queue) }
            var held: [AMQPDelivery] = []
            for await delivery in stopping.deliveries {
                held.append(delivery)
                if held.count == 2 { stopping.stopConsuming() }
            }
            // The stream ended after the cancel; the connection is still there to settle on.
            for delivery in held { try await delivery.ack() }
            try await publisher.publish(AMQPMessage(body: [2]), routingKey: queue)
            let later = try await whileRunning([successor]) { try await collect(1, from: successor) }
            return (held.map(\.message.body), later.map(\.message.body))
        }
        #expect(held == [[0], [1]])
        #expect(later == [[2]])
    }
}
