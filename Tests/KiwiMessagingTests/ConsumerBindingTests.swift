import Foundation
import KiwiConcurrency
import KiwiDevelopment
import KiwiMessaging
import KiwiTestSupport
import Synchronization
import Testing

/// Bindings a consumer adds while it consumes (``AMQPConsumer/bind(_:)``): how a gateway hears a scan another started.
@Suite("Messaging: bindings added while consuming", .timeLimit(.minutes(2)))
struct ConsumerBindingTests {
    let exchange = "kiwi.test.bindings.\(UUID().uuidString.lowercased())"
    let queue = uniqueQueue("bindings")
    let name = "kiwi-test-bindings-\(UUID().uuidString.prefix(8))"

    /// The consumer's queue, exclusive as a gateway's subscription is, bound for `marker` from the start.
    private var topology: AMQPTopology {
        AMQPTopology(
            exchanges: [AMQPExchange(name: exchange, kind: .topic, durable: false)],
            queues: [AMQPQueue(name: queue, durable: false, exclusive: true, autoDelete: true)],
            bindings: [AMQPBinding(queue: queue, exchange: exchange, routingKey: "marker")]
        )
    }

    private var news: AMQPBinding { AMQPBinding(queue: queue, exchange: exchange, routingKey: "news") }

    @Test("a binding added while consuming brings the messages it matches, and none once it is removed")
    func addedBindingRoutesUntilRemoved() async throws {
        let (bound, unbound) = try await withConsumer { consumer, publisher in
            await consumer.bind(news)
            let bound = try await heardNews(consumer, publisher)
            consumer.unbind(news)
            return (bound, try await heardNews(consumer, publisher))
        }
        #expect(bound)
        #expect(unbound == false)
    }

    @Test("a binding asked for twice stays until it is given up twice")
    func bindingIsCountedByItsAsks() async throws {
        let (once, twice) = try await withConsumer { consumer, publisher in
            await consumer.bind(news)
            await consumer.bind(news)
            consumer.unbind(news)
            let once = try await heardNews(consumer, publisher)
            consumer.unbind(news)
            return (once, try await heardNews(consumer, publisher))
        }
        #expect(once)
        #expect(twice == false)
    }

    @Test("a binding added while consuming is bound again on the connection that replaces a lost one")
    func addedBindingSurvivesReconnection() async throws {
        let lost = AsyncStream.makeStream(of: Void.self)
        let heard = try await withConsumer(tellingLossTo: lost.continuation) { consumer, publisher in
            await consumer.bind(news)
            try await closeConnectionsFromBroker(named: name)
            // rabbitmqctl starts an Erlang node of its own: seconds on a busy machine, never half a minute.
            try await withDeadline(.now + .seconds(30)) { for await _ in lost.stream { break } }
            // The first connection, and its exclusive queue, are gone: only the next one's queue, bound anew, can take
            // news sent from now on.
            return try await keepSending(until: consumer, receives: Array("news".utf8), within: .seconds(20)) {
                try await publish(["news"], with: publisher)
            }
        }
        #expect(heard)
    }

    /// Runs `body` with a consumer of the test's queue, as the connection `name`, and a publisher to its exchange, both
    /// connected; each loss of the consumer's connection is told to `losses`.
    private func withConsumer<Result: Sendable>(
        tellingLossTo losses: AsyncStream<Void>.Continuation? = nil,
        _ body: @escaping @Sendable (AMQPConsumer, AMQPPublisher) async throws -> Result
    ) async throws -> Result {
        let consumer = AMQPConsumer(
            settings: try brokerSettings(name),
            queue: queue,
            prefetch: 0,
            autoAck: true,
            topology: topology,
            logger: testLogger,
            connectionLost: { _ in losses?.yield() }
        )
        let publisher = AMQPPublisher(settings: try brokerSettings(), topology: AMQPTopology(exchanges: topology.exchanges), logger: testLogger)
        return try await whileRunning([consumer, publisher]) {
            await consumer.waitUntilConnected()
            await publisher.waitUntilConnected()
            return try await body(consumer, publisher)
        }
    }

    /// Whether news published now reaches `consumer`: the news then a marker, from one channel, after a bind of another
    /// key (the link runs its commands in order, so any unbind before it is done).
    private func heardNews(_ consumer: AMQPConsumer, _ publisher: AMQPPublisher) async throws -> Bool {
        await consumer.bind(AMQPBinding(queue: queue, exchange: exchange, routingKey: "barrier"))
        try await publish(["news", "marker"], with: publisher)
        var heard = false
        while let delivery = try await collect(1, from: consumer, ack: false).first {
            if delivery.message.text == "news" { heard = true }
            if delivery.message.text == "marker" { break }
        }
        return heard
    }

    /// Publishes one message per routing key, its body the key, in order from one channel.
    private func publish(_ keys: [String], with publisher: AMQPPublisher) async throws {
        for key in keys {
            try await publisher.publish(AMQPMessage(body: Array(key.utf8)), exchange: exchange, routingKey: key, mandatory: false)
        }
    }
}

extension AMQPMessage {
    /// The body as UTF-8 text.
    fileprivate var text: String { String(decoding: body, as: UTF8.self) }
}
