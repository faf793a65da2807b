import CoreMetrics
import Foundation
import KiwiConcurrency
import KiwiTracing
import Logging
import ServiceLifecycle
import Synchronization
import Tracing

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
    private let logger: Logger
    /// `kiwi_amqp_replies_dropped_total{reason="late|duplicate|unknown"}`: replies nobody was waiting for.
    private let droppedReplies: [ReplyRegistry.Drop: Counter]

    /// - Parameters:
    ///   - instance: Names this instance's reply queue; unique per process.
    ///   - topology: What the requests are published to (declared by the publishing connection).
    public init(settings: AMQPSettings, instance: String = UUID().uuidString.lowercased(), topology: AMQPTopology = AMQPTopology(), logger: Logger) {
        let replyQueue = KiwiTopology.replyQueue(instance: instance)
        let registry = ReplyRegistry()
        self.replyQueue = replyQueue.name
        self.registry = registry
        self.logger = logger
        droppedReplies = Dictionary(
            uniqueKeysWithValues: ReplyRegistry.Drop.allCases.map { drop in
                (
                    drop,
                    Counter(
                        label: "kiwi_amqp_replies_dropped_total",
                        dimensions: [("connection", settings.connectionName), ("reason", drop.rawValue)]
                    )
                )
            }
        )
        var publishing = settings
        publishing.connectionName += " requests"
        var consuming = settings
        consuming.connectionName += " replies"
        publisher = AMQPPublisher(settings: publishing, topology: topology, logger: logger)
        consumer = AMQPConsumer(
            settings: consuming,
            queue: replyQueue.name,
            prefetch: 0,
            autoAck: true,
            topology: AMQPTopology(queues: [replyQueue]),
            logger: logger,
            connectionLost: { error in registry.failAll(error == .shutDown ? error : .connectionLost("\(error)")) }
        )
    }

    /// True while both connections are up: part of the service's readiness.
    public var isConnected: Bool { publisher.isConnected && consumer.isConnected }

    /// How many consumers the existing queue `queue` (e.g. the one requests go to) has now.
    public func consumerCount(of queue: String) async throws -> Int {
        try await publisher.consumerCount(of: queue)
    }

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
            return try await withDeadline(deadline) {
                try await withSpan("publish \(routingKey)", ofKind: .producer) { span in
                    span.attributes["messaging.system"] = "rabbitmq"
                    span.attributes["messaging.destination.name"] = routingKey
                    span.attributes["messaging.message.conversation_id"] = correlationID
                    // Taken once, by the one publish of this request; the message is freed when it returns.
                    var message = outgoing.take() ?? AMQPMessage(body: [])
                    // The consumer's spans continue this one.
                    ServiceContext.propagate(into: &message.properties.headers, using: MessageHeadersInjector())
                    try await self.publisher.publish(consume message, exchange: exchange, routingKey: routingKey)
                }
                return try await withSpan("await reply", ofKind: .internal) { _ in try await self.registry.reply(for: correlationID) }
            }
        } catch is DeadlineExceededError {
            registry.close(correlationID)
            throw AMQPError.timedOut
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
                    guard let dropped = self.registry.deliver(delivery.message) else { continue }
                    self.droppedReplies[dropped]?.increment()
                    self.logger.debug(
                        "dropped a reply",
                        metadata: ["reason": .string(dropped.rawValue), "jobId": .string(delivery.message.properties.correlationID ?? "none")]
                    )
                }
            }
        }
    }
}

/// The requests awaiting replies, by correlation id, and the ids recently answered or given up on, to tell a
/// duplicate or late reply from one nobody ever asked for.
final class ReplyRegistry: Sendable {
    /// Why a reply found nobody waiting.
    enum Drop: String, CaseIterable, Sendable {
        /// Its request stopped waiting first (timed out or cancelled).
        case late
        /// Its request already had a reply.
        case duplicate
        /// No request of this instance had its correlation id (or it had none).
        case unknown
    }

