import Foundation
import KiwiMessaging
import KiwiScanMessages
import KiwiScans
import Logging
import ServiceLifecycle

/// Takes scan news from the notifier's queue and has ``ScanEndNotifier`` tell the phones, `concurrency` pieces of news
/// at a time (the prefetch bounds one connection's; after a reconnect the old connection's may still be running).
/// A piece is acknowledged once its phones were told or given up on; at shutdown, what is still in hand (a phone
/// waiting for APNs) is left unacknowledged, and the broker gives it to another notifier, whose record of the phones
/// already told keeps them from being told again.
final class ScanNewsProcessor: Service, Sendable {
    private let consumer: AMQPConsumer
    private let notifier: ScanEndNotifier
    private let concurrency: Int
    private let logger: Logger

    init(consumer: AMQPConsumer, notifier: ScanEndNotifier, concurrency: Int, logger: Logger) {
        self.consumer = consumer
        self.notifier = notifier
        self.concurrency = concurrency
        self.logger = logger
    }

    func run() async throws {
        await withTaskGroup(of: Void.self) { group in
            await withGracefulShutdownHandler {
                var running = 0
                for await delivery in consumer.deliveries {
                    if running >= concurrency {
                        await group.next()
                        running -= 1
                    }
                    group.addTask { await self.process(delivery) }
                    running += 1
                }
            } onGracefulShutdown: {
                self.logger.info("no longer taking scan news; news in hand goes back to the queue")
                self.consumer.stopConsuming()
            }
            // The deliveries end once consuming stopped: what still waits for APNs stops now, unacknowledged.
            group.cancelAll()
        }
    }

    private func process(_ delivery: AMQPDelivery) async {
        if let event = ScanEvent(message: delivery.message) {
            await notifier.notify(of: event, logger: logger)
        } else {
            logger.warning("dropped a message on the notifier's queue that is not scan news")
        }
        guard !Task.isCancelled else { return }
        do {
            try await delivery.ack()
        } catch {
            logger.warning("could not acknowledge scan news; the broker will deliver it again", metadata: ["error": "\(error)"])
        }
    }
}
