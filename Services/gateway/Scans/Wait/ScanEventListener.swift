import KiwiMessaging
import KiwiScanMessages
import KiwiScans
import Logging
import ServiceLifecycle

/// Feeds this gateway's ``ScanEventHub`` from its subscription to scan events (``AMQPConsumer/scanEvents``).
struct ScanEventListener: Service {
    let consumer: AMQPConsumer
    let hub: ScanEventHub
    let logger: Logger

    func run() async {
        // The consumer outlives this service in the group's shutdown order, so stop listening on shutdown rather
        // than waiting for its deliveries to end.
        await cancelWhenGracefulShutdown {
            for await delivery in consumer.deliveries {
                guard let event = ScanEvent(message: delivery.message) else {
                    logger.warning("ignoring a scan event message that does not decode")
                    continue
                }
                hub.wake(event)
            }
        }
    }
}
