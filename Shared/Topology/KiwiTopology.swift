import KiwiMessaging

/// The names and shapes of Kiwi's own exchanges and queues (docs/architecture.md, "1. System overview").
public enum KiwiTopology {
    /// Scan jobs, consumed by every scan worker. Durable, so jobs survive a broker restart while it lasts;
    /// the messages themselves are never persistent.
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

    /// The job queue (``scanJobQueue`` unless tests name their own) with its dead-letter exchange and queue.
    public static func scanJobs(queue: String = scanJobQueue) -> AMQPTopology {
        let (exchange, deadLetters) = (deadLetterExchange(of: queue), deadLetterQueue(of: queue))
        return AMQPTopology(
            exchanges: [AMQPExchange(name: exchange, kind: .fanout)],
            queues: [
                AMQPQueue(name: deadLetters, messageTTL: deadLetterRetention, maxLengthBytes: deadLetterMaxBytes),
                AMQPQueue(name: queue, deadLetterExchange: exchange),
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

    /// An exclusive, self-deleting queue bound to the fan-out `exchange`, with the exchange itself.
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