    private enum Slot {
        /// Published; the continuation is there once the caller waits.
        case waiting(CheckedContinuation<AMQPMessage, any Error>?)
        /// The reply came before the caller started waiting.
        case arrived(AMQPMessage)
        /// The reply connection dropped before the caller started waiting.
        case failed(AMQPError)
    }

    private struct State {
        var slots: [String: Slot] = [:]
        var answered = RecentIDs(capacity: 4096)
        var abandoned = RecentIDs(capacity: 4096)

        /// Removes a slot whose caller stopped waiting without a reply.
        mutating func abandon(_ id: String) {
            if case .waiting = slots.removeValue(forKey: id) { abandoned.insert(id) }
        }
    }

    private let state = Mutex(State())

    /// Registers an id before its request is published, so that even an instant reply finds it.
    func open(_ id: String) {
        state.withLock { $0.slots[id] = .waiting(nil) }
    }

    /// The caller stopped waiting (a deadline, an error, cancellation); a reply that still comes is late.
    func close(_ id: String) {
        state.withLock { $0.abandon(id) }
    }

    /// Waits for the reply to `id`; cancellation (the deadline) removes the slot, so a later reply is dropped.
    func reply(for id: String) async throws -> AMQPMessage {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let ready: Result<AMQPMessage, any Error>? = state.withLock { state in
                    switch state.slots[id] {
                    case .waiting:
                        state.slots[id] = .waiting(continuation)
                        return nil
                    case .arrived(let message):
                        state.slots[id] = nil
                        return .success(message)
                    case .failed(let error):
                        state.slots[id] = nil
                        return .failure(error)
                    case nil:
                        return .failure(CancellationError())
                    }
                }
                if let ready { continuation.resume(with: ready) }
            }
        } onCancel: {
            let waiting = state.withLock { state -> CheckedContinuation<AMQPMessage, any Error>? in
                guard case .waiting(let continuation) = state.slots[id] else { return nil }
                state.abandon(id)
                return continuation
            }
            waiting?.resume(throwing: CancellationError())
        }
    }

    /// Hands a reply to its request; returns why it was dropped when nobody waits for it.
    func deliver(_ message: AMQPMessage) -> Drop? {
        guard let id = message.properties.correlationID else { return .unknown }
        let (waiting, drop) = state.withLock { state -> (CheckedContinuation<AMQPMessage, any Error>?, Drop?) in
            switch state.slots[id] {
            case .waiting(let continuation?):
                state.slots[id] = nil
                state.answered.insert(id)
                return (continuation, nil)
            case .waiting(nil):
                state.slots[id] = .arrived(message)
                state.answered.insert(id)
                return (nil, nil)
            case .arrived, .failed:
                return (nil, .duplicate)
            case nil:
                return (nil, state.answered.contains(id) ? .duplicate : state.abandoned.contains(id) ? .late : .unknown)
            }
        }
        waiting?.resume(returning: message)
        return drop
    }

    /// Fails every request still waiting.
    func failAll(_ error: AMQPError) {
        let waiting = state.withLock { state -> [CheckedContinuation<AMQPMessage, any Error>] in
            var continuations: [CheckedContinuation<AMQPMessage, any Error>] = []
            for (id, slot) in state.slots {
                guard case .waiting(let continuation) = slot else { continue }
                if let continuation {
                    continuations.append(continuation)
                    state.slots[id] = nil
                } else {
                    state.slots[id] = .failed(error)
                }
            }
            return continuations
        }
        for continuation in waiting { continuation.resume(throwing: error) }
    }
}

/// The last `capacity` ids inserted, oldest forgotten first.
private struct RecentIDs {
    private var order: [String?]
    private var members: Set<String> = []
    private var next = 0

    init(capacity: Int) {
        order = Array(repeating: nil, count: capacity)
    }

    mutating func insert(_ id: String) {
        guard members.insert(id).inserted else { return }
        if let evicted = order[next] { members.remove(evicted) }
        order[next] = id
        next = (next + 1) % order.count
    }

    func contains(_ id: String) -> Bool {
        members.contains(id)
    }
}
