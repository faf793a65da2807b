/// An exchange to declare.
public struct AMQPExchange: Hashable, Sendable {
    public enum Kind: String, Sendable {
        case direct, fanout, topic
    }

    public var name: String
    public var kind: Kind
    public var durable: Bool

    public init(name: String, kind: Kind, durable: Bool = true) {
        self.name = name
        self.kind = kind
        self.durable = durable
    }
}

/// A queue to declare.
public struct AMQPQueue: Hashable, Sendable {
    public var name: String
    /// Survives a broker restart (its messages only if they are persistent).
    public var durable: Bool
    /// Belongs to the declaring connection and disappears with it.
    public var exclusive: Bool
    public var autoDelete: Bool
    /// Where rejected or expired messages go (`x-dead-letter-exchange`).
    public var deadLetterExchange: String?
    /// How long a message may stay in the queue (`x-message-ttl`).
    public var messageTTL: Duration?
    /// The most message bytes the queue holds; beyond it the oldest are dropped (`x-max-length-bytes`).
    public var maxLengthBytes: Int?

    public init(
        name: String,
        durable: Bool = true,
        exclusive: Bool = false,
        autoDelete: Bool = false,
        deadLetterExchange: String? = nil,
        messageTTL: Duration? = nil,
        maxLengthBytes: Int? = nil
    ) {
        self.name = name
        self.durable = durable
        self.exclusive = exclusive
        self.autoDelete = autoDelete
        self.deadLetterExchange = deadLetterExchange
        self.messageTTL = messageTTL
        self.maxLengthBytes = maxLengthBytes
    }
}

/// A binding of a queue to an exchange.
public struct AMQPBinding: Hashable, Sendable {
    public var queue: String
    public var exchange: String
    public var routingKey: String

    public init(queue: String, exchange: String, routingKey: String = "") {
        self.queue = queue
        self.exchange = exchange
        self.routingKey = routingKey
    }
}

/// Exchanges, queues and bindings that a connection declares every time it connects. Declaring is
/// idempotent, so every service declares what it uses and none depends on another having started first.
public struct AMQPTopology: Hashable, Sendable {
    public var exchanges: [AMQPExchange]
    public var queues: [AMQPQueue]
    public var bindings: [AMQPBinding]

    public init(exchanges: [AMQPExchange] = [], queues: [AMQPQueue] = [], bindings: [AMQPBinding] = []) {
        self.exchanges = exchanges
        self.queues = queues
        self.bindings = bindings
    }

    /// Both topologies together.
    public func merging(_ other: AMQPTopology) -> AMQPTopology {
        AMQPTopology(exchanges: exchanges + other.exchanges, queues: queues + other.queues, bindings: bindings + other.bindings)
    }
}

/// The names and shapes of Kiwi's own exchanges and queues (docs/architecture.md, "1. System overview").
public enum KiwiTopology {
    /// Scan jobs, consumed by every scan worker. Durable, so jobs survive a broker restart while it lasts;
    /// the messages themselves are never persistent.
    public static let scanJobQueue = "kiwi.scan.jobs"
    /// Session revocations, fanned out to every gateway.
    public static let revocationExchange = "kiwi.sessions.revoked"
    /// Scans' state changes, fanned out to every gateway.
    public static let scanEventExchange = "kiwi.scans.events"

    /// Where jobs of `queue` that were rejected as poison, or expired unanswered, go.
    public static func deadLetterExchange(of queue: String = scanJobQueue) -> String { "\(queue).dead-letter" }
    /// The queue that keeps dead-lettered jobs of `queue` for an operator to look at.
    public static func deadLetterQueue(of queue: String = scanJobQueue) -> String { "\(queue).dead" }
    /// Dead-lettered jobs still carry a photo, so they are kept only briefly and within a memory budget.
    public static let deadLetterRetention = Duration.seconds(3600)
    public static let deadLetterMaxBytes = 64 * 1024 * 1024

    /// The job queue (``scanJobQueue`` unless tests name their own) with its dead-letter exchange and queue.
    public static func scanJobs(queue: String = scanJobQueue) -> AMQPTopology {
        let (exchange, deadLetters) = (deadLetterExchange(of: queue), deadLetterQueue(of: queue))
        return AMQPTopology(
            exchanges: [AMQPExchange(name: exchange, kind: .fanout)],
            queues: [
                AMQPQueue(name: deadLetters, messageTTL: deadLetterRetention, maxLengthBytes: deadLetterMaxBytes),
                AMQPQueue(name: queue, deadLetterExchange: exchange),
            ],
            bindings: [AMQPBinding(queue: deadLetters, exchange: exchange)]
        )
    }

    /// The revocation exchange alone, for whoever publishes revocations (the auth service).
    public static var revocations: AMQPTopology {
        AMQPTopology(exchanges: [AMQPExchange(name: revocationExchange, kind: .fanout)])
    }

    /// One gateway instance's subscription to revocations: its exclusive queue bound to the exchange.
    /// Declare it only on the connection that consumes the queue.
    public static func revocationSubscription(instance: String) -> (queue: String, topology: AMQPTopology) {
        subscription(named: "kiwi.gateway.\(instance).revocations", to: revocationExchange)
    }

    /// The scan event exchange alone, for whoever publishes scan events (workers and gateways).
    public static var scanEvents: AMQPTopology {
        AMQPTopology(exchanges: [AMQPExchange(name: scanEventExchange, kind: .fanout)])
    }

    /// One gateway instance's subscription to scan events: its exclusive queue bound to the exchange.
    /// Declare it only on the connection that consumes the queue.
    public static func scanEventSubscription(instance: String) -> (queue: String, topology: AMQPTopology) {
        subscription(named: "kiwi.gateway.\(instance).scan-events", to: scanEventExchange)
    }

    /// An exclusive, self-deleting queue bound to the fan-out `exchange`, with the exchange itself.
    private static func subscription(named queue: String, to exchange: String) -> (queue: String, topology: AMQPTopology) {
        (
            queue,
            AMQPTopology(
                exchanges: [AMQPExchange(name: exchange, kind: .fanout)],
                queues: [AMQPQueue(name: queue, durable: false, exclusive: true, autoDelete: true)],
                bindings: [AMQPBinding(queue: queue, exchange: exchange)]
            )
        )
    }
}
