import Foundation
import KiwiMessaging

/// The names and shapes of Kiwi's own exchanges and queues (docs/architecture.md, "1. System overview").
public enum KiwiTopology {
    /// Scan jobs, consumed by every scan worker: a quorum queue, replicated on every node of the cluster, so jobs
    /// survive the loss of a minority of nodes (and are written to disk, which is why their photos are sealed).
    public static let scanJobQueue = "kiwi.scan.jobs"
    /// Session revocations, fanned out to every gateway.
    public static let revocationExchange = "kiwi.sessions.revoked"
    /// Scans' state changes, routed by `<gateway>.<scan id>` (``scanNewsKey(of:startedBy:)``): each gateway hears the
    /// scans it started, any other scan only while it watches it (``scanNewsBinding(of:instance:)``), and the news that
    /// gateways send (``everyGateway``). So a gateway's share of the news stays the same however many there are
    /// (docs/architecture.md, "Scan events").
    public static let scanNewsExchange = "kiwi.scans.news"
    /// The fan-out exchange of the release before ``scanNewsExchange``, whose gateways subscribe to it: it is handed all
    /// of the news while they may still run (a rolling upgrade), and costs a routing of nothing once they are gone
    /// (docs/operations.md, "Upgrading").
    public static let scanEventExchange = "kiwi.scans.events"
    /// The routing word of news for every gateway: news a gateway sends (a cancellation, a sweep), and news of a scan
    /// whose job names no gateway (one a gateway of the release before started).
    public static let everyGateway = "all"

    /// The notifier's queue of scan news (docs/architecture.md, "Push notifications"): every scan's news waits here, on
    /// every node, while no notifier runs or APNs is down, and each is taken by one notifier.
    public static let notificationQueue = "kiwi.notifier.scan-news"
    /// How long news waits for a notifier: a phone told of a scan an hour after it ended has long been opened, and
    /// APNs is told the same (`apns-expiration`).
    public static let notificationLifetime = Duration.seconds(3600)

