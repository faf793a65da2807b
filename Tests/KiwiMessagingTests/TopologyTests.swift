import Foundation
import KiwiDevelopment
import KiwiMessaging
import KiwiTestSupport
import KiwiTopology
import Testing

@Suite("Kiwi's topology")
struct TopologyTests {
    @Test(
        "the job queue, dead-letter queue, revocation exchange and a gateway's queues declare idempotently from several connections",
        .timeLimit(.minutes(1))
    )
    func declaresIdempotently() async throws {
        let instance = UUID().uuidString.lowercased()
        let shared = KiwiTopology.scanJobs().merging(KiwiTopology.revocations)
        let subscription = KiwiTopology.revocationSubscription(instance: instance)
        let first = AMQPPublisher(settings: try brokerSettings(), topology: shared, logger: testLogger)
        let second = AMQPPublisher(settings: try brokerSettings(), topology: shared, logger: testLogger)
        let revocations = AMQPConsumer(
            settings: try brokerSettings(),
            queue: subscription.queue,
            prefetch: 1,
            topology: subscription.topology,
            logger: testLogger
        )
        let scanEventSubscription = KiwiTopology.scanEventSubscription(instance: instance)
        let scanEvents = AMQPConsumer(
            settings: try brokerSettings(),
            queue: scanEventSubscription.queue,
            prefetch: 0,
            autoAck: true,
            topology: scanEventSubscription.topology,
            logger: testLogger
        )
        let connected = try await whileRunning([first, second, revocations, scanEvents]) {
            for service in [first.waitUntilConnected, second.waitUntilConnected, revocations.waitUntilConnected, scanEvents.waitUntilConnected] {
                await service()
            }
            return first.isConnected && second.isConnected && revocations.isConnected && scanEvents.isConnected
        }
        #expect(connected)
    }

    @Test("a revocation published to the exchange reaches every gateway's subscription", .timeLimit(.minutes(1)))
    func revocationsFanOut() async throws {
        let subscriptions = (0..<2).map { _ in KiwiTopology.revocationSubscription(instance: UUID().uuidString.lowercased()) }
        let gateways = try subscriptions.map { subscription in
            AMQPConsumer(
                settings: try brokerSettings(),
                queue: subscription.queue,
                prefetch: 1,
                autoAck: true,
                topology: subscription.topology,
                logger: testLogger
            )
        }
        let auth = AMQPPublisher(settings: try brokerSettings(), topology: KiwiTopology.revocations, logger: testLogger)
        let revocation = Array("revoked \(UUID().uuidString)".utf8)
        let reached = try await whileRunning(gateways + [auth]) {
            for gateway in gateways { await gateway.waitUntilConnected() }
            try await auth.publish(AMQPMessage(body: revocation), exchange: KiwiTopology.revocationExchange, routingKey: "")
            // The exchange is the services' own, so the sign-outs of tests running beside this one may arrive too: this
            // revocation is looked for among them, until 10 s pass with nothing more.
            var reached: [Bool] = []
            for gateway in gateways {
                var bodies: [[UInt8]]
                repeat {
                    bodies = try await collect(1, from: gateway, ack: false).map(\.message.body)
                } while !bodies.isEmpty && bodies != [revocation]
                reached.append(bodies == [revocation])
            }
            return reached
        }
        #expect(reached == [true, true])
    }

    @Test("a scan's news reaches the gateway that started it, and another gateway only once it binds the scan", .timeLimit(.minutes(1)))
    func scanNewsReachesItsGateways() async throws {
        let (starter, watcher) = (UUID().uuidString.lowercased(), UUID().uuidString.lowercased())
        let (a, b) = (try Self.subscriber(starter), try Self.subscriber(watcher))
        let worker = AMQPPublisher(settings: try brokerSettings(), topology: KiwiTopology.scanEvents, logger: testLogger)
        let scan = UUID()
        let heard = try await whileRunning([a, b, worker]) {
            for service in [a.waitUntilConnected, b.waitUntilConnected, worker.waitUntilConnected] { await service() }
            let first = try await Self.announce("first", of: scan, startedBy: starter, with: worker)
            // Sent after the news from the same channel: it reaches the watcher after the news, had the news reached it.
            let marker = try await Self.announce("marker", of: UUID(), startedBy: watcher, with: worker)
            let starterHeard = try await Self.received(first, by: a).contains(first)
            let watcherBefore = try await Self.received(marker, by: b)
            await b.bind(KiwiTopology.scanNewsBinding(of: scan, instance: watcher))
            let second = try await Self.announce("second", of: scan, startedBy: starter, with: worker)
            return (
                starter: starterHeard,
                watcherBefore: watcherBefore.last == marker && !watcherBefore.contains(first),
                watcherAfter: try await Self.received(second, by: b).contains(second)
            )
        }
        #expect(heard.starter)
        #expect(heard.watcherBefore, "the watcher heard the scan's news before it bound it")
        #expect(heard.watcherAfter)
    }

