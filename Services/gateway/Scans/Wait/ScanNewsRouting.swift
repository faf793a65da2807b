import CoreMetrics
import Foundation
import KiwiMessaging
import KiwiTopology

/// How a gateway asks for the news of a scan another gateway started, while it watches that scan for a client of its
/// own. Real: ``ScanNewsBindings``; fake: `CountingScanNewsRouting`.
protocol ScanNewsRouting: Sendable {
    /// Returns once news of scan `id` reaches this gateway, or at once while the subscription is down (every watch is
    /// woken when it is back).
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
        await consumer.bind(KiwiTopology.scanNewsBinding(of: id, instance: instance))
    }

    func stopListening(to id: UUID) {
        consumer.unbind(KiwiTopology.scanNewsBinding(of: id, instance: instance))
    }
}