    /// Changes to a kitchen's shopping list, routed by the kitchen's id: a gateway hears of a kitchen only while it
    /// streams that kitchen's list to a client (``kitchenNewsBinding(of:instance:)``), so its share of the news stays
    /// the same however many gateways there are (docs/architecture.md, "Households").
    public static let kitchenNewsExchange = "kiwi.kitchens.news"

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
    /// quorum queues. A one-node broker declares the same: a quorum queue of one works. `kind` is `classic` only in a
    /// benchmark leg that measures what the quorum queue costs (``BenchOmissions``): a classic queue has no delivery
    /// limit.
    public static func scanJobs(queue: String = scanJobQueue, kind: AMQPQueue.Kind = .quorum) -> AMQPTopology {
        let (exchange, deadLetters) = (deadLetterExchange(of: queue), deadLetterQueue(of: queue))
        return AMQPTopology(
            exchanges: [AMQPExchange(name: exchange, kind: .fanout)],
            queues: [
                AMQPQueue(
                    name: deadLetters,
                    kind: kind,
                    messageTTL: deadLetterRetention,
                    maxLengthBytes: deadLetterMaxBytes,
                    mismatchAdvice: quorumMigration
                ),
                AMQPQueue(
                    name: queue,
                    kind: kind,
                    deadLetterExchange: exchange,
                    deliveryLimit: kind == .quorum ? jobDeliveryLimit : nil,
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

    /// The scan news exchange, for whoever publishes scan events (workers and gateways), bound to the fan-out exchange
    /// of the release before for its gateways.
    public static var scanEvents: AMQPTopology {
        AMQPTopology(
            exchanges: [AMQPExchange(name: scanNewsExchange, kind: .topic), AMQPExchange(name: scanEventExchange, kind: .fanout)],
            exchangeBindings: [AMQPExchangeBinding(destination: scanEventExchange, source: scanNewsExchange, routingKey: "#")]
        )
    }

    /// One gateway instance's subscription to scan events: its exclusive queue, bound for the news of the scans it
    /// started and the news for every gateway. Declare it only on the connection that consumes the queue.
    public static func scanEventSubscription(instance: String) -> (queue: String, topology: AMQPTopology) {
        let queue = scanEventQueue(of: instance)
        return (
            queue,
            AMQPTopology(
                exchanges: [AMQPExchange(name: scanNewsExchange, kind: .topic)],
                queues: [AMQPQueue(name: queue, durable: false, exclusive: true, autoDelete: true)],
                bindings: [instance, everyGateway].map { AMQPBinding(queue: queue, exchange: scanNewsExchange, routingKey: "\($0).*") }
            )
        )
    }

    /// The notifier's quorum queue (``notificationQueue`` unless tests name their own), bound to the news of every scan
    /// however it is routed, with the exchange. News older than ``notificationLifetime`` expires, within a memory
    /// budget, so that a notifier stopped for good leaves no queue growing; news that keeps failing its notifier (every
    /// delivery limit spent) is dropped with the reason logged by the notifier that saw it fail.
    public static func scanNotifications(queue: String = notificationQueue) -> AMQPTopology {
        AMQPTopology(
            exchanges: [AMQPExchange(name: scanNewsExchange, kind: .topic)],
            queues: [
                AMQPQueue(
                    name: queue,
                    kind: .quorum,
                    messageTTL: notificationLifetime,
                    maxLengthBytes: 64 * 1024 * 1024,
                    deliveryLimit: jobDeliveryLimit
                )
            ],
            bindings: [AMQPBinding(queue: queue, exchange: scanNewsExchange, routingKey: "#")]
        )
    }

    /// The kitchen news exchange, for whoever publishes a list's change (the gateways).
    public static var kitchenNews: AMQPTopology {
        AMQPTopology(exchanges: [AMQPExchange(name: kitchenNewsExchange, kind: .topic)])
    }

    /// One gateway instance's subscription to kitchen news: its exclusive queue, bound to nothing until the gateway
    /// streams a kitchen's list (``kitchenNewsBinding(of:instance:)``). Declare it only on the connection that
    /// consumes the queue.
    public static func kitchenNewsSubscription(instance: String) -> (queue: String, topology: AMQPTopology) {
        let queue = kitchenNewsQueue(of: instance)
        return (
            queue,
            AMQPTopology(
                exchanges: [AMQPExchange(name: kitchenNewsExchange, kind: .topic)],
                queues: [AMQPQueue(name: queue, durable: false, exclusive: true, autoDelete: true)]
            )
        )
    }

    /// The binding that brings gateway `instance` the news of kitchen `kitchenID`, while it streams that list.
    public static func kitchenNewsBinding(of kitchenID: UUID, instance: String) -> AMQPBinding {
        AMQPBinding(queue: kitchenNewsQueue(of: instance), exchange: kitchenNewsExchange, routingKey: kitchenNewsKey(of: kitchenID))
    }

    /// The routing key of news of kitchen `kitchenID`.
    public static func kitchenNewsKey(of kitchenID: UUID) -> String { kitchenID.uuidString.lowercased() }

    /// The binding that brings gateway `instance` the news of scan `scanID` wherever it started: added while the
    /// gateway watches a scan it did not start (``AMQPConsumer/bind(_:)``).
    public static func scanNewsBinding(of scanID: UUID, instance: String) -> AMQPBinding {
        AMQPBinding(queue: scanEventQueue(of: instance), exchange: scanNewsExchange, routingKey: "*.\(routingWord(scanID))")
    }

    /// The routing key of news of scan `scanID`: the gateway that started it, then the scan. Without a gateway, or with
    /// a name no key can hold (``isGatewayName(_:)``), the news goes to ``everyGateway``.
    public static func scanNewsKey(of scanID: UUID, startedBy gateway: String?) -> String {
        "\(gateway.flatMap { isGatewayName($0) ? $0 : nil } ?? everyGateway).\(routingWord(scanID))"
    }

    /// Whether `name` can stand for a gateway in a routing key: a gateway's instance id (a UUID), or any short word of
    /// letters, digits and `-`, which no topic pattern (`*`, `#`) or separator (`.`) can be mistaken in.
    public static func isGatewayName(_ name: String) -> Bool {
        (1...64).contains(name.utf8.count)
            && name.utf8.allSatisfy { byte in
                byte == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                    || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            }
    }

    private static func scanEventQueue(of instance: String) -> String { "kiwi.gateway.\(instance).scan-events" }

    private static func kitchenNewsQueue(of instance: String) -> String { "kiwi.gateway.\(instance).kitchen-news" }

    private static func routingWord(_ scanID: UUID) -> String { scanID.uuidString.lowercased() }

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
