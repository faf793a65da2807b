import CoreMetrics
import Logging
import ServiceLifecycle
import Synchronization

/// Publishes messages and returns only once RabbitMQ has confirmed each one.
///
/// Many tasks may publish at once; they share one connection (with publisher confirms) on its own thread.
/// A message the broker refuses (`basic.nack`), one that matches no queue while `mandatory`, and one whose
/// connection drops before its confirm all end in an ``AMQPError``; no call waits forever, and cancelling
/// the calling task ends the wait for the confirm.
public final class AMQPPublisher: Service, Sendable {
    private let link: AMQPLink
    private let confirms: ConfirmTracker
    private let metrics: AMQPMetrics
    private let tickets = Atomic<UInt64>(0)

    /// A publisher that declares `topology` every time it connects.
    public init(settings: AMQPSettings, topology: AMQPTopology = AMQPTopology(), logger: Logger) {
        let metrics = AMQPMetrics(connection: settings.connectionName)
        let confirms = ConfirmTracker(metrics: metrics)
        self.confirms = confirms
        self.metrics = metrics
        self.link = AMQPLink(
            settings: settings,
            role: AMQPLink.Role(
                setUp: { channel throws(AMQPError) in
                    try channel.declare(topology)
                    try channel.enableConfirms()
                    confirms.reset()
                },
                handle: { channel, method throws(AMQPError) in
                    try confirms.handle(method, channel)
                },
                connectionLost: { error in confirms.failAll(error) }
            ),
            metrics: metrics,
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
        try Task.checkCancellation()
        if let problem = AMQPChannel.encodingProblem(message, exchange: exchange, routingKey: routingKey) {
            throw AMQPError.invalidMessage(problem)
        }
        let ticket = tickets.wrappingAdd(1, ordering: .relaxed).newValue
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                link.submit { [confirms, metrics] channel throws(AMQPError) in
                    guard let channel else { return continuation.resume(throwing: AMQPError.notConnected) }
                    guard !channel.isBlocked else { return continuation.resume(throwing: AMQPError.blocked) }
                    var numbered = message
                    numbered.properties.headers[ConfirmTracker.sequenceHeader] = String(confirms.nextSequenceNumber)
                    do throws(AMQPError) {
                        try channel.publish(numbered, exchange: exchange, routingKey: routingKey, mandatory: mandatory)
                    } catch {
                        continuation.resume(throwing: error)
                        throw error
                    }
                    metrics.publishes.increment()
                    confirms.expect(continuation, ticket: ticket)
                }
            }
        } onCancel: {
            // Commands run in order, so this runs after the publish command above.
            link.submit { [confirms] _ in confirms.cancel(ticket) }
        }
    }

    /// How many consumers the existing queue `queue` has now (a passive `queue.declare` on this connection).
    public func consumerCount(of queue: String) async throws -> Int {
        try await link.perform { channel throws(AMQPError) in try channel.counts(of: queue).consumers }
    }

    /// How many messages the existing queue `queue` holds ready for delivery now (a passive `queue.declare` on this
    /// connection): once no consumer holds any unacknowledged, every message it holds.
    public func readyMessageCount(of queue: String) async throws -> Int {
        try await link.perform { channel throws(AMQPError) in try channel.counts(of: queue).readyMessages }
    }

    /// Runs the connection until graceful shutdown; in-flight publishes then fail with ``AMQPError/shutDown``. Throws
    /// ``AMQPError/declarationRefused(_:)`` when the broker refuses the topology, which no reconnection can fix.
    public func run() async throws {
        try await link.run()
    }
}

/// The publishes awaiting the broker's confirm, by sequence number.
///
/// `@unchecked Sendable` because it is only ever touched on its link's thread (inside the link's role
/// closures and commands), which serialises every access; it needs no lock of its own. (A command
/// submitted after the link stopped runs on the caller's thread, but by then the link thread has ended.)
final class ConfirmTracker: @unchecked Sendable {
    /// Carries each message's sequence number, so a `basic.return` names exactly the publish it belongs to
    /// (confirms may cover several messages at once). Consumers in this module remove it again.
    static let sequenceHeader = "x-kiwi-publish-sequence"

    private let metrics: AMQPMetrics
    private(set) var nextSequenceNumber: UInt64 = 1
    private var oldestUnsettled: UInt64 = 1
    private var pending: [UInt64: (ticket: UInt64, continuation: CheckedContinuation<Void, any Error>)] = [:]
    private var sequenceByTicket: [UInt64: UInt64] = [:]
    /// Messages the broker returned as unroutable; their confirm, when it comes, fails them.
    private var returned: [UInt64: AMQPError] = [:]

    init(metrics: AMQPMetrics) {
        self.metrics = metrics
    }

    /// A fresh channel in confirm mode numbers its messages from 1 again.
    func reset() {
        nextSequenceNumber = 1
        oldestUnsettled = 1
        returned = [:]
    }

    func expect(_ continuation: CheckedContinuation<Void, any Error>, ticket: UInt64) {
        pending[nextSequenceNumber] = (ticket, continuation)
        sequenceByTicket[ticket] = nextSequenceNumber
        nextSequenceNumber += 1
    }

    /// The caller stopped waiting (its task was cancelled): resume it now; a later confirm finds nothing.
    func cancel(_ ticket: UInt64) {
        guard let sequence = sequenceByTicket.removeValue(forKey: ticket), let entry = pending.removeValue(forKey: sequence) else { return }
        entry.continuation.resume(throwing: CancellationError())
    }

    func handle(_ method: AMQPMethod, _ channel: AMQPChannel) throws(AMQPError) {
        switch method {
        case .acknowledged(let deliveryTag, let multiple):
            settle(upTo: deliveryTag, multiple: multiple) { sequence in
                guard let error = returned.removeValue(forKey: sequence) else {
                    metrics.acknowledged.increment()
                    return .success(())
                }
                metrics.unroutable.increment()
                return .failure(error)
            }
        case .refused(let deliveryTag, let multiple):
            settle(upTo: deliveryTag, multiple: multiple) { sequence in
                returned[sequence] = nil
                metrics.refused.increment()
                return .failure(.nacked)
            }
        case .returned(let replyCode, let replyText):
            let error = AMQPError.unroutable(replyCode: replyCode, replyText: replyText)
            let content = try channel.readContent()
            if let sequence = content.properties.headers[Self.sequenceHeader].flatMap(UInt64.init) { returned[sequence] = error }
        default:
            break
        }
    }

    func failAll(_ error: AMQPError) {
        let failed = pending.values
        pending = [:]
        sequenceByTicket = [:]
        returned = [:]
        for entry in failed { entry.continuation.resume(throwing: error) }
    }

    /// Resolves the confirmed publishes: the one with `tag`, or with `multiple` every one up to it.
    /// Sequence numbers only grow, so a multiple confirm walks from the oldest unsettled one.
    private func settle(upTo tag: UInt64, multiple: Bool, outcome: (UInt64) -> Result<Void, AMQPError>) {
        let first = multiple ? oldestUnsettled : tag
        guard first <= tag else { return }
        for sequence in first...tag {
            let result = outcome(sequence)
            guard let entry = pending.removeValue(forKey: sequence) else { continue }
            sequenceByTicket[entry.ticket] = nil
            entry.continuation.resume(with: result.mapError { $0 as any Error })
        }
        while oldestUnsettled < nextSequenceNumber, pending[oldestUnsettled] == nil { oldestUnsettled += 1 }
    }
}
