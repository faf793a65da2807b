import CRabbitMQ
import Foundation
import KiwiConcurrency

/// One rabbitmq-c connection with channel 1 open: the only type that calls rabbitmq-c.
///
/// Like the connection it wraps, it is not thread-safe and is not `Sendable`: an ``AMQPLink`` opens it,
/// uses it and closes it on its own thread, and nothing else ever sees it.
final class AMQPChannel {
    /// True between the broker's `connection.blocked` and `connection.unblocked` (a memory or disk alarm):
    /// a publish now would only fill the socket, so publishers fail fast instead.
    var isBlocked = false
    /// Counts the connections a link has made; deliveries remember it so that an acknowledgement never
    /// reaches a newer connection, whose delivery tags mean other messages.
    let generation: UInt64
    private let state: amqp_connection_state_t
    private let number: amqp_channel_t = 1
    private var isOpen = true

    private init(state: amqp_connection_state_t, generation: UInt64) {
        self.state = state
        self.generation = generation
    }

    deinit {
        if isOpen { amqp_destroy_connection(state) }
    }

    /// Connects to `node`, logs in and opens channel 1.
    static func open(
        _ node: AMQPNode,
        settings: AMQPSettings,
        generation: UInt64,
        timeout: Duration = .seconds(10)
    ) throws(AMQPError) -> AMQPChannel {
        guard let state = amqp_new_connection() else {
            throw .library(operation: "amqp_new_connection", status: AMQP_STATUS_NO_MEMORY.rawValue, text: "out of memory")
        }
        let channel = AMQPChannel(state: state, generation: generation)
        guard let socket = amqp_tcp_socket_new(state) else {
            throw .library(operation: "amqp_tcp_socket_new", status: AMQP_STATUS_NO_MEMORY.rawValue, text: "out of memory")
        }
        var connectTimeout = timeval(tv_sec: Int(timeout.components.seconds), tv_usec: 0)
        // A broker that accepts the socket but never answers must not hang the login or a declaration.
        try check(amqp_set_handshake_timeout(state, &connectTimeout), "set the handshake timeout")
        try check(amqp_set_rpc_timeout(state, &connectTimeout), "set the RPC timeout")
        try check(
            amqp_socket_open_noblock(socket, node.host, Int32(node.port), &connectTimeout),
            "connect to \(node.host):\(node.port)"
        )

        let arena = CArena()
        // Without announcing these capabilities RabbitMQ never sends `basic.cancel` (queue deleted) or
        // `connection.blocked` (resource alarm), and the link could not react to either.
        var clientProperties = arena.table([
            "connection_name": .text(settings.connectionName),
            "capabilities": .table(["consumer_cancel_notify": .flag(true), "connection.blocked": .flag(true)]),
        ])
        let login = kiwi_amqp_login_plain(
            state,
            node.virtualHost,
            131_072,
            Int32(settings.heartbeatSeconds),
            &clientProperties,
            node.user,
            node.password
        )
        try channel.check(login, "login")
        amqp_channel_open(state, channel.number)
        try channel.checkReply("channel.open")
        return channel
    }

    /// Closes the channel and connection politely, then frees them.
    func close() {
        guard isOpen else { return }
        isOpen = false
        amqp_channel_close(state, number, AMQP_REPLY_SUCCESS)
        amqp_connection_close(state, AMQP_REPLY_SUCCESS)
        amqp_destroy_connection(state)
    }

    // MARK: Set-up

