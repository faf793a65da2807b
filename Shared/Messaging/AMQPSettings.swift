import Foundation

/// Where and how to reach RabbitMQ, read from an `AMQP_URL` such as `amqp://user:pass@host:5672/%2F`.
///
/// Parsing is rabbitmq-c's own (`amqp_parse_url`), so the URL means exactly what the client library
/// will do with it: percent-decoding of every part, `guest`/`guest`, `localhost`, port 5672 and
/// virtual host `/` where the URL leaves them out.
public struct AMQPSettings: Hashable, Sendable, CustomStringConvertible {
    public var host: String
    public var port: Int
    public var user: String
    public var password: String
    public var virtualHost: String
    /// How often each side sends a heartbeat; the broker drops a connection silent for two intervals.
    public var heartbeatSeconds: Int
    /// Shown in RabbitMQ's management tools next to the connection, to tell services apart.
    public var connectionName: String

    /// Parses an `amqp://` URL. TLS (`amqps://`) is refused until the messaging layer speaks it.
    public init(url: String, heartbeatSeconds: Int = 30, connectionName: String = "kiwi") throws(AMQPURLError) {
        guard let parsed = AMQPURL(url) else { throw AMQPURLError("must look like amqp://user:password@host:port/vhost") }
        guard !parsed.usesTLS else { throw AMQPURLError("uses amqps://, which is not supported yet") }
        self.host = parsed.host
        self.user = parsed.user
        self.password = parsed.password
        self.virtualHost = parsed.virtualHost
        self.port = parsed.port
        self.heartbeatSeconds = heartbeatSeconds
        self.connectionName = connectionName
    }

    /// The URL without its password, safe to log.
    public var description: String {
        let vhost = virtualHost.addingPercentEncoding(withAllowedCharacters: Self.unreserved) ?? virtualHost
        return "amqp://\(user)@\(host):\(port)/\(vhost)"
    }

    /// RFC 3986's unreserved characters: everything else in a path segment is percent-encoded.
    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
}

/// An `AMQP_URL` that cannot be used, and why.
public struct AMQPURLError: Error, CustomStringConvertible {
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}
