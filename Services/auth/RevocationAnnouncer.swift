import Foundation
import KiwiInternalAPI
import KiwiMessaging
import KiwiModels
import KiwiTopology
import Logging

/// Tells every gateway, through the revocation fan-out exchange, that sessions ended early.
///
/// The database is the truth: a revocation counts once its row is gone, and a gateway's cache holds a
/// session for only a few seconds. So an announcement that cannot be published is logged, not retried, and
/// never turns a successful sign-out into an error.
struct RevocationAnnouncer: Sendable {
    let publisher: AMQPPublisher
    let logger: Logger

    func announce(_ event: RevocationEvent) async {
        do {
            let body = try KiwiJSON.encoder().encode(event)
            try await publisher.publish(
                AMQPMessage(body: Array(body), properties: AMQPProperties(contentType: "application/json")),
                exchange: KiwiTopology.revocationExchange,
                routingKey: ""
            )
        } catch {
            logger.warning("could not announce a revocation; gateways drop it when their cache expires", metadata: ["error": "\(error)"])
        }
    }
}
