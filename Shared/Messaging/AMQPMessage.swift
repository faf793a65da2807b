import Foundation

/// The AMQP properties Kiwi uses, as Swift values.
public struct AMQPProperties: Hashable, Sendable {
    public var contentType: String?
    /// Ties a reply to its request.
    public var correlationID: String?
    /// The queue a reply should go to.
    public var replyTo: String?
    /// How long the message may wait in a queue; RabbitMQ drops it at the head of the queue after that.
    public var expiration: Duration?
    public var messageID: String?
    public var type: String?
    /// Seconds precision, as AMQP carries it.
    public var timestamp: Date?
    /// Persistent messages are written to disk by the broker and kept across its restarts. A quorum queue writes and
    /// keeps every message, persistent or not.
    public var persistent: Bool
    /// Application headers; values are text.
    public var headers: [String: String]

    public init(
        contentType: String? = nil,
        correlationID: String? = nil,
        replyTo: String? = nil,
        expiration: Duration? = nil,
        messageID: String? = nil,
        type: String? = nil,
        timestamp: Date? = nil,
        persistent: Bool = false,
        headers: [String: String] = [:]
    ) {
        self.contentType = contentType
        self.correlationID = correlationID
        self.replyTo = replyTo
        self.expiration = expiration
        self.messageID = messageID
        self.type = type
        self.timestamp = timestamp
        self.persistent = persistent
        self.headers = headers
    }
}

/// A message body with its properties. Bodies are raw bytes: a 2 MiB JPEG travels as is.
public struct AMQPMessage: Hashable, Sendable {
    public var body: [UInt8]
    public var properties: AMQPProperties

    public init(body: [UInt8], properties: AMQPProperties = AMQPProperties()) {
        self.body = body
        self.properties = properties
    }
}
