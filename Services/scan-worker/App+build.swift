import AsyncHTTPClient
import Hummingbird
import KiwiDatabase
import KiwiDietGuard
import KiwiMessaging
import KiwiScanMessages
import KiwiScanStore
import KiwiScans
import KiwiServiceSupport
import KiwiTopology
import Logging
import PostgresNIO

/// The scan worker's composition root. Its HTTP server carries only the probes operators point at it.
///
/// Services shut down in reverse order: the HTTP server, then the job processor (which finishes the jobs in
/// flight while it can still record, announce and acknowledge them), then the AMQP connections, then PostgreSQL and
/// the HTTP client.
func buildApplication(configuration: ScanWorkerConfiguration, logger: Logger) async throws -> some ApplicationProtocol {
    var httpConfiguration = HTTPClient.Configuration()
    // One HTTP/1.1 connection per job in flight (HTTPS to OpenAI negotiates HTTP/2 and multiplexes instead).
    httpConfiguration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = configuration.concurrency
    httpConfiguration.timeout.connect = .seconds(10)
    let httpClient = HTTPClient(eventLoopGroupProvider: .singleton, configuration: httpConfiguration)

    let consumer = AMQPConsumer(
        settings: configuration.amqp,
        queue: configuration.jobQueue,
        prefetch: configuration.concurrency,
        topology: KiwiTopology.scanJobs(queue: configuration.jobQueue, kind: configuration.omissions.jobQueueKind),
        logger: logger
    )
    let postgres = PostgresClient(configuration: configuration.database, countingConnectionsLoggingTo: logger)
    let publisher = AMQPPublisher(settings: configuration.amqp, topology: KiwiTopology.scanEvents, logger: logger)
    let metrics = WorkerMetrics()
    let intake = IntakeGovernor(concurrency: configuration.concurrency, logger: logger)
    func route(_ settings: ModelRouteSettings) -> ModelRoute {
        ModelRoute(
            settings,
            detail: configuration.imageDetail,
            stream: configuration.stream,
            streamIdleTimeout: configuration.streamIdleTimeout,
            breaker: configuration.breaker,
            transport: .over(httpClient),
            logger: logger
        )
    }
    let routes = configuration.routes.map(route)
    // A text route that is also a photo route is that route: one breaker for one endpoint.
    let textRoutes = configuration.textRoutes.map { settings in configuration.routes.firstIndex(of: settings).map { routes[$0] } ?? route(settings) }
    let scans = ScanTransitionStore(client: postgres, logger: logger)
    let announcer = ScanEventAnnouncer(publisher: publisher, logger: logger)
    let calling = ChatCompletionAnswering(
        fallback: RouteFallback(routes: routes),
        textFallback: RouteFallback(routes: textRoutes),
        call: RetryingModelCall(
            retryPolicy: RetryPolicy(maxRetries: configuration.maxRetries),
            attemptTimeout: configuration.attemptTimeout,
            rateLimits: RateLimitFeedback(intake: intake, route: routes[0].name),
            prices: configuration.prices,
            metrics: metrics
        ),
        prices: configuration.prices
    )
    let partialSink: any ScanPartialSink =
        configuration.omissions.omits(.shows) ? UnstoredPartialSink() : StoredPartialSink(scans: scans, announcer: announcer)
    DietGuard.loadEveryLanguage()
    let pipeline = ScanPipeline(
        answering: configuration.stream ? StreamedAnswering(calling: calling, sink: partialSink) : calling,
        repair: AnswerRepair(metrics: metrics),
        profileGuard: ProfileGuard(metrics: metrics),
        firstModel: routes[0].model
    )

    let router = Router(options: .autoGenerateHeadEndpoints)
    router.add(middleware: HTTPMetricsMiddleware())
    router.addHealthRoute()
    router.addReadinessRoute(checks: [
        "rabbitmq": { consumer.isConnected && publisher.isConnected },
        "postgres": { await postgres.isWritablePrimary(logger: logger) },
    ])
    return Application(
        router: router,
        server: .kiwiHTTP1(logger: logger),
        configuration: ApplicationConfiguration(basics: configuration.basics, serverName: ScanWorkerConfiguration.serviceName),
        services: [
            HTTPClientService(client: httpClient), postgres, publisher, consumer,
            ScanJobProcessor(
                consumer: consumer,
                handler: ScanJobHandler(
                    scans: scans,
                    announcer: announcer,
                    pipeline: pipeline,
                    metrics: metrics,
                    omissions: configuration.omissions
                ),
                intake: intake,
                metrics: metrics,
                foods: FoodTableLoader(client: postgres),
                logger: logger
            ),
        ],
        logger: logger
    )
}
