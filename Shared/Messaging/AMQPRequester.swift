import Foundation
import KiwiConcurrency
import Logging
import ServiceLifecycle
import Synchronization

/// Request/reply over RabbitMQ: publishes a request with a fresh correlation id and this instance's reply
/// queue, then waits for the reply with the same correlation id until a deadline.
///
/// The reply queue is exclusive to this instance's consumer connection. Replies that arrive after their
/// deadline, for an unknown id, or a second time are dropped. When the reply connection drops, the queue
/// goes with it and no pending reply can arrive any more, so every waiting request fails at once with
/// ``AMQPError/connectionLost(_:)`` instead of running into its deadline.
public final class AMQPRequester: Service, Sendable {
    /// The name of this instance's reply queue, which requests carry as `reply_to`.
    public let replyQueue: String
    private let publisher: AMQPPublisher
    private let consumer: AMQPConsumer
    private let registry: ReplyRegistry

    /// - Parameters:
    ///   - instance: Names this instance's reply queue; unique per process.
    ///   - topology: What the requests are published to (declared by the publishing connection).
    public init(settings: AMQPSettings, instance: String = UUID().uuidString.lowercased(), topology: AMQPTopology = AMQPTopology(), logger: Logger) {
        let replyQueue = KiwiTopology.replyQueue(instance: instance)
        let registry = ReplyRegistry()
        self.replyQueue = replyQueue.name
        self.registry = registry
        var publishing = settings
        publishing.connectionName += " requests"
        var consuming = settings
        consuming.connectionName += " replies"
        publisher = AMQPPublisher(settings: publishing, topology: topology, logger: logger)
        consumer = AMQPConsumer(
            settings: consuming, queue: replyQueue.name, prefetch: 0, autoAck: true, topology: AMQPTopology(queues: [replyQueue]),
            logger: logger, connectionLost: { error in registry.failAll(error == .shutDown ? error : .connectionLost("\(error)")) }
        )
    }

    /// True while both connections are up: part of the service's readiness.
    public var isConnected: Bool { publisher.isConnected && consumer.isConnected }

    /// Returns once both connections are up (or shut down).
    public func waitUntilConnected() async {
        await publisher.waitUntilConnected()
        await consumer.waitUntilConnected()
    }

    /// Publishes `message` as a request and returns the reply.
    ///
    /// The message gets a new `correlation_id`, this instance's `reply_to`, and — unless it has one — an
    /// `expiration` of `timeout`, so a request nobody picks up in time leaves the queue by itself.
    /// Throws ``AMQPError/timedOut`` when no reply arrives within `timeout`.
    ///
    /// The request takes the message over and lets it go once published: a large body (a photo) is not kept in
    /// memory for the whole wait for the reply.
    public func request(_ message: consuming AMQPMessage, exchange: String = "", routingKey: String, timeout: Duration) async throws -> AMQPMessage {
        let deadline = ContinuousClock.now + timeout
        let correlationID = UUID().uuidString.lowercased()
        message.properties.correlationID = correlationID
        message.properties.replyTo = replyQueue
        message.properties.expiration = message.properties.expiration ?? timeout

        let outgoing = Handover(consume message)
        registry.open(correlationID)
        // The deadline covers the publish too: a confirm that is slow to come must not stretch the wait.
        do {
            return try await withThrowingTaskGroup(of: AMQPMessage.self) { group in
                group.addTask {
                    // Taken once, by the one publish of this request; the message is freed when it returns.
                    try await self.publisher.publish(outgoing.take() ?? AMQPMessage(body: []), exchange: exchange, routingKey: routingKey)
                    return try await self.registry.reply(for: correlationID)
                }
                group.addTask {
                    try await Task.sleep(until: deadline)
                    throw AMQPError.timedOut
                }
                defer { group.cancelAll() }
                return try await group.next()!
            }
        } catch {
            registry.close(correlationID)
            throw error
        }
    }

    /// Runs both connections and routes replies to their requests until graceful shutdown.
    public func run() async {
        await withDiscardingTaskGroup { group in
            group.addTask { await self.publisher.run() }
            group.addTask { await self.consumer.run() }
            group.addTask {
                for await delivery in self.consumer.deliveries {
                    self.registry.deliver(delivery.message)
                }
            }
        }
    }
}

/// The requests awaiting replies, by correlation id.
private final class ReplyRegistry: Sendable {
    private enum Slot {
        /// Published; the continuation is there once the caller waits.
        case waiting(CheckedContinuation<AMQPMessage, any Error>?)
        /// The reply came before the caller started waiting.
        case arrived(AMQPMessage)
        /// The reply connection dropped before the caller started waiting.
        case failed(AMQPError)
    }

    private let slots = Mutex<[String: Slot]>([:])

    /// Registers an id before its request is published, so that even an instant reply finds it.
    func open(_ id: String) {
        slots.withLock { $0[id] = .waiting(nil) }
    }

    func close(_ id: String) {
        slots.withLock { $0[id] = nil }
    }

    /// Waits for the reply to `id`; cancellation (the deadline) removes the slot, so a later reply is dropped.
    func reply(for id: String) async throws -> AMQPMessage {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let ready: Result<AMQPMessage, any Error>? = slots.withLock { slots in
                    switch slots[id] {
                    case .waiting:
                        slots[id] = .waiting(continuation)
                        return nil
                    case .arrived(let message):
                        slots[id] = nil
                        return .success(message)
                    case .failed(let error):
                        slots[id] = nil
                        return .failure(error)
                    case nil:
                        return .failure(CancellationError())
                    }
                }
                if let ready { continuation.resume(with: ready) }
            }
        } onCancel: {
            let waiting = slots.withLock { slots -> CheckedContinuation<AMQPMessage, any Error>? in
                defer { slots[id] = nil }
                if case .waiting(let continuation) = slots[id] { return continuation }
                return nil
            }
            waiting?.resume(throwing: CancellationError())
        }
    }

    /// Hands a reply to its request; late, unknown and duplicate replies are dropped.
    func deliver(_ message: AMQPMessage) {
        guard let id = message.properties.correlationID else { return }
        let waiting = slots.withLock { slots -> CheckedContinuation<AMQPMessage, any Error>? in
            guard case .waiting(let continuation) = slots[id] else { return nil }
            if let continuation {
                slots[id] = nil
                return continuation
            }
            slots[id] = .arrived(message)
            return nil
        }
        waiting?.resume(returning: message)
    }

    /// Fails every request still waiting.
    func failAll(_ error: AMQPError) {
        let waiting = slots.withLock { slots -> [CheckedContinuation<AMQPMessage, any Error>] in
            var continuations: [CheckedContinuation<AMQPMessage, any Error>] = []
            for (id, slot) in slots {
                guard case .waiting(let continuation) = slot else { continue }
                if let continuation {
                    continuations.append(continuation)
                    slots[id] = nil
                } else {
                    slots[id] = .failed(error)
                }
            }
            return continuations
        }
        for continuation in waiting { continuation.resume(throwing: error) }
    }
}
