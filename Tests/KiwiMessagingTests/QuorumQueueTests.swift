import Foundation
import KiwiDevelopment
import KiwiMessaging
import KiwiTestSupport
import KiwiTopology
import Testing

/// Kiwi's job queues as the broker of `make test` runs them: quorum queues of one node, as in `make run`.
@Suite("Quorum job queues", .timeLimit(.minutes(1)))
struct QuorumQueueTests {
    /// A consumer of `queue`'s dead-letter queue, declaring `topology` as the job queue's users do.
    private func deadLetterConsumer(of queue: String, topology: AMQPTopology) throws -> AMQPConsumer {
        AMQPConsumer(
            settings: try brokerSettings(),
            queue: KiwiTopology.deadLetterQueue(of: queue),
            prefetch: 1,
            topology: topology,
            logger: testLogger
        )
    }

    @Test("a job returned to the queue more often than the delivery limit is dead-lettered instead of delivered again")
    func deliveryLimitDeadLetters() async throws {
        let queue = uniqueQueue("scan-jobs")
        let topology = KiwiTopology.scanJobs(queue: queue)
        let gateway = AMQPPublisher(settings: try brokerSettings(), topology: topology, logger: testLogger)
        let worker = AMQPConsumer(settings: try brokerSettings(), queue: queue, prefetch: 1, topology: topology, logger: testLogger)
        let graveyard = try deadLetterConsumer(of: queue, topology: topology)
        let (deliveries, dead) = try await whileRunning([gateway, worker, graveyard]) {
            await worker.waitUntilConnected()
            await graveyard.waitUntilConnected()
            try await gateway.publish(AMQPMessage(body: Array("a job".utf8)), routingKey: queue)
            // Each return counts, as when the worker holding the job loses its connection.
            var deliveries = 0
            while let delivery = try await collect(1, from: worker, timeout: .seconds(2), ack: false).first {
                deliveries += 1
                try await delivery.nack(requeue: true)
            }
            return (deliveries, try await collect(1, from: graveyard))
        }
        #expect(deliveries == KiwiTopology.jobDeliveryLimit + 1)
        #expect(dead.map(\.message.body) == [Array("a job".utf8)])
        #expect(dead.first?.message.properties.headers["x-first-death-reason"] == "delivery_limit")
    }

    @Test("a job no worker takes before its expiration is dead-lettered from the quorum queue")
    func expiredJobDeadLetters() async throws {
        let queue = uniqueQueue("scan-jobs")
        let topology = KiwiTopology.scanJobs(queue: queue)
        let gateway = AMQPPublisher(settings: try brokerSettings(), topology: topology, logger: testLogger)
        let graveyard = try deadLetterConsumer(of: queue, topology: topology)
        let dead = try await whileRunning([gateway, graveyard]) {
            await graveyard.waitUntilConnected()
            let job = AMQPMessage(body: Array("late".utf8), properties: AMQPProperties(expiration: .milliseconds(200)))
            try await gateway.publish(job, routingKey: queue)
            return try await collect(1, from: graveyard)
        }
        #expect(dead.map(\.message.body) == [Array("late".utf8)])
        #expect(dead.first?.message.properties.headers["x-first-death-reason"] == "expired")
    }
}

/// docs/operations.md §8, "Moving a running deployment to quorum queues", step by step against the test broker. Its
/// limit is that of the other tests that run `rabbitmqctl` (`infra.sh delete-queues`), which starts an Erlang VM each
/// time: with the whole suite running on 2 cores, the test once overran a limit of 1 minute.
@Suite("Moving a running deployment to quorum queues", .timeLimit(.minutes(3)))
struct QuorumMigrationTests {
    /// The job queues as Kiwi declared them before they were quorum queues.
    static func classicScanJobs(queue: String) -> AMQPTopology {
        let (exchange, deadLetters) = (KiwiTopology.deadLetterExchange(of: queue), KiwiTopology.deadLetterQueue(of: queue))
        return AMQPTopology(
            exchanges: [AMQPExchange(name: exchange, kind: .fanout)],
            queues: [
                AMQPQueue(name: deadLetters, messageTTL: .seconds(3600), maxLengthBytes: 64 * 1024 * 1024),
                AMQPQueue(name: queue, deadLetterExchange: exchange),
            ],
            bindings: [AMQPBinding(queue: deadLetters, exchange: exchange)]
        )
    }

    @Test("the classic queues refuse the new declaration, naming the runbook; drained, deleted and declared again they work")
    func drainSwitchStart() async throws {
        let queue = uniqueQueue("scan-jobs")
        let classic = Self.classicScanJobs(queue: queue)
        let jobs = (0..<3).map { Array("job \($0)".utf8) }
        // A running deployment of the earlier version: its gateway queued jobs no worker has taken yet.
        let oldGateway = AMQPPublisher(settings: try brokerSettings(), topology: classic, logger: testLogger)
        try await whileRunning([oldGateway]) {
            await oldGateway.waitUntilConnected()
            for job in jobs { try await oldGateway.publish(AMQPMessage(body: job), routingKey: queue) }
        }

        // The new version meets the classic queues: it stops, and says where the way out is written.
        let early = AMQPPublisher(settings: try brokerSettings(), topology: KiwiTopology.scanJobs(queue: queue), logger: testLogger)
        let refusal = await #expect(throws: AMQPError.self) { try await early.run() }
        #expect(refusal?.description.contains("inequivalent arg 'x-queue-type'") == true, "\(refusal.map { "\($0)" } ?? "")")
        #expect(refusal?.description.contains("docs/operations.md §8, \"Moving a running deployment to quorum queues\"") == true)

        // Drain: the gateways stopped, the earlier version's workers take every job left, until the queue is empty.
        let oldWorker = AMQPConsumer(settings: try brokerSettings(), queue: queue, prefetch: 10, topology: classic, logger: testLogger)
        let probe = AMQPPublisher(settings: try brokerSettings(), logger: testLogger)
        let (drained, left) = try await whileRunning([oldWorker, probe]) {
            let drained = try await collect(jobs.count, from: oldWorker).map(\.message.body)
            await probe.waitUntilConnected()
            return (drained, try await probe.readyMessageCount(of: queue))
        }
        #expect(drained == jobs)
        #expect(left == 0)

        // Switch: delete the classic job queue and its dead-letter queue.
        try await deleteQueuesFromBroker(named: queue)

        // Start: the new version declares its quorum queues, and jobs flow.
        let topology = KiwiTopology.scanJobs(queue: queue)
        let gateway = AMQPPublisher(settings: try brokerSettings(), topology: topology, logger: testLogger)
        let worker = AMQPConsumer(settings: try brokerSettings(), queue: queue, prefetch: 10, topology: topology, logger: testLogger)
        let received = try await whileRunning([gateway, worker]) {
            await gateway.waitUntilConnected()
            try await gateway.publish(AMQPMessage(body: Array("after the switch".utf8)), routingKey: queue)
            return try await collect(1, from: worker).map(\.message.body)
        }
        #expect(received == [Array("after the switch".utf8)])
    }
}