    /// Declares exchanges, then queues, then bindings. Declaring what already exists is a no-op.
    func declare(_ topology: AMQPTopology) throws(AMQPError) {
        let arena = CArena()
        for exchange in topology.exchanges {
            amqp_exchange_declare(
                state,
                number,
                arena.bytes(exchange.name),
                arena.bytes(exchange.kind.rawValue),
                0,
                exchange.durable ? 1 : 0,
                0,
                0,
                amqp_empty_table
            )
            try refusingMismatch(of: "exchange \(exchange.name)", advice: nil) { () throws(AMQPError) in
                try checkReply("exchange.declare \(exchange.name)")
            }
        }
        for queue in topology.queues {
            var arguments: [String: AMQPField] = [:]
            if let deadLetterExchange = queue.deadLetterExchange { arguments["x-dead-letter-exchange"] = .text(deadLetterExchange) }
            if let messageTTL = queue.messageTTL { arguments["x-message-ttl"] = .integer(messageTTL.milliseconds) }
            if let maxLengthBytes = queue.maxLengthBytes { arguments["x-max-length-bytes"] = .integer(Int64(maxLengthBytes)) }
            if let deliveryLimit = queue.deliveryLimit { arguments["x-delivery-limit"] = .integer(Int64(deliveryLimit)) }
            // Classic queues are declared without `x-queue-type`, as they always were: the broker compares a
            // redeclaration's arguments with those the queue was made with.
            if queue.kind != .classic { arguments["x-queue-type"] = .text(queue.kind.rawValue) }
            amqp_queue_declare(
                state,
                number,
                arena.bytes(queue.name),
                0,
                queue.durable ? 1 : 0,
                queue.exclusive ? 1 : 0,
                queue.autoDelete ? 1 : 0,
                arena.table(arguments)
            )
            try refusingMismatch(of: "queue \(queue.name)", advice: queue.mismatchAdvice) { () throws(AMQPError) in
                try checkReply("queue.declare \(queue.name)")
            }
        }
        for binding in topology.bindings { try bind(binding) }
        for binding in topology.exchangeBindings {
            amqp_exchange_bind(
                state,
                number,
                arena.bytes(binding.destination),
                arena.bytes(binding.source),
                arena.bytes(binding.routingKey),
                amqp_empty_table
            )
            try checkReply("exchange.bind \(binding.destination)")
        }
    }

    /// Binds a queue to an exchange. Binding what is bound already is a no-op.
    func bind(_ binding: AMQPBinding) throws(AMQPError) {
        let arena = CArena()
        amqp_queue_bind(
            state,
            number,
            arena.bytes(binding.queue),
            arena.bytes(binding.exchange),
            arena.bytes(binding.routingKey),
            amqp_empty_table
        )
        try checkReply("queue.bind \(binding.queue)")
    }

    /// Removes a binding. Removing one that is not there is a no-op.
    func unbind(_ binding: AMQPBinding) throws(AMQPError) {
        let arena = CArena()
        amqp_queue_unbind(
            state,
            number,
            arena.bytes(binding.queue),
            arena.bytes(binding.exchange),
            arena.bytes(binding.routingKey),
            amqp_empty_table
        )
        try checkReply("queue.unbind \(binding.queue)")
    }

    /// Runs a declaration's `check`, turning the broker's PRECONDITION_FAILED (406: an object of that name exists
    /// with other properties or arguments, or an argument is not allowed) into ``AMQPError/declarationRefused(_:)``.
    private func refusingMismatch(of object: String, advice: String?, _ check: () throws(AMQPError) -> Void) throws(AMQPError) {
        do {
            try check()
        } catch {
            guard case .brokerClosed(406, let text) = error else { throw error }
            let remedy = advice ?? "delete it, or declare it as the broker has it"
            throw .declarationRefused("RabbitMQ refused to declare \(object) as this service declares it (\(text)): \(remedy)")
        }
    }

    /// How many consumers `queue` has, and how many of its messages are ready for delivery (not those delivered and
    /// not yet acknowledged), from a passive `queue.declare`. The queue must exist: the broker answers a passive
    /// declare of a missing queue by closing the channel.
    func counts(of queue: String) throws(AMQPError) -> (consumers: Int, readyMessages: Int) {
        let arena = CArena()
        let declared = amqp_queue_declare(state, number, arena.bytes(queue), 1, 0, 0, 0, amqp_empty_table)
        try checkReply("queue.declare (passive) \(queue)")
        guard let declared else { throw .library(operation: "queue.declare (passive) \(queue)", status: 0, text: "no declare-ok") }
        return (Int(declared.pointee.consumer_count), Int(declared.pointee.message_count))
    }

