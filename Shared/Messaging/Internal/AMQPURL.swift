import CRabbitMQ

/// The parts of an `amqp://` URL as rabbitmq-c reads them (`amqp_parse_url`): percent-decoded, with `guest`/`guest`,
/// `localhost`, port 5672 and virtual host `/` where the URL leaves them out.
struct AMQPURL {
    var host: String
    var port: Int
    var user: String
    var password: String
    var virtualHost: String
    /// `amqps://`.
    var usesTLS: Bool

    /// Nil when rabbitmq-c cannot read `text`.
    init?(_ text: String) {
        var buffer = Array(text.utf8CString)
        // amqp_parse_url decodes in place and points the fields into the buffer: copy them out while it is alive.
        let parsed = buffer.withUnsafeMutableBufferPointer { pointer -> AMQPURL? in
            var info = amqp_connection_info()
            amqp_default_connection_info(&info)
            guard amqp_parse_url(pointer.baseAddress, &info) == AMQP_STATUS_OK.rawValue else { return nil }
            let fields = [info.host, info.user, info.password, info.vhost].map { String(cString: $0!) }
            return AMQPURL(
                host: fields[0],
                port: Int(info.port),
                user: fields[1],
                password: fields[2],
                virtualHost: fields[3],
                usesTLS: info.ssl != 0
            )
        }
        guard let parsed else { return nil }
        self = parsed
    }

    private init(host: String, port: Int, user: String, password: String, virtualHost: String, usesTLS: Bool) {
        (self.host, self.port, self.user, self.password, self.virtualHost, self.usesTLS) = (host, port, user, password, virtualHost, usesTLS)
    }
}
