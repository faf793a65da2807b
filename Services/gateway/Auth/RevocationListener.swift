import Foundation
import KiwiInternalAPI
import KiwiMessaging
import KiwiModels
import Logging
import ServiceLifecycle

/// Applies the auth service's revocation broadcasts (sign-outs, account deletions) to this gateway's session
/// cache, so they take effect on every replica within moments. The subscription is this instance's own
/// exclusive queue on the fan-out exchange.
struct RevocationListener: Service {
    let consumer: AMQPConsumer
    let cache: SessionCache
    let logger: Logger

    func run() async {
        // The consumer outlives this service in the group's shutdown order, so stop listening on shutdown rather
        // than waiting for its deliveries to end.
        await cancelWhenGracefulShutdown {
            for await delivery in consumer.deliveries {
                guard let event = try? KiwiJSON.decoder().decode(RevocationEvent.self, from: Data(delivery.message.body)) else {
                    logger.warning("ignoring a revocation message that does not decode")
                    continue
                }
                cache.apply(event)
            }
        }
    }
}
