import CRabbitMQ
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
        var buffer = Array(url.utf8CString)
        // amqp_parse_url decodes in place and points the fields into the buffer: copy them out while it is alive.
        let parsed = buffer.withUnsafeMutableBufferPointer { pointer -> (status: Int32, ssl: Bool, fields: [String], port: Int) in
            var info = amqp_connection_info()
            amqp_default_connection_info(&info)
            let status = amqp_parse_url(pointer.baseAddress, &info)
            guard status == AMQP_STATUS_OK.rawValue else { return (status, false, [], 0) }
            let fields = [info.host, info.user, info.password, info.vhost].map { String(cString: $0!) }
            return (status, info.ssl != 0, fields, Int(info.port))
        }
        guard parsed.status == AMQP_STATUS_OK.rawValue else { throw AMQPURLError("must look like amqp://user:password@host:port/vhost") }
        guard !parsed.ssl else { throw AMQPURLError("uses amqps://, which is not supported yet") }
        self.host = parsed.fields[0]
        self.user = parsed.fields[1]
        self.password = parsed.fields[2]
        self.virtualHost = parsed.fields[3]
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
