import Foundation
import KiwiMessaging
import KiwiModels
import KiwiScans
import KiwiTopology
import Logging

/// A ``ScanEvent`` as a message on ``KiwiTopology/scanNewsExchange``: its JSON, not persisted.
extension ScanEvent {
    /// The event as a message body (JSON).
    public var message: AMQPMessage {
        // Encoding a plain value type with string keys cannot fail.
        AMQPMessage(body: Array(try! KiwiJSON.encoder().encode(self)), properties: AMQPProperties(contentType: "application/json", persistent: false))
    }

    /// Reads an event from a message; nil for one that is not an event.
    public init?(message: AMQPMessage) {
        guard let event = try? KiwiJSON.decoder().decode(Self.self, from: Data(message.body)) else { return nil }
        self = event
    }
}

/// Publishes ``ScanEvent``s. Best effort: the record is already written, and a gateway that misses an event reads
/// the record again on its own within seconds (``ScanEventHub``), so a failed announcement is logged, not retried.
public struct ScanEventAnnouncer: Sendable {
    let publisher: AMQPPublisher
    let logger: Logger

    public init(publisher: AMQPPublisher, logger: Logger) {
        self.publisher = publisher
        self.logger = logger
    }

    /// Announces `event` to `gateway`, the instance that started the scan (nil: to every gateway), and to any gateway
    /// watching the scan for a client of its own.
    public func announce(_ event: ScanEvent, startedBy gateway: String?) async {
        do {
            let key = KiwiTopology.scanNewsKey(of: event.scanID, startedBy: gateway)
            try await publisher.publish(event.message, exchange: KiwiTopology.scanNewsExchange, routingKey: key, mandatory: false)
        } catch {
            logger.warning(
                "could not announce a scan's new state; gateways read it on their next look",
                metadata: ["scanId": "\(event.scanID)", "state": "\(event.state.rawValue)", "error": "\(error)"]
            )
        }
    }
}

extension AMQPConsumer {
    /// Gateway `instance`'s subscription to scan events (``KiwiTopology/scanEventSubscription(instance:)``): news of the
    /// scans it started, news for every gateway, and what it binds for the scans it watches. Its messages are counted
    /// delivered as sent: an event only says when to read a record again, so none is worth redelivering.
    public static func scanEvents(
        settings: AMQPSettings,
        instance: String,
        logger: Logger,
        connectionLost: @escaping @Sendable (AMQPError) -> Void = { _ in },
        consuming: @escaping @Sendable () -> Void = {}
    ) -> AMQPConsumer {
        let subscription = KiwiTopology.scanEventSubscription(instance: instance)
        return AMQPConsumer(
            settings: settings,
            queue: subscription.queue,
            prefetch: 0,
            autoAck: true,
            topology: subscription.topology,
            logger: logger,
            connectionLost: connectionLost,
            consuming: consuming
        )
    }
}