    /// Puts the channel in publisher-confirm mode: the broker acks (or nacks) every message, numbered from 1.
    func enableConfirms() throws(AMQPError) {
        amqp_confirm_select(state, number)
        try checkReply("confirm.select")
    }

    /// Starts consuming `queue` as consumer `tag`; with a prefetch, at most that many deliveries are unacknowledged at once.
    func consume(_ queue: String, tag: String, prefetch: Int?, autoAck: Bool) throws(AMQPError) {
        if let prefetch {
            // Per consumer (global = false), as RabbitMQ interprets it.
            amqp_basic_qos(state, number, 0, UInt16(clamping: prefetch), 0)
            try checkReply("basic.qos")
        }
        let arena = CArena()
        amqp_basic_consume(state, number, arena.bytes(queue), arena.bytes(tag), 0, autoAck ? 1 : 0, 0, amqp_empty_table)
        try checkReply("basic.consume \(queue)")
    }

    /// Ends the consumer `tag`: the broker sends it nothing more. Deliveries already sent stay unacknowledged.
    func cancel(_ tag: String) throws(AMQPError) {
        let arena = CArena()
        amqp_basic_cancel(state, number, arena.bytes(tag))
        try checkReply("basic.cancel \(tag)")
    }

    // MARK: Traffic

    /// Why the message cannot be encoded, or nil. AMQP "short strings" (names and most properties) hold at
    /// most 255 bytes; rabbitmq-c would find out only halfway through writing frames, breaking the connection.
    static func encodingProblem(_ message: AMQPMessage, exchange: String, routingKey: String) -> String? {
        let properties = message.properties
        let shortStrings: [(String, String?)] =
            [
                ("exchange", exchange), ("routing key", routingKey), ("content type", properties.contentType),
                ("correlation id", properties.correlationID), ("reply-to", properties.replyTo), ("message id", properties.messageID),
                ("type", properties.type),
            ] + properties.headers.keys.map { ("header name", $0) }
        for case let (name, value?) in shortStrings where value.utf8.count > 255 {
            return "the \(name) is \(value.utf8.count) bytes long; at most 255 are allowed"
        }
        return nil
    }

    /// Writes a message to the socket; with confirms on, the broker's answer arrives later as a frame.
    func publish(_ message: AMQPMessage, exchange: String, routingKey: String, mandatory: Bool) throws(AMQPError) {
        let arena = CArena()
        var properties = arena.properties(message.properties)
        let status = message.body.withUnsafeBytes { body in
            amqp_basic_publish(
                state,
                number,
                arena.bytes(exchange),
                arena.bytes(routingKey),
                mandatory ? 1 : 0,
                0,
                &properties,
                amqp_bytes_t(len: body.count, bytes: UnsafeMutableRawPointer(mutating: body.baseAddress))
            )
        }
        try Self.check(status, "basic.publish")
    }

    func ack(_ deliveryTag: UInt64) throws(AMQPError) {
        try Self.check(amqp_basic_ack(state, number, deliveryTag, 0), "basic.ack")
    }

    func nack(_ deliveryTag: UInt64, requeue: Bool) throws(AMQPError) {
        try Self.check(amqp_basic_nack(state, number, deliveryTag, 0, requeue ? 1 : 0), "basic.nack")
    }

    func reject(_ deliveryTag: UInt64, requeue: Bool) throws(AMQPError) {
        try Self.check(amqp_basic_reject(state, number, deliveryTag, requeue ? 1 : 0), "basic.reject")
    }

