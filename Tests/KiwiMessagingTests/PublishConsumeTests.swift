import Foundation
import KiwiDevelopment
import KiwiMessaging
import KiwiTestSupport
import Testing

@Suite("Publishing and consuming")
struct PublishConsumeTests {
    @Test("a 2 MiB binary body and every property arrive intact")
    func roundTripsLargeBodyAndProperties() async throws {
        let queue = uniqueQueue("roundtrip")
        let topology = AMQPTopology(queues: [temporaryQueue(queue)])
        let publisher = AMQPPublisher(settings: try brokerSettings(), topology: topology, logger: testLogger)
        let consumer = AMQPConsumer(settings: try brokerSettings(), queue: queue, prefetch: 4, topology: topology, logger: testLogger)
        var generator = SystemRandomNumberGenerator()
        let body = (0..<(2 * 1024 * 1024)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let properties = AMQPProperties(
            contentType: "image/jpeg",
            correlationID: "job-1",
            replyTo: "kiwi.gateway.x.replies",
            expiration: .seconds(90),
            messageID: "m-1",
            type: "scan",
            timestamp: Date(timeIntervalSince1970: 1_770_681_600),
            persistent: false,
            headers: ["x-request-id": "r-123", "x-deadline": "2026-02-10T00:01:30Z", "x-user-key": "a1b2"]
        )

        let received = try await whileRunning([publisher, consumer]) {
            await consumer.waitUntilConnected()
            try await publisher.publish(AMQPMessage(body: body, properties: properties), routingKey: queue)
            return try await collect(1, from: consumer)
        }
        let delivery = try #require(received.first)
        #expect(delivery.message.body == body)
        #expect(delivery.message.properties == properties)
        #expect(!delivery.redelivered)
        #expect(delivery.routingKey == queue)
    }

    @Test("a mandatory message that no queue takes fails the publish as unroutable")
    func unroutableMandatoryFails() async throws {
        let publisher = AMQPPublisher(settings: try brokerSettings(), logger: testLogger)
        try await whileRunning([publisher]) {
            await publisher.waitUntilConnected()
            await #expect {
                try await publisher.publish(AMQPMessage(body: [1]), routingKey: uniqueQueue("missing"))
            } throws: { error in
                if case AMQPError.unroutable(let code, _) = error { code == 312 } else { false }
            }
            // The channel stays usable: the next publish to a real queue still succeeds.
            let queue = uniqueQueue("after-return")
            let consumer = AMQPConsumer(
                settings: try brokerSettings(),
                queue: queue,
                prefetch: 1,
                topology: AMQPTopology(queues: [temporaryQueue(queue)]),
                logger: testLogger
            )
            try await whileRunning([consumer]) {
                await consumer.waitUntilConnected()
                try await publisher.publish(AMQPMessage(body: [2]), routingKey: queue)
            }
        }
    }

    @Test("among concurrent publishes, exactly the unroutable ones fail, however the broker batches its confirms")
    func returnsNameTheirOwnPublish() async throws {
        let queue = uniqueQueue("mixed")
        let topology = AMQPTopology(queues: [temporaryQueue(queue)])
        let publisher = AMQPPublisher(settings: try brokerSettings(), topology: topology, logger: testLogger)
        let consumer = AMQPConsumer(
            settings: try brokerSettings(),
            queue: queue,
            prefetch: 500,
            autoAck: true,
            topology: topology,
            logger: testLogger
        )
        let outcomes = try await whileRunning([publisher, consumer]) {
            await consumer.waitUntilConnected()
            return try await withThrowingTaskGroup(of: (Int, Bool).self) { group in
                for index in 0..<400 {
                    group.addTask {
                        let routable = index % 3 != 0
                        do {
                            try await publisher.publish(AMQPMessage(body: [1]), routingKey: routable ? queue : uniqueQueue("nowhere"))
                            return (index, true)
                        } catch AMQPError.unroutable {
                            return (index, false)
                        }
                    }
                }
                return try await group.reduce(into: [Int: Bool]()) { $0[$1.0] = $1.1 }
            }
        }
        #expect(outcomes.count == 400)
        #expect(outcomes.allSatisfy { index, delivered in delivered == (index % 3 != 0) })
    }

    @Test("a message that cannot be encoded fails alone and the connection carries on")
    func invalidMessageFailsAlone() async throws {
        let queue = uniqueQueue("valid")
        let topology = AMQPTopology(queues: [temporaryQueue(queue)])
        let publisher = AMQPPublisher(settings: try brokerSettings(), topology: topology, logger: testLogger)
        let consumer = AMQPConsumer(settings: try brokerSettings(), queue: queue, prefetch: 1, topology: topology, logger: testLogger)
        let received = try await whileRunning([publisher, consumer]) {
            await consumer.waitUntilConnected()
            await #expect {
                try await publisher.publish(AMQPMessage(body: [1]), routingKey: String(repeating: "k", count: 300))
            } throws: { error in
                if case AMQPError.invalidMessage = error { true } else { false }
            }
            try await publisher.publish(AMQPMessage(body: [2]), routingKey: queue)
            return try await collect(1, from: consumer)
        }
        #expect(received.first?.message.body == [2])
    }

    @Test("10,000 confirmed messages are each consumed exactly once")
    func tenThousandExactlyOnce() async throws {
        let queue = uniqueQueue("bulk")
        let topology = AMQPTopology(queues: [temporaryQueue(queue)])
        let publisher = AMQPPublisher(settings: try brokerSettings(), topology: topology, logger: testLogger)
        let consumer = AMQPConsumer(settings: try brokerSettings(), queue: queue, prefetch: 500, topology: topology, logger: testLogger)
        let count = 10_000
        let received = try await whileRunning([publisher, consumer]) {
            await consumer.waitUntilConnected()
            // Consumed while they are published, as a worker would: acknowledging 10,000 one by one only after the
            // last publish took over a minute once, in a debug build on two cores the whole suite shared. The bound
            // only says when to give up on a broken link; a healthy run takes seconds.
            async let consumed = collect(count, from: consumer, timeout: .seconds(240))
            try await withThrowingDiscardingTaskGroup { group in
                for worker in 0..<50 {
                    group.addTask {
                        for index in stride(from: worker, to: count, by: 50) {
                            try await publisher.publish(AMQPMessage(body: Array(String(index).utf8)), routingKey: queue)
                        }
                    }
                }
            }
            return try await consumed
        }
        let numbers = received.map { Int(String(decoding: $0.message.body, as: UTF8.self))! }
        #expect(numbers.count == count)
        #expect(Set(numbers) == Set(0..<count))
    }
}
