import Logging
import ServiceLifecycle

/// Deletes expired sessions every `interval`, until the service group shuts down.
struct ExpiredSessionPurger: Service {
    let sessions: any SessionRepository
    let interval: Duration
    let logger: Logger

    func run() async throws {
        do {
            try await cancelWhenGracefulShutdown {
                while true {
                    try await Task.sleep(for: interval)
                    do {
                        let purged = try await sessions.purgeExpired()
                        if purged > 0 { logger.info("purged expired sessions", metadata: ["count": "\(purged)"]) }
                    } catch {
                        logger.warning("could not purge expired sessions", metadata: ["error": "\(error)"])
                    }
                }
            }
        } catch is CancellationError {
            return
        }
    }
}
