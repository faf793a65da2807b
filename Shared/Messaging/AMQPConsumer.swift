import CoreMetrics
import Foundation
import Logging
import ServiceLifecycle
import Synchronization

/// A message received from a queue. Unless the consumer acknowledges automatically, settle each delivery
/// exactly once with ``ack()``, ``nack(requeue:)`` or ``reject()``.
public struct AMQPDelivery: Sendable {
    /// The message as received; its body is empty once ``discardBody()`` has been called.
    public var message: AMQPMessage { content.message }
    /// The broker's number for this delivery on its connection.
    public let deliveryTag: UInt64
    /// True when the broker delivered this message before (to a consumer that did not acknowledge it).
    public let redelivered: Bool
    public let exchange: String
    public let routingKey: String
    let generation: UInt64
    let link: AMQPLink
    /// Shared by every copy of the delivery, so that ``discardBody()`` frees the body whoever still holds one.
    private let content: DeliveredMessage

    init(message: AMQPMessage, deliveryTag: UInt64, redelivered: Bool, exchange: String, routingKey: String, generation: UInt64, link: AMQPLink) {
        self.content = DeliveredMessage(message)
        (self.deliveryTag, self.redelivered, self.exchange, self.routingKey, self.generation, self.link) =
            (deliveryTag, redelivered, exchange, routingKey, generation, link)
    }

    /// Frees the message body once it has been read, while the delivery still waits to be settled and answered:
    /// a consumer that holds many large messages for long (photos waiting on a model) need not keep their bytes.
    public func discardBody() {
        content.discardBody()
    }

    /// The message is done with: the broker forgets it.
    public func ack() async throws {
        try await settle { channel, tag throws(AMQPError) in try channel.ack(tag) }
    }

    /// The message was not handled; with `requeue` the broker delivers it again (flagged as redelivered),
    /// otherwise it goes to the queue's dead-letter exchange, if any.
    public func nack(requeue: Bool) async throws {
        try await settle { channel, tag throws(AMQPError) in try channel.nack(tag, requeue: requeue) }
    }

    /// The message is poison: it goes to the queue's dead-letter exchange (or is dropped) and is never redelivered.
    public func reject() async throws {
        try await settle { channel, tag throws(AMQPError) in try channel.reject(tag, requeue: false) }
    }

    /// Settles on the connection that delivered the message. After a reconnect that connection is gone and
    /// the broker has already requeued the message, so settling fails with ``AMQPError/connectionLost(_:)``.
    private func settle(_ action: @escaping @Sendable (AMQPChannel, UInt64) throws(AMQPError) -> Void) async throws {
        let (generation, tag) = (self.generation, deliveryTag)
        let outcome: Result<Void, AMQPError> = try await link.perform { channel throws(AMQPError) in
            guard channel.generation == generation else { return .failure(.connectionLost("the delivery's connection is gone")) }
            try action(channel, tag)
            return .success(())
        }
        try outcome.get()
    }
}

/// Consumes one queue: its deliveries arrive as an `AsyncSequence`, at most `prefetch` unacknowledged at once.
///
/// The connection is its own (a blocking consume never stalls publishing) and recovers by itself: after a
/// drop it reconnects, redeclares its topology, re-applies the prefetch and consumes again. Deliveries that
/// were unacknowledged at the drop are redelivered by the broker, flagged as such.
public final class AMQPConsumer: Service, Sendable {
    /// Every delivery, in order. Finishes when the consumer shuts down or stops consuming. Iterate it from one task only.
    public let deliveries: AsyncStream<AMQPDelivery>
    private let continuation: AsyncStream<AMQPDelivery>.Continuation
    private let link: AMQPLink
    private let tag = "kiwi-\(UUID().uuidString.lowercased())"
    private let isStopped = StopFlag()
    private let added = AddedBindings()

    /// - Parameters:
    ///   - queue: The queue to consume; `topology` (declared on every connect) usually declares it.
    ///   - prefetch: The most unacknowledged deliveries at once (ignored with `autoAck`).
    ///   - autoAck: The broker counts a message delivered as soon as it sends it; no settling needed.
    ///   - connectionLost: Called when the connection drops (or the consumer stops), before reconnecting.
    ///   - consuming: Called each time a connection is set up and consuming, its bindings all declared: messages routed
    ///     while there was none are lost, unless the queue outlived the connection.
    public init(
        settings: AMQPSettings,
        queue: String,
        prefetch: Int,
        autoAck: Bool = false,
        topology: AMQPTopology = AMQPTopology(),
        logger: Logger,
        connectionLost: @escaping @Sendable (AMQPError) -> Void = { _ in },
        consuming: @escaping @Sendable () -> Void = {}
    ) {
        let (stream, continuation) = AsyncStream.makeStream(of: AMQPDelivery.self)
        deliveries = stream
        self.continuation = continuation
        let reference = LinkReference()
        let metrics = AMQPMetrics(connection: settings.connectionName)
        let (tag, isStopped, added) = (self.tag, self.isStopped, self.added)
        self.link = AMQPLink(
            settings: settings,
            role: AMQPLink.Role(
                setUp: { channel throws(AMQPError) in
                    try channel.declare(topology)
                    for binding in added.current { try channel.bind(binding) }
                    guard !isStopped.value else { return }
                    try channel.consume(queue, tag: tag, prefetch: autoAck ? nil : prefetch, autoAck: autoAck)
                    consuming()
                },
                handle: { channel, method throws(AMQPError) in
                    switch method {
                    case .delivered(let deliveryTag, let redelivered, let exchange, let routingKey):
                        guard let owner = reference.value else { return }
                        metrics.deliveries.increment()
                        if redelivered { metrics.redeliveries.increment() }
                        var message = try channel.readContent()
                        message.properties.headers[ConfirmTracker.sequenceHeader] = nil
                        if isStopped.value {
                            // Sent before the broker processed our cancel: it goes back to the queue for another consumer.
                            if !autoAck { try channel.nack(deliveryTag, requeue: true) }
                            return
                        }
                        continuation.yield(
                            AMQPDelivery(
                                message: message,
                                deliveryTag: deliveryTag,
                                redelivered: redelivered,
                                exchange: exchange,
                                routingKey: routingKey,
                                generation: channel.generation,
                                link: owner
                            )
                        )
                    case .consumerCancelled:
                        // The queue was deleted under us: reconnecting declares it again.
                        throw AMQPError.brokerClosed(code: 0, text: "the broker cancelled the consumer of \(queue)")
                    default:
                        break
                    }
                },
                connectionLost: { error in
                    connectionLost(error)
                    if error == .shutDown { continuation.finish() }
                }
            ),
            metrics: metrics,
            logger: logger
        )
        reference.value = self.link
    }

