import Foundation
import KiwiMessaging
import KiwiTopology
import Logging
import ServiceLifecycle
import Synchronization

/// News that a kitchen's shopping list changed, sent by the gateway that changed it for every gateway that streams the
/// list (`GET /v1/shopping-list/events`). Real: ``AMQPShoppingListAnnouncer`` (the kitchen news exchange on RabbitMQ);
/// fake: `FakeShoppingListAnnouncer`.
protocol ShoppingListAnnouncer: Sendable {
    /// Tells every gateway streaming kitchen `kitchenID`'s list. Best effort: a stream that misses it reads the list
    /// again on its own (``ShoppingListNews/recheckInterval``).
    func announce(_ kitchenID: UUID) async
}

/// Publishes a kitchen's news to ``KiwiTopology/kitchenNewsExchange``, routed by the kitchen's id: the message is the
/// id alone, so a broker's disk never holds an item.
struct AMQPShoppingListAnnouncer: ShoppingListAnnouncer {
    let publisher: AMQPPublisher
    let logger: Logger

    func announce(_ kitchenID: UUID) async {
        do {
            // Not mandatory: a kitchen nobody streams has no queue bound, and that is no failure.
            try await publisher.publish(
                AMQPMessage(body: Array(kitchenID.uuidString.lowercased().utf8)),
                exchange: KiwiTopology.kitchenNewsExchange,
                routingKey: KiwiTopology.kitchenNewsKey(of: kitchenID),
                mandatory: false
            )
        } catch {
            logger.warning("could not announce a shopping list's change", metadata: ["error": "\(error)"])
        }
    }
}

/// The shopping list's live side: who streams which kitchen's list on this gateway, woken by news of a change, and
/// how news is sent (docs/architecture.md, "Households").
final class ShoppingListNews: Sendable {
    let announcer: any ShoppingListAnnouncer
    /// This gateway's instance id, which names its subscription.
    private let instance: String
    /// Bound to a kitchen while this gateway streams its list, and unbound after (``route(with:)``); nil in the router
    /// tests, whose announcer wakes this gateway's streams itself.
    private let consumer = Mutex<AMQPConsumer?>(nil)
    private let watchers = Mutex<[UUID: [ObjectIdentifier: ScanWatch]]>([:])

    /// How long a stream waits for news before it reads the list again anyway, and says it is still there.
    static let recheckInterval = Duration.seconds(10)

    init(announcer: any ShoppingListAnnouncer, instance: String = "") {
        self.announcer = announcer
        self.instance = instance
    }

    /// Asks for the news of each kitchen streamed here on `consumer`, this gateway's kitchen news subscription, made
    /// after this so that its loss can wake every stream.
    func route(with consumer: AMQPConsumer) {
        self.consumer.withLock { $0 = consumer }
    }

    /// How many kitchens' lists are streamed here now.
    var watchedKitchens: Int { watchers.withLock { $0.count } }

    /// Wakes every stream of kitchen `kitchenID` here.
    func wake(_ kitchenID: UUID) {
        for watch in watchers.withLock({ Array($0[kitchenID, default: [:]].values) }) { watch.wake() }
    }

    /// Wakes every stream here: news may have been lost while the subscription was down.
    func wakeAll() {
        for watch in watchers.withLock({ $0.values.flatMap(\.values) }) { watch.wake() }
    }

    /// Runs `body` with a watch that news of kitchen `kitchenID` wakes (the same waiting as a scan's: news that came
    /// together wakes it once), bound for the kitchen's news while it runs.
    func watching<Result>(_ kitchenID: UUID, _ body: (ScanWatch) async throws -> Result) async throws -> Result {
        let watch = ScanWatch(interest: .everyState)
        watchers.withLock { $0[kitchenID, default: [:]][ObjectIdentifier(watch)] = watch }
        let binding = KiwiTopology.kitchenNewsBinding(of: kitchenID, instance: instance)
        let consumer = self.consumer.withLock { $0 }
        await consumer?.bindForWatch(binding)
        defer {
            watchers.withLock { watchers in
                watchers[kitchenID]?[ObjectIdentifier(watch)] = nil
                if watchers[kitchenID]?.isEmpty == true { watchers[kitchenID] = nil }
            }
            consumer?.unbind(binding)
        }
        return try await body(watch)
    }
}

/// Feeds this gateway's ``ShoppingListNews`` from its kitchen news subscription.
struct ShoppingListNewsListener: Service {
    let consumer: AMQPConsumer
    let news: ShoppingListNews
    let logger: Logger

    func run() async {
        await cancelWhenGracefulShutdown {
            for await delivery in consumer.deliveries {
                guard let kitchenID = UUID(uuidString: String(decoding: delivery.message.body, as: UTF8.self)) else {
                    logger.warning("ignoring a kitchen news message that names no kitchen")
                    continue
                }
                news.wake(kitchenID)
            }
        }
    }
}
