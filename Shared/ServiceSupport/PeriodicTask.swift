import KiwiConcurrency
import Logging
import ServiceLifecycle

/// Runs `work` every `interval` until the service group shuts down: housekeeping such as purging expired rows. A
/// failed round is logged and the next one runs as planned.
public struct PeriodicTask: Service {
    let name: String
    let interval: Duration
    let logger: Logger
    let work: @Sendable () async throws -> Void

    /// - Parameter name: What the task does, for its log lines ("purge expired sessions").
    public init(_ name: String, every interval: Duration, logger: Logger, work: @escaping @Sendable () async throws -> Void) {
        self.name = name
        self.interval = interval
        self.logger = logger
        self.work = work
    }

    public func run() async throws {
        do {
            try await cancelWhenGracefulShutdown {
                while true {
                    try await sleep(for: interval)
                    do {
                        try await work()
                    } catch is CancellationError {
                        throw CancellationError()
                    } catch {
                        logger.warning("could not \(name)", metadata: ["error": "\(error)"])
                    }
                }
            }
        } catch is CancellationError {
            return
        }
    }
}