    /// The next frame if one can be read without waiting, else nil; also sends a heartbeat when one is due.
    ///
    /// With `checkingHeartbeat` it fails with `AMQP_STATUS_HEARTBEAT_TIMEOUT` when the broker has been silent
    /// for two intervals. That check needs a timeout above zero: rabbitmq-c treats zero as "immediately",
    /// which always wins over its heartbeat deadlines. But it rounds a positive timeout up to a millisecond
    /// of `poll`, so the check costs a millisecond and is made about once per poll interval, not on every read.
    func nextFrame(checkingHeartbeat: Bool = false) throws(AMQPError) -> amqp_frame_t? {
        var frame = amqp_frame_t()
        var timeout = timeval(tv_sec: 0, tv_usec: checkingHeartbeat ? 1 : 0)
        let status = amqp_simple_wait_frame_noblock(state, &frame, &timeout)
        if status == AMQP_STATUS_TIMEOUT.rawValue { return nil }
        try Self.check(status, "read frame")
        return frame
    }

    /// Reads the content (header and body frames) that follows a `basic.deliver` or `basic.return`.
    func readContent() throws(AMQPError) -> AMQPMessage {
        var message = amqp_message_t()
        try check(amqp_read_message(state, number, &message, 0), "read message")
        defer { amqp_destroy_message(&message) }
        return AMQPMessage(body: [UInt8](message.body), properties: AMQPProperties(message.properties))
    }

    /// Frees the memory of frames already handled; call when no frame is pending.
    func releaseBuffers() {
        amqp_maybe_release_buffers(state)
    }

    /// True when rabbitmq-c already holds bytes or frames, so waiting on the socket would be wrong.
    var hasBufferedInput: Bool {
        amqp_frames_enqueued(state) != 0 || amqp_data_in_buffer(state) != 0
    }

    /// The socket, for `poll`.
    var socketDescriptor: Int32 { amqp_get_sockfd(state) }

    // MARK: Errors

    /// The one place a rabbitmq-c status code becomes a Swift error.
    static func check(_ status: Int32, _ operation: String) throws(AMQPError) {
        guard status != AMQP_STATUS_OK.rawValue else { return }
        let text = String(cString: amqp_error_string2(status))
        switch status {
        case AMQP_STATUS_CONNECTION_CLOSED.rawValue, AMQP_STATUS_SOCKET_ERROR.rawValue, AMQP_STATUS_SOCKET_CLOSED.rawValue,
            AMQP_STATUS_HEARTBEAT_TIMEOUT.rawValue, AMQP_STATUS_TCP_ERROR.rawValue:
            throw .connectionLost("\(operation): \(text)")
        default:
            throw .library(operation: operation, status: status, text: text)
        }
    }

    private func checkReply(_ operation: String) throws(AMQPError) {
        try check(amqp_get_rpc_reply(state), operation)
    }

    /// Turns an RPC reply into success or an ``AMQPError``.
    private func check(_ reply: amqp_rpc_reply_t, _ operation: String) throws(AMQPError) {
        switch reply.reply_type {
        case AMQP_RESPONSE_NORMAL:
            return
        case AMQP_RESPONSE_LIBRARY_EXCEPTION:
            try Self.check(reply.library_error, operation)
            throw .library(operation: operation, status: reply.library_error, text: "unknown library error")
        case AMQP_RESPONSE_SERVER_EXCEPTION:
            throw Self.brokerClosed(method: reply.reply.id, decoded: reply.reply.decoded)
        default:
            throw .connectionLost("\(operation): the broker closed the socket")
        }
    }

    /// The error a `connection.close` or `channel.close` from the broker stands for.
    static func brokerClosed(method: amqp_method_number_t, decoded: UnsafeMutableRawPointer?) -> AMQPError {
        switch (method, decoded) {
        case (KIWI_AMQP_CONNECTION_CLOSE, let decoded?):
            let close = decoded.assumingMemoryBound(to: amqp_connection_close_t.self).pointee
            return .brokerClosed(code: Int(close.reply_code), text: String(close.reply_text))
        case (KIWI_AMQP_CHANNEL_CLOSE, let decoded?):
            let close = decoded.assumingMemoryBound(to: amqp_channel_close_t.self).pointee
            return .brokerClosed(code: Int(close.reply_code), text: String(close.reply_text))
        default:
            return .brokerClosed(code: 0, text: "unexpected method \(method)")
        }
    }
}
