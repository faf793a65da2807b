import CoreMetrics
import Foundation
import KiwiConcurrency
import KiwiMessaging
import KiwiTopology

/// How a gateway asks for the news of a scan another gateway started, while it watches that scan for a client of its
/// own. Real: ``ScanNewsBindings``; fake: `CountingScanNewsRouting`.
protocol ScanNewsRouting: Sendable {
    /// Returns once news of scan `id` reaches this gateway, or sooner when that cannot be soon (the subscription is
    /// down or reconnecting): then the watch hears of the scan on its next look, or when every watch is woken as the
    /// subscription is back.
    func listen(to id: UUID) async
    /// Undoes one ``listen(to:)``.
    func stopListening(to id: UUID)
}

/// Asks by binding this gateway's scan event subscription to the scan's news, whichever gateway started it
/// (``KiwiTopology/scanNewsBinding(of:instance:)``), until the last watch of the scan here ends.
struct ScanNewsBindings: ScanNewsRouting {
    let consumer: AMQPConsumer
    /// This gateway's instance id, which names its subscription.
    let instance: String
    let metrics: GatewayMetrics

    func listen(to id: UUID) async {
        metrics.scanNewsRequests.increment()
        await consumer.bindForWatch(KiwiTopology.scanNewsBinding(of: id, instance: instance))
    }

    func stopListening(to id: UUID) {
        consumer.unbind(KiwiTopology.scanNewsBinding(of: id, instance: instance))
    }
}

extension AMQPConsumer {
    /// How long a watch (of a scan or of a shopping list) waits for its binding: behind a reconnect the bind can take
    /// seconds, and a client following a scan or a list must not.
    static let watchBindPatience = Duration.seconds(2)

    /// Binds `binding` for a watch, waiting at most ``watchBindPatience``. Given up on, the bind still happens, and is
    /// undone by the watch's end like any other.
    func bindForWatch(_ binding: AMQPBinding) async {
        _ = try? await withDeadline(.now + Self.watchBindPatience) { await self.bind(binding) }
    }
}
