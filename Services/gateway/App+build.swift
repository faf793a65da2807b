import Hummingbird
import KiwiDatabase
import KiwiServiceSupport
import Logging
import PostgresNIO

/// The gateway's composition root: builds the application the executable runs and the tests drive.
func buildApplication(configuration: GatewayConfiguration, logger: Logger) async throws -> some ApplicationProtocol {
    let postgres = PostgresClient(configuration: configuration.database, backgroundLogger: logger)
    let router = Router()
    router.addHealthRoute()
    var app = Application(
        router: router,
        configuration: ApplicationConfiguration(basics: configuration.basics, serverName: GatewayConfiguration.serviceName),
        services: [postgres],
        logger: logger
    )
    app.beforeServerStarts {
        try await DatabaseMigrator().migrate(postgres, logger: logger, timeout: .seconds(30))
    }
    return app
}
