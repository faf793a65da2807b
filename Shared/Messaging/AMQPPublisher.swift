import CRabbitMQ
import Logging
import ServiceLifecycle
import Synchronization

/// Publishes messages and returns only once RabbitMQ has confirmed each one.
///
/// Many tasks may publish at once; they share one connection (with publisher confirms) on its own thread.
/// A message the broker refuses (`basic.nack`), one that matches no queue while `mandatory`, and one whose
/// connection drops before its confirm all end in an ``AMQPError``; no call waits forever.
public final class AMQPPublisher: Service, Sendable {
    private let link: AMQPLink
    private let confirms: ConfirmTracker

    /// A publisher that declares `topology` every time it connects.
    public init(settings: AMQPSettings, topology: AMQPTopology = AMQPTopology(), logger: Logger) {
        let confirms = ConfirmTracker()
        self.confirms = confirms
        self.link = AMQPLink(
            settings: settings,
            role: AMQPLink.Role(
                setUp: { channel throws(AMQPError) in
                    try channel.declare(topology)
                    try channel.enableConfirms()
                    confirms.reset()
                },
                handle: { channel, method, decoded throws(AMQPError) in
                    try confirms.handle(method, decoded, channel)
                },
                connectionLost: { error in confirms.failAll(error) }
            ),
            logger: logger
        )
    }

    /// True while connected: part of the service's readiness.
    public var isConnected: Bool { link.isConnected }

    /// Returns once connected (or shut down); useful before the first publish at start-up.
    public func waitUntilConnected() async {
        await link.waitUntilConnected()
    }

    /// Publishes `message` and returns when the broker has taken responsibility for it.
    /// - Parameter mandatory: fail with ``AMQPError/unroutable(replyCode:replyText:)`` when no queue gets the message.
    public func publish(_ message: AMQPMessage, exchange: String = "", routingKey: String, mandatory: Bool = true) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            link.submit { [confirms] channel throws(AMQPError) in
                guard let channel else { return continuation.resume(throwing: AMQPError.notConnected) }
                do throws(AMQPError) {
                    try channel.publish(message, exchange: exchange, routingKey: routingKey, mandatory: mandatory)
                } catch {
                    continuation.resume(throwing: error)
                    throw error
                }
                confirms.expect(continuation)
            }
        }
    }

    /// Publishes `reply` to the queue `request` names in `reply_to`, with the request's correlation id.
    /// Throws ``AMQPError/unroutable(replyCode:replyText:)`` when that queue is gone (its requester stopped).
    public func reply(to request: AMQPMessage, with reply: AMQPMessage) async throws {
        guard let replyTo = request.properties.replyTo else { throw AMQPError.unroutable(replyCode: 0, replyText: "the request has no reply_to") }
        var reply = reply
        reply.properties.correlationID = request.properties.correlationID
        try await publish(reply, routingKey: replyTo)
    }

    /// Runs the connection until graceful shutdown; in-flight publishes then fail with ``AMQPError/shutDown``.
    public func run() async {
        await link.run()
    }
}

/// The publishes awaiting the broker's confirm, by sequence number.
///
/// `@unchecked Sendable` because it is only ever touched on its link's thread (inside the link's role
/// closures and commands), which serialises every access; it needs no lock of its own.
private final class ConfirmTracker: @unchecked Sendable {
    private var nextSequenceNumber: UInt64 = 1
    private var oldestUnsettled: UInt64 = 1
    private var pending: [UInt64: CheckedContinuation<Void, any Error>] = [:]
    /// A `basic.return` comes just before the confirm of the same message: it decides how that confirm ends.
    private var returned: AMQPError?

    /// A fresh channel in confirm mode numbers its messages from 1 again.
    func reset() {
        nextSequenceNumber = 1
        oldestUnsettled = 1
        returned = nil
    }

    func expect(_ continuation: CheckedContinuation<Void, any Error>) {
        pending[nextSequenceNumber] = continuation
        nextSequenceNumber += 1
    }

    func handle(_ method: amqp_method_number_t, _ decoded: UnsafeMutableRawPointer?, _ channel: AMQPChannel) throws(AMQPError) {
        guard let decoded else { return }
        switch method {
        case KIWI_AMQP_BASIC_ACK:
            let ack = decoded.assumingMemoryBound(to: amqp_basic_ack_t.self).pointee
            let returned = returned
            settle(upTo: ack.delivery_tag, multiple: ack.multiple != 0) { tag in
                tag == ack.delivery_tag ? returned.map { .failure($0) } ?? .success(()) : .success(())
            }
        case KIWI_AMQP_BASIC_NACK:
            let nack = decoded.assumingMemoryBound(to: amqp_basic_nack_t.self).pointee
            settle(upTo: nack.delivery_tag, multiple: nack.multiple != 0) { _ in .failure(.nacked) }
        case KIWI_AMQP_BASIC_RETURN:
            let returnMethod = decoded.assumingMemoryBound(to: amqp_basic_return_t.self).pointee
            _ = try channel.readContent()
            returned = .unroutable(replyCode: Int(returnMethod.reply_code), replyText: String(returnMethod.reply_text))
        default:
            break
        }
    }

    func failAll(_ error: AMQPError) {
        let failed = pending.values
        pending = [:]
        returned = nil
        for continuation in failed { continuation.resume(throwing: error) }
    }

    /// Resolves the confirmed publishes: the one with `tag`, or with `multiple` every one up to it.
    /// Sequence numbers only grow, so a multiple confirm walks from the oldest unsettled one.
    private func settle(upTo tag: UInt64, multiple: Bool, outcome: (UInt64) -> Result<Void, AMQPError>) {
        returned = nil
        let first = multiple ? oldestUnsettled : tag
        guard first <= tag else { return }
        for settled in first...tag {
            pending.removeValue(forKey: settled)?.resume(with: outcome(settled).mapError { $0 as any Error })
        }
        while oldestUnsettled < nextSequenceNumber, pending[oldestUnsettled] == nil { oldestUnsettled += 1 }
    }
}