    /// True while connected and consuming: part of the service's readiness.
    public var isConnected: Bool { link.isConnected }

    /// Returns once consuming (or shut down).
    public func waitUntilConnected() async {
        await link.waitUntilConnected()
    }

    /// Adds `binding` (of the consumed queue, usually exclusive to this connection) until as many ``unbind(_:)`` calls
    /// as there were binds, and declares it again on every reconnect. Returns once the broker has bound it, or once the
    /// link finds no connection: the next one binds it, and then calls `consuming`.
    public func bind(_ binding: AMQPBinding) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            // Under the lock, so that the link runs binds and unbinds in the order of the counts' changes.
            added.retain(binding) { first in
                link.submit { channel throws(AMQPError) in
                    defer { continuation.resume() }
                    // Bound already, or its bind is ahead in the link's queue of commands: then this only waits for it.
                    if first { try channel?.bind(binding) }
                }
            }
        }
    }

    /// Undoes one ``bind(_:)``; the last one removes the binding, without waiting for the broker.
    public func unbind(_ binding: AMQPBinding) {
        added.release(binding) {
            link.submit { channel throws(AMQPError) in try channel?.unbind(binding) }
        }
    }

    /// Stops taking deliveries but keeps the connection, so the ones already received can still be settled
    /// (a service that shuts down gracefully finishes its work first). ``deliveries`` finishes once the broker
    /// has cancelled the consumer; anything it sent meanwhile goes straight back to the queue.
    public func stopConsuming() {
        guard isStopped.set() else { return }
        link.submit { [tag, continuation] channel throws(AMQPError) in
            defer { continuation.finish() }
            try channel?.cancel(tag)
        }
    }

    /// Runs the connection until graceful shutdown; ``deliveries`` then finishes. Throws
    /// ``AMQPError/declarationRefused(_:)`` when the broker refuses the topology, which no reconnection can fix.
    public func run() async throws {
        try await link.run()
    }
}

/// A delivery's message, shared by the delivery's copies.
private final class DeliveredMessage: Sendable {
    private let state: Mutex<AMQPMessage>

    init(_ message: AMQPMessage) {
        state = Mutex(message)
    }

    var message: AMQPMessage { state.withLock { $0 } }

    func discardBody() {
        state.withLock { $0.body = [] }
    }
}

/// The bindings a consumer added (``AMQPConsumer/bind(_:)``), each with how many asked for it.
private final class AddedBindings: Sendable {
    private let counts = Mutex<[AMQPBinding: Int]>([:])

    /// Every binding to declare on a new connection.
    var current: [AMQPBinding] { counts.withLock { Array($0.keys) } }

    /// Counts one more ask for `binding`, then calls `submit` under the lock with whether it is the first.
    func retain(_ binding: AMQPBinding, submit: (_ first: Bool) -> Void) {
        counts.withLock { counts in
            counts[binding, default: 0] += 1
            submit(counts[binding] == 1)
        }
    }

    /// Counts one ask for `binding` less, and calls `submitLast` under the lock when it was the last.
    func release(_ binding: AMQPBinding, submitLast: () -> Void) {
        counts.withLock { counts in
            guard let count = counts[binding] else { return }
            counts[binding] = count > 1 ? count - 1 : nil
            if count == 1 { submitLast() }
        }
    }
}

/// Whether a consumer was asked to stop consuming; read on the link's thread.
private final class StopFlag: Sendable {
    private let flag = Atomic(false)

    var value: Bool { flag.load(ordering: .acquiring) }

    /// Sets the flag; true the first time only.
    func set() -> Bool {
        !flag.exchange(true, ordering: .acquiringAndReleasing)
    }
}

/// Lets the link's role closures, created before the link exists, hand the link to deliveries.
///
/// `@unchecked Sendable`: written once in the consumer's initialiser, before the link's thread starts,
/// and only read afterwards, on that thread. Weak, because the link owns the closures that hold it.
private final class LinkReference: @unchecked Sendable {
    weak var value: AMQPLink?
}
