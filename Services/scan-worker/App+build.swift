import Hummingbird
import KiwiServiceSupport
import Logging

/// The scan worker's composition root. Its HTTP server carries only the probes operators point at it.
func buildApplication(configuration: ScanWorkerConfiguration, logger: Logger) async throws -> some ApplicationProtocol {
    let router = Router()
    router.addHealthRoute()
    return Application(
        router: router,
        configuration: ApplicationConfiguration(basics: configuration.basics, serverName: ScanWorkerConfiguration.serviceName),
        logger: logger
    )
}
