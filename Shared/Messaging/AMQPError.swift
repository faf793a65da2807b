/// What can go wrong talking to RabbitMQ. Every failure of the messaging module is one of these.
public enum AMQPError: Error, Hashable, Sendable, CustomStringConvertible {
    /// There is no connection right now (the broker is unreachable, or the link is reconnecting).
    case notConnected
    /// The connection dropped while this operation was in flight; its outcome is unknown.
    case connectionLost(String)
    /// The broker refused the message (`basic.nack`).
    case nacked
    /// A mandatory message matched no queue and came back (`basic.return`).
    case unroutable(replyCode: Int, replyText: String)
    /// The component was shut down.
    case shutDown
    /// RabbitMQ has blocked publishing on this connection (a memory or disk alarm); nothing was sent.
    case blocked
    /// The message cannot be encoded (e.g. a routing key or property over 255 bytes); nothing was sent.
    case invalidMessage(String)
    /// The broker closed the channel or connection with an error.
    case brokerClosed(code: Int, text: String)
    /// rabbitmq-c reported an error.
    case library(operation: String, status: Int32, text: String)
    /// The broker refused a declaration because an object of that name exists declared otherwise (or the
    /// declaration is not allowed): no reconnection can fix it, so the connection stops for good. Says what to do.
    case declarationRefused(String)

    public var description: String {
        switch self {
        case .notConnected: "not connected to RabbitMQ"
        case .connectionLost(let reason): "the RabbitMQ connection was lost: \(reason)"
        case .nacked: "RabbitMQ refused the message"
        case .unroutable(let code, let text): "the message could not be routed (\(code) \(text))"
        case .shutDown: "the messaging link is shut down"
        case .blocked: "RabbitMQ has blocked publishing (a resource alarm)"
        case .invalidMessage(let reason): "the message cannot be sent: \(reason)"
        case .brokerClosed(let code, let text): "RabbitMQ closed the connection (\(code) \(text))"
        case .library(let operation, let status, let text): "\(operation) failed: \(text) (\(status))"
        case .declarationRefused(let explanation): explanation
        }
    }
}
