import AsyncHTTPClient
import Hummingbird
import KiwiDatabase
import KiwiMessaging
import KiwiServiceSupport
import KiwiTopology
import Logging
import NIOSSL
import PostgresNIO

/// The notifier's composition root. Its HTTP server carries only the probes operators point at it.
///
/// Services shut down in reverse order: the HTTP server, then the news processor (which hands back the news still in
/// hand), then the AMQP connection, then PostgreSQL and the HTTP client.
func buildApplication(configuration: NotifierConfiguration, logger: Logger) async throws -> some ApplicationProtocol {
    var httpConfiguration = HTTPClient.Configuration()
    // APNs takes many notifications at once on one HTTP/2 connection (ALPN picks HTTP/2; Apple speaks nothing else).
    var tls = TLSConfiguration.makeClientConfiguration()
    if let trusted = configuration.trustedCertificates { tls.trustRoots = .file(trusted) }
    httpConfiguration.tlsConfiguration = tls
    httpConfiguration.timeout.connect = .seconds(10)
    let httpClient = HTTPClient(eventLoopGroupProvider: .singleton, configuration: httpConfiguration)

    let consumer = AMQPConsumer(
        settings: configuration.amqp,
        queue: configuration.queue,
        prefetch: configuration.concurrency,
        topology: KiwiTopology.scanNotifications(queue: configuration.queue),
        logger: logger
    )
    let postgres = PostgresClient(configuration: configuration.database, countingConnectionsLoggingTo: logger)
    let notifier = ScanEndNotifier(
        store: NotificationStore(client: postgres, logger: logger),
        apns: APNsClient(
            http: httpClient,
            endpoints: configuration.endpoints,
            providerToken: await ProviderToken(signingKey: configuration.signingKey)
        ),
        metrics: NotifierMetrics()
    )

    let router = Router(options: .autoGenerateHeadEndpoints)
    router.add(middleware: HTTPMetricsMiddleware())
    router.addHealthRoute()
    router.addReadinessRoute(checks: [
        "rabbitmq": { consumer.isConnected },
        "postgres": { await postgres.isWritablePrimary(logger: logger) },
    ])
    return Application(
        router: router,
        server: .kiwiHTTP1(logger: logger),
        configuration: ApplicationConfiguration(basics: configuration.basics, serverName: NotifierConfiguration.serviceName),
        services: [
            HTTPClientService(client: httpClient), postgres, consumer,
            ScanNewsProcessor(consumer: consumer, notifier: notifier, concurrency: configuration.concurrency, logger: logger),
        ],
        logger: logger
    )
}
