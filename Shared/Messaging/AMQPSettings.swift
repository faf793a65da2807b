import Foundation

/// Where and how to reach RabbitMQ: the nodes of a cluster (or the one broker), read from `AMQP_URLS` or `AMQP_URL`.
///
/// A connection goes to the first node that answers, tried in order from the first; when it is lost, the next
/// attempt goes to the node after the one it was on, wrapping around (docs/architecture.md §1, *RabbitMQ objects*).
public struct AMQPSettings: Hashable, Sendable, CustomStringConvertible {
    /// The nodes, in the order they are tried; never empty.
    public let nodes: [AMQPNode]
    /// How often each side sends a heartbeat; the broker drops a connection silent for two intervals.
    public var heartbeatSeconds: Int
    /// Shown in RabbitMQ's management tools next to the connection, to tell services apart.
    public var connectionName: String

    /// One broker, from an `amqp://` URL (`AMQP_URL`).
    public init(url: String, heartbeatSeconds: Int = 30, connectionName: String = "kiwi") throws(AMQPURLError) {
        try self.init(urls: [url], heartbeatSeconds: heartbeatSeconds, connectionName: connectionName)
    }

    /// The nodes of `list`, comma-separated `amqp://` URLs with optional spaces around each (`AMQP_URLS`).
    public init(urlList list: String, heartbeatSeconds: Int = 30, connectionName: String = "kiwi") throws(AMQPURLError) {
        let urls = list.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        try self.init(urls: urls, heartbeatSeconds: heartbeatSeconds, connectionName: connectionName)
    }

    /// The nodes at `urls`, in that order. An empty entry, or a host and port listed twice, is refused as the typo it is.
    public init(urls: [String], heartbeatSeconds: Int = 30, connectionName: String = "kiwi") throws(AMQPURLError) {
        guard !urls.isEmpty else { throw AMQPURLError("must list at least one amqp:// URL") }
        var nodes: [AMQPNode] = []
        for (index, url) in urls.enumerated() {
            let entry = urls.count == 1 ? "" : "entry \(index + 1) "
            guard !url.isEmpty else { throw AMQPURLError("\(entry)is empty: give comma-separated amqp:// URLs") }
            let node: AMQPNode
            do {
                node = try AMQPNode(url: url)
            } catch {
                throw AMQPURLError(entry + error.description)
            }
            guard !nodes.contains(where: { $0.host == node.host && $0.port == node.port }) else {
                throw AMQPURLError("lists \(node.host):\(node.port) twice")
            }
            nodes.append(node)
        }
        self.nodes = nodes
        self.heartbeatSeconds = heartbeatSeconds
        self.connectionName = connectionName
    }

    /// Every node's URL without its password, safe to log.
    public var description: String {
        nodes.map(\.description).joined(separator: ",")
    }
}

/// One RabbitMQ node: an `amqp://` URL, parsed.
///
/// Parsing is rabbitmq-c's own (`amqp_parse_url`), so the URL means exactly what the client library
/// will do with it: percent-decoding of every part, `guest`/`guest`, `localhost`, port 5672 and
/// virtual host `/` where the URL leaves them out.
public struct AMQPNode: Hashable, Sendable, CustomStringConvertible {
    public var host: String
    public var port: Int
    public var user: String
    public var password: String
    public var virtualHost: String

    /// Parses an `amqp://` URL. TLS (`amqps://`) is refused until the messaging layer speaks it.
    public init(url: String) throws(AMQPURLError) {
        guard let parsed = AMQPURL(url) else { throw AMQPURLError("must look like amqp://user:password@host:port/vhost") }
        guard !parsed.usesTLS else { throw AMQPURLError("uses amqps://, which is not supported yet") }
        self.host = parsed.host
        self.user = parsed.user
        self.password = parsed.password
        self.virtualHost = parsed.virtualHost
        self.port = parsed.port
    }

    /// The URL without its password, safe to log.
    public var description: String {
        let vhost = virtualHost.addingPercentEncoding(withAllowedCharacters: Self.unreserved) ?? virtualHost
        return "amqp://\(user)@\(host):\(port)/\(vhost)"
    }

    /// RFC 3986's unreserved characters: everything else in a path segment is percent-encoded.
    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
}

/// An `AMQP_URL` or `AMQP_URLS` that cannot be used, and why.
public struct AMQPURLError: Error, CustomStringConvertible {
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}
