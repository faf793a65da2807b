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
    /// How the broker keeps the queue (`x-queue-type`).
    public enum Kind: String, Sendable {
        /// One node holds it: lost, or unavailable, with that node. The only kind that can be exclusive or auto-delete.
        case classic
        /// Replicated by Raft on every node of the cluster: survives the loss of a minority of them. Always durable,
        /// and its messages are always written to disk, persistent or not.
        case quorum
    }

    public var name: String
    public var kind: Kind
    /// Survives a broker restart (its messages only if they are persistent, or the queue is a quorum queue).
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
    /// Quorum queues only: a message returned to the queue more often than this (its consumer's connection lost, or a
    /// `nack` with requeue) is dead-lettered instead of delivered again (`x-delivery-limit`).
    public var deliveryLimit: Int?
    /// What an operator should do when the broker already holds a queue of this name declared otherwise, which
    /// reconnecting can never fix: shown in the error that stops the connection (``AMQPError/declarationRefused(_:)``).
    public var mismatchAdvice: String?

    public init(
        name: String,
        kind: Kind = .classic,
        durable: Bool = true,
        exclusive: Bool = false,
        autoDelete: Bool = false,
        deadLetterExchange: String? = nil,
        messageTTL: Duration? = nil,
        maxLengthBytes: Int? = nil,
        deliveryLimit: Int? = nil,
        mismatchAdvice: String? = nil
    ) {
        self.name = name
        self.kind = kind
        self.durable = durable
        self.exclusive = exclusive
        self.autoDelete = autoDelete
        self.deadLetterExchange = deadLetterExchange
        self.messageTTL = messageTTL
        self.maxLengthBytes = maxLengthBytes
        self.deliveryLimit = deliveryLimit
        self.mismatchAdvice = mismatchAdvice
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

/// A binding of an exchange to another (a RabbitMQ extension): what `source` routes with a matching key, it also
/// hands to `destination`, which routes it on by its own bindings.
public struct AMQPExchangeBinding: Hashable, Sendable {
    public var destination: String
    public var source: String
    public var routingKey: String

    public init(destination: String, source: String, routingKey: String = "") {
        self.destination = destination
        self.source = source
        self.routingKey = routingKey
    }
}

/// Exchanges, queues and bindings that a connection declares every time it connects. Declaring is
/// idempotent, so every service declares what it uses and none depends on another having started first.
public struct AMQPTopology: Hashable, Sendable {
    public var exchanges: [AMQPExchange]
    public var queues: [AMQPQueue]
    public var bindings: [AMQPBinding]
    public var exchangeBindings: [AMQPExchangeBinding]

    public init(
        exchanges: [AMQPExchange] = [],
        queues: [AMQPQueue] = [],
        bindings: [AMQPBinding] = [],
        exchangeBindings: [AMQPExchangeBinding] = []
    ) {
        self.exchanges = exchanges
        self.queues = queues
        self.bindings = bindings
        self.exchangeBindings = exchangeBindings
    }

    /// Both topologies together.
    public func merging(_ other: AMQPTopology) -> AMQPTopology {
        AMQPTopology(
            exchanges: exchanges + other.exchanges,
            queues: queues + other.queues,
            bindings: bindings + other.bindings,
            exchangeBindings: exchangeBindings + other.exchangeBindings
        )
    }
}
