import KiwiMessaging

/// The names and shapes of Kiwi's own exchanges and queues (docs/architecture.md, "1. System overview").
public enum KiwiTopology {
    /// Scan jobs, consumed by every scan worker: a quorum queue, replicated on every node of the cluster, so jobs
    /// survive the loss of a minority of nodes (and are written to disk, which is why their photos are sealed).
    public static let scanJobQueue = "kiwi.scan.jobs"
    /// Session revocations, fanned out to every gateway.
    public static let revocationExchange = "kiwi.sessions.revoked"
    /// Scans' state changes, fanned out to every gateway.
    public static let scanEventExchange = "kiwi.scans.events"

    /// Where jobs of `queue` that were rejected as poison, or expired unanswered, go.
    public static func deadLetterExchange(of queue: String = scanJobQueue) -> String { "\(queue).dead-letter" }
    /// The queue that keeps dead-lettered jobs of `queue` for an operator to look at.
    public static func deadLetterQueue(of queue: String = scanJobQueue) -> String { "\(queue).dead" }
    /// Dead-lettered jobs still carry a photo, so they are kept only briefly and within a memory budget.
    public static let deadLetterRetention = Duration.seconds(3600)
    public static let deadLetterMaxBytes = 64 * 1024 * 1024
    /// How often a job may go back to the queue before the broker dead-letters it instead of delivering it again
    /// (`x-delivery-limit`). A job goes back only when the connection of the worker holding it is lost: the worker
    /// killed, cut off, or its node lost. Five covers a rolling restart of a three-node cluster plus two worker deaths
    /// within one job's life, and bounds a job that kills every worker that takes it (a photo that crashes the
    /// decoder) to six deliveries, where the classic queue redelivered it until its deadline.
    public static let jobDeliveryLimit = 5
    /// Why a job queue declaration is refused on a broker that still has the classic queues of earlier versions.
    static let quorumMigration =
        "this version declares it as a quorum queue; a queue of that name declared otherwise (the classic queue of "
        + "an earlier version) must be drained and deleted first: docs/operations.md §8, \"Moving a running deployment "
        + "to quorum queues\""

    /// The job queue (``scanJobQueue`` unless tests name their own) with its dead-letter exchange and queue, both
    /// quorum queues. A one-node broker declares the same: a quorum queue of one works.
    public static func scanJobs(queue: String = scanJobQueue) -> AMQPTopology {
        let (exchange, deadLetters) = (deadLetterExchange(of: queue), deadLetterQueue(of: queue))
        return AMQPTopology(
            exchanges: [AMQPExchange(name: exchange, kind: .fanout)],
            queues: [
                AMQPQueue(
                    name: deadLetters,
                    kind: .quorum,
                    messageTTL: deadLetterRetention,
                    maxLengthBytes: deadLetterMaxBytes,
                    mismatchAdvice: quorumMigration
                ),
                AMQPQueue(
                    name: queue,
                    kind: .quorum,
                    deadLetterExchange: exchange,
                    deliveryLimit: jobDeliveryLimit,
                    mismatchAdvice: quorumMigration
                ),
            ],
            bindings: [AMQPBinding(queue: deadLetters, exchange: exchange)]
        )
    }

    /// The revocation exchange alone, for whoever publishes revocations (the auth service).
    public static var revocations: AMQPTopology {
        AMQPTopology(exchanges: [AMQPExchange(name: revocationExchange, kind: .fanout)])
    }

    /// One gateway instance's subscription to revocations: its exclusive queue bound to the exchange.
    /// Declare it only on the connection that consumes the queue.
    public static func revocationSubscription(instance: String) -> (queue: String, topology: AMQPTopology) {
        subscription(named: "kiwi.gateway.\(instance).revocations", to: revocationExchange)
    }

    /// The scan event exchange alone, for whoever publishes scan events (workers and gateways).
    public static var scanEvents: AMQPTopology {
        AMQPTopology(exchanges: [AMQPExchange(name: scanEventExchange, kind: .fanout)])
    }

    /// One gateway instance's subscription to scan events: its exclusive queue bound to the exchange.
    /// Declare it only on the connection that consumes the queue.
    public static func scanEventSubscription(instance: String) -> (queue: String, topology: AMQPTopology) {
        subscription(named: "kiwi.gateway.\(instance).scan-events", to: scanEventExchange)
    }

    /// An exclusive, self-deleting queue bound to the fan-out `exchange`, with the exchange itself. Classic: it belongs
    /// to one connection anyway, and is declared again, on whichever node, when that connection is replaced.
    private static func subscription(named queue: String, to exchange: String) -> (queue: String, topology: AMQPTopology) {
        (
            queue,
            AMQPTopology(
                exchanges: [AMQPExchange(name: exchange, kind: .fanout)],
                queues: [AMQPQueue(name: queue, durable: false, exclusive: true, autoDelete: true)],
                bindings: [AMQPBinding(queue: queue, exchange: exchange)]
            )
        )
    }
}