    @Test("news a gateway sends for every gateway reaches each gateway's subscription", .timeLimit(.minutes(1)))
    func newsForEveryGatewayReachesEach() async throws {
        let gateways = try (0..<2).map { _ in try Self.subscriber(UUID().uuidString.lowercased()) }
        let sender = AMQPPublisher(settings: try brokerSettings(), topology: KiwiTopology.scanEvents, logger: testLogger)
        let heard = try await whileRunning(gateways + [sender]) {
            for gateway in gateways { await gateway.waitUntilConnected() }
            await sender.waitUntilConnected()
            let news = try await Self.announce("cancelled", of: UUID(), startedBy: nil, with: sender)
            var heard: [Bool] = []
            for gateway in gateways { heard.append(try await Self.received(news, by: gateway).contains(news)) }
            return heard
        }
        #expect(heard == [true, true])
    }

    @Test("a gateway of the release before, on the fan-out exchange, still hears every scan's news", .timeLimit(.minutes(1)))
    func previousReleaseHearsEveryScan() async throws {
        let queue = "kiwi.gateway.\(UUID().uuidString.lowercased()).scan-events"
        let previous = AMQPConsumer(
            settings: try brokerSettings(),
            queue: queue,
            prefetch: 0,
            autoAck: true,
            topology: AMQPTopology(
                exchanges: [AMQPExchange(name: KiwiTopology.scanEventExchange, kind: .fanout)],
                queues: [AMQPQueue(name: queue, durable: false, exclusive: true, autoDelete: true)],
                bindings: [AMQPBinding(queue: queue, exchange: KiwiTopology.scanEventExchange)]
            ),
            logger: testLogger
        )
        let worker = AMQPPublisher(settings: try brokerSettings(), topology: KiwiTopology.scanEvents, logger: testLogger)
        let heard = try await whileRunning([previous, worker]) {
            await previous.waitUntilConnected()
            await worker.waitUntilConnected()
            let news = try await Self.announce("news", of: UUID(), startedBy: UUID().uuidString.lowercased(), with: worker)
            return try await Self.received(news, by: previous).contains(news)
        }
        #expect(heard)
    }

    /// A gateway's subscription to scan events, as `instance`.
    private static func subscriber(_ instance: String) throws -> AMQPConsumer {
        let subscription = KiwiTopology.scanEventSubscription(instance: instance)
        return AMQPConsumer(
            settings: try brokerSettings(),
            queue: subscription.queue,
            prefetch: 0,
            autoAck: true,
            topology: subscription.topology,
            logger: testLogger
        )
    }

    /// Publishes news of `scan` as a worker does, its body `text` and a unique suffix; returns the body.
    private static func announce(_ text: String, of scan: UUID, startedBy gateway: String?, with publisher: AMQPPublisher) async throws -> [UInt8] {
        let body = Array("\(text) \(UUID().uuidString)".utf8)
        let key = KiwiTopology.scanNewsKey(of: scan, startedBy: gateway)
        try await publisher.publish(AMQPMessage(body: body), exchange: KiwiTopology.scanNewsExchange, routingKey: key, mandatory: false)
        return body
    }

    /// What `consumer` receives up to `body` (the news other tests send to every gateway may come too), or in 10 s.
    private static func received(_ body: [UInt8], by consumer: AMQPConsumer) async throws -> [[UInt8]] {
        var received: [[UInt8]] = []
        repeat {
            guard let next = try await collect(1, from: consumer, ack: false).first else { return received }
            received.append(next.message.body)
        } while received.last != body
        return received
    }

    @Test("the job queue and its dead-letter queue are quorum queues, and the job queue limits redeliveries")
    func jobQueuesAreQuorumQueues() {
        let queues = KiwiTopology.scanJobs().queues
        #expect(queues.map(\.kind) == [.quorum, .quorum])
        #expect(queues.allSatisfy { $0.durable && !$0.exclusive && !$0.autoDelete })
        #expect(queues.first { $0.name == KiwiTopology.scanJobQueue }?.deliveryLimit == KiwiTopology.jobDeliveryLimit)
    }

    @Test("a gateway's subscription queues stay classic, exclusive and auto-delete")
    func subscriptionsStayClassic() {
        for subscription in [KiwiTopology.scanEventSubscription(instance: "a"), KiwiTopology.revocationSubscription(instance: "a")] {
            #expect(subscription.topology.queues.map(\.kind) == [.classic])
            #expect(subscription.topology.queues.allSatisfy { $0.exclusive && $0.autoDelete && !$0.durable })
        }
    }

    @Test("the job queue is durable and dead-letters to a queue that keeps poison jobs")
    func jobQueueDeadLetters() throws {
        let topology = KiwiTopology.scanJobs()
        let jobs = try #require(topology.queues.first { $0.name == KiwiTopology.scanJobQueue })
        #expect(jobs.durable)
        #expect(jobs.deadLetterExchange == KiwiTopology.deadLetterExchange())
        #expect(topology.bindings.contains(AMQPBinding(queue: KiwiTopology.deadLetterQueue(), exchange: KiwiTopology.deadLetterExchange())))
    }

    @Test("dead-lettered jobs, which still carry a photo, are kept for an hour and 64 MiB at most")
    func deadLettersExpire() throws {
        let deadLetters = try #require(KiwiTopology.scanJobs().queues.first { $0.name == KiwiTopology.deadLetterQueue() })
        #expect(deadLetters.messageTTL == .seconds(3600))
        #expect(deadLetters.maxLengthBytes == 64 * 1024 * 1024)
    }
}
