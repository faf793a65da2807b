import Foundation
import KiwiConcurrency
import KiwiDatabase
import KiwiScans
import KiwiTopology
import Logging

/// Tells a person's phones that one of their scans ended (docs/architecture.md, "Push notifications"). Each phone not
/// yet told gets one notification, recorded once APNs has taken it, so news handled twice (redelivered, or sent twice)
/// tells no phone twice. APNs busy or out of reach is waited out, with doubling waits, until the notification would
/// expire; a store out of reach likewise.
struct ScanEndNotifier: Sendable {
    let store: NotificationStore
    let apns: APNsClient
    let metrics: NotifierMetrics
    /// The waits between sends of a notification APNs did not take: 1 s doubling to a minute, each shortened by up to a
    /// quarter so that phones turned away together do not come back together.
    var apnsWaits = RetrySchedule.doubling(from: .seconds(1), upTo: .seconds(60), jitter: .shortening(byUpTo: 0.25))
    var now: @Sendable () -> Date = Date.init

    /// Tells the phones of the person whose scan `event` names, once it has ended; news of a scan still running, or
    /// gone, tells no one.
    func notify(of event: ScanEvent, logger: Logger) async {
        var logger = logger
        logger[metadataKey: "scanId"] = "\(event.scanID)"
        guard !event.state.isOpen else { return }
        let giveUp = ContinuousClock.now + KiwiTopology.notificationLifetime
        guard let scan = await storeRetrying("read the ended scan", until: giveUp, logger: logger, { try await store.endedScan(event.scanID) }) ?? nil
        else { return }
        let expiresAt = scan.endedAt.addingTimeInterval(KiwiTopology.notificationLifetime.seconds)
        guard
            let devices = await storeRetrying("read the person's devices", until: giveUp, logger: logger, { try await store.devicesToTell(of: scan) })
        else { return }
        await withTaskGroup(of: Void.self) { group in
            for device in devices {
                group.addTask { [logger] in
                    var logger = logger
                    logger[metadataKey: "device"] = "\(device.token)"
                    await tell(ScanEndNotification(scan: scan, device: device, expiresAt: expiresAt), logger: logger)
                }
            }
        }
    }

    /// Sends `notification` until APNs takes it, calls its token dead or refuses it, or it expires.
    private func tell(_ notification: ScanEndNotification, logger: Logger) async {
        var waits = apnsWaits.waits()
        while true {
            switch await apns.send(notification) {
            case .delivered:
                metrics.notification("sent")
                metrics.delivered(after: now().timeIntervalSince(notification.scan.endedAt))
                await storeRetrying("record the notification", until: .now + KiwiTopology.notificationLifetime, logger: logger) {
                    try await store.recordSent(notification.scan, to: notification.device.token)
                }
                return
            case .tokenGone(let reason):
                metrics.notification("token_gone")
                logger.info("APNs says the token reaches no app; forgetting it", metadata: ["reason": "\(reason)"])
                await storeRetrying("forget the token", until: .now + KiwiTopology.notificationLifetime, logger: logger) {
                    try await store.forget(notification.device.token, of: notification.scan.userID)
                }
                return
            case .providerTokenExpired:
                metrics.notification("refused")
                logger.error("APNs refused a provider token made just now as expired; is this machine's clock right?")
                return
            case .refused(let status, let reason):
                metrics.notification("refused")
                logger.warning("APNs refused the notification", metadata: ["status": "\(status)", "reason": "\(reason)"])
                return
            case .retryLater(let reason):
                let wait = waits.next()
                guard now().addingTimeInterval(wait.seconds) < notification.expiresAt else {
                    metrics.notification("expired")
                    logger.warning("gave up on a notification APNs did not take before it expired", metadata: ["reason": "\(reason)"])
                    return
                }
                metrics.notification("retried")
                logger.debug("APNs did not take the notification; trying again", metadata: ["reason": "\(reason)", "waitSeconds": "\(wait.seconds)"])
                guard (try? await Task.sleep(for: wait)) != nil else { return }
            }
        }
    }

    /// `operation`'s result, tried again while the store is out of reach, until `deadline`; nil, logged, if it never
    /// answered, or failed otherwise.
    @discardableResult
    private func storeRetrying<Value: Sendable>(
        _ what: String,
        until deadline: ContinuousClock.Instant,
        logger: Logger,
        _ operation: () async throws -> Value
    ) async -> Value? {
        do {
            return try await retrying(.storeOutage, until: deadline, isRetryable: { DatabaseFailure($0) == .outage }, operation: operation)
        } catch {
            logger.error("could not \(what); the scan's phones are not told", metadata: ["error": "\(error)"])
            return nil
        }
    }
}
