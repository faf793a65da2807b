import AsyncHTTPClient
import Hummingbird
import KiwiMessaging
import KiwiServiceSupport
import Logging

/// The scan worker's composition root. Its HTTP server carries only the probes operators point at it.
///
/// Services shut down in reverse order: the HTTP server, then the job processor (which finishes the jobs in
/// flight while it can still reply and acknowledge), then the AMQP connections, then the HTTP client.
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
        topology: KiwiTopology.scanJobs(queue: configuration.jobQueue),
        logger: logger
    )
    let publisher = AMQPPublisher(settings: configuration.amqp, logger: logger)
    let metrics = WorkerMetrics()
    let analyzer = ScanAnalyzer(
        client: ChatCompletionsClient(httpClient: httpClient, baseURL: configuration.openAIBaseURL, apiKey: configuration.openAIAPIKey),
        prompt: ScanPrompt(model: configuration.openAIModel, detail: configuration.imageDetail),
        retryPolicy: RetryPolicy(maxRetries: configuration.maxRetries),
        attemptTimeout: configuration.attemptTimeout,
        metrics: metrics
    )

    let router = Router(options: .autoGenerateHeadEndpoints)
    router.add(middleware: HTTPMetricsMiddleware())
    router.addHealthRoute()
    router.addReadinessRoute(checks: ["rabbitmq": { consumer.isConnected && publisher.isConnected }])
    return Application(
        router: router,
        server: .kiwiHTTP1(logger: logger),
        configuration: ApplicationConfiguration(basics: configuration.basics, serverName: ScanWorkerConfiguration.serviceName),
        services: [
            HTTPClientService(client: httpClient), publisher, consumer,
            ScanJobProcessor(
                consumer: consumer,
                publisher: publisher,
                analyzer: analyzer,
                concurrency: configuration.concurrency,
                metrics: metrics,
                logger: logger
            ),
        ],
        logger: logger
    )
}
