import AsyncHTTPClient
import Foundation
import HTTPTypes
import Hummingbird
import KiwiConcurrency
import KiwiDatabase
import KiwiDietGuard
import KiwiMessaging
import KiwiScanMessages
import KiwiScans
import KiwiServiceSupport
import KiwiTopology
import Logging
import PostgresNIO
import ServiceLifecycle

/// The gateway's composition root: builds the application the executable runs and the tests drive.
func buildApplication(configuration: GatewayConfiguration, logger: Logger) async throws -> some ApplicationProtocol {
    let instance = UUID().uuidString.lowercased()
    let postgres = PostgresClient(configuration: configuration.database, countingConnectionsLoggingTo: logger)
    var clientConfiguration = HTTPClient.Configuration()
    // ``AuthServiceClient`` makes its own spans, which name the call without its path (a user id is in some).
    clientConfiguration.tracing.tracer = nil
    let httpClient = HTTPClient(eventLoopGroupProvider: .singleton, configuration: clientConfiguration)
    let publisher = AMQPPublisher(
        settings: configuration.amqp,
        topology: KiwiTopology.scanJobs(queue: configuration.jobQueue, kind: configuration.omissions.jobQueueKind).merging(KiwiTopology.scanEvents)
            .merging(KiwiTopology.kitchenNews),
        logger: logger
    )
    let hub = ScanEventHub()
    var scanEventSettings = configuration.amqp
    scanEventSettings.connectionName += " scan events"
    // News sent while the subscription is down is lost: every waiter reads its scan again as it drops, and again once
    // the subscription is back, with every scan watched here bound anew.
    let scanEvents = AMQPConsumer.scanEvents(
        settings: scanEventSettings,
        instance: instance,
        logger: logger,
        connectionLost: { _ in hub.wakeAll() },
        consuming: { hub.wakeAll() }
    )
    // News of a list sent while the subscription is down is lost: every stream reads its list again as it drops, and
    // again once the subscription is back, with every kitchen streamed here bound anew.
    let listNews = ShoppingListNews(announcer: AMQPShoppingListAnnouncer(publisher: publisher, logger: logger), instance: instance)
    let kitchenNewsSubscription = KiwiTopology.kitchenNewsSubscription(instance: instance)
    var kitchenNewsSettings = configuration.amqp
    kitchenNewsSettings.connectionName += " kitchen news"
    let kitchenNews = AMQPConsumer(
        settings: kitchenNewsSettings,
        queue: kitchenNewsSubscription.queue,
        prefetch: 0,
        autoAck: true,
        topology: kitchenNewsSubscription.topology,
        logger: logger,
        connectionLost: { _ in listNews.wakeAll() },
        consuming: { listNews.wakeAll() }
    )
    listNews.route(with: kitchenNews)
    let subscription = KiwiTopology.revocationSubscription(instance: instance)
    var revocationSettings = configuration.amqp
    revocationSettings.connectionName += " revocations"
    let cache = SessionCache(timeToLive: configuration.sessionCacheTTL)
    // Broadcasts sent while the subscription is down are lost: forget what was cached, and cache nothing until it is back.
    let revocations = AMQPConsumer(
        settings: revocationSettings,
        queue: subscription.queue,
        prefetch: 0,
        autoAck: true,
        topology: subscription.topology,
        logger: logger,
        connectionLost: { _ in cache.clear() }
    )
    let authService = AuthServiceClient(httpClient: httpClient, baseURL: configuration.authServiceURL, internalToken: configuration.internalAPIToken)
    let ledger = PostgresScanLedger(client: postgres, logger: logger)
    let recipes = PostgresSavedRecipeStore(client: postgres, logger: logger)
    let profiles = PostgresProfileStore(client: postgres, logger: logger)
    let pantry = PostgresPantryStore(client: postgres, logger: logger)
    let shoppingList = PostgresShoppingListStore(client: postgres, logger: logger)
    let households = PostgresHouseholdStore(client: postgres, logger: logger)
    let plans = PostgresMealPlanStore(client: postgres, logger: logger)
    let devices = PostgresDeviceStore(client: postgres, logger: logger)
    let policy = QuotaPolicy(
        limit: configuration.scanDailyLimit,
        tokenLimit: configuration.userDailyTokens,
        dailyBudgetNanos: configuration.dailyBudgetNanos
    )
    let announcer = ScanEventAnnouncer(publisher: publisher, logger: logger)
    let metrics = GatewayMetrics()
    hub.route(with: ScanNewsBindings(consumer: scanEvents, instance: instance, metrics: metrics))
    let router = buildRouter(
        dependencies: GatewayDependencies(
            sessions: authService,
            accounts: authService,
            jobQueue: AMQPScanJobQueue(publisher: publisher, queue: configuration.jobQueue, gateway: instance),
            announcer: announcer,
            ledger: ledger,
            recipes: recipes,
            profiles: profiles,
            pantry: pantry,
            shoppingList: shoppingList,
            households: households,
            plans: plans,
            devices: devices,
            listNews: listNews,
            publicBaseURL: configuration.publicBaseURL,
            scanEventHub: hub,
            policy: policy,
            scanTimeout: configuration.scanTimeout,
            sessionCache: cache,
            sessionCachingAllowed: { revocations.isConnected },
            readinessChecks: [
                "postgres": { await postgres.isWritablePrimary(logger: logger) },
                "rabbitmq": { publisher.isConnected && revocations.isConnected && scanEvents.isConnected && kitchenNews.isConnected },
                "auth": { await authService.isHealthy(requestID: "readiness") },
            ],
            // No worker consuming the job queue makes the gateway degraded, not unready: see docs/architecture.md.
            optionalReadinessChecks: [
                "scanWorkers": {
                    let consumers = try? await withDeadline(.now + .seconds(2)) { try await publisher.consumerCount(of: configuration.jobQueue) }
                    return (consumers ?? 0) > 0
                }
            ]
        )
    )

    var app = Application(
        router: router,
        // A connection that sends nothing for a minute is closed: idle or trickling clients must not pile up.
        server: .kiwiHTTP1(idleTimeout: .seconds(60), logger: logger),
        configuration: ApplicationConfiguration(basics: configuration.basics, serverName: GatewayConfiguration.serviceName),
        services: [
            HTTPClientService(client: httpClient), postgres, publisher, revocations, scanEvents, kitchenNews,
            RevocationListener(consumer: revocations, cache: cache, logger: logger),
            ShoppingListNewsListener(consumer: kitchenNews, news: listNews, logger: logger),
            ScanEventListener(consumer: scanEvents, hub: hub, logger: logger),
            // Every replica runs these; the sweeper skips rows another holds, and the purge's deletes are idempotent.
            ScanSweeper.task(ledger: ledger, announcer: announcer, metrics: metrics, logger: logger),
            metrics.ledgerGauges(ledger: ledger, hub: hub, logger: logger),
            PeriodicTask("purge scans past their retention", every: .seconds(3600), logger: logger) {
                let purged = try await ledger.purge(olderThan: configuration.scanRetention, today: policy.day(of: Date()))
                if purged > 0 { logger.info("purged scans past their retention", metadata: ["count": "\(purged)"]) }
            },
            PeriodicTask("remove devices whose session expired", every: .seconds(3600), logger: logger) {
                let removed = try await devices.removeExpired(before: Date())
                if removed > 0 { logger.info("removed devices whose session expired", metadata: ["count": "\(removed)"]) }
            },
        ],
        logger: logger
    )
    app.beforeServerStarts {
        try await DatabaseMigrator(migrations: KiwiSchema.gateway).migrate(postgres, logger: logger, timeout: .seconds(120))
        try await FoodTableRefresh().apply(postgres, logger: logger)
    }
    return app
}

/// The public API's routes, built from ports (``GatewayDependencies``) and nothing else: the router tests drive it
/// with fakes.
func buildRouter(dependencies: GatewayDependencies) -> Router<GatewayRequestContext> {
    let metrics = GatewayMetrics()
    let router = Router(context: GatewayRequestContext.self, options: .autoGenerateHeadEndpoints)
    router.add(middleware: HTTPMetricsMiddleware())
    router.add(middleware: RequestTrackingMiddleware(routes: GatewayRoutes.allowedMethods, storeFailure: DatabaseFailure.self))
    router.add(middleware: StorableTextMiddleware())
    router.addHealthRoute()
    APIDocumentController().addRoutes(to: router)
    router.addReadinessRoute(checks: dependencies.readinessChecks, optional: dependencies.optionalReadinessChecks)
    SharePageController(recipes: dependencies.recipes, limiter: ClientRateLimiter(dependencies.sharePageLimit)).addRoutes(to: router)
    PlanCalendarFeed(
        plans: dependencies.plans,
        profiles: dependencies.profiles,
        limiter: ClientRateLimiter(dependencies.sharePageLimit),
        publicBaseURL: dependencies.publicBaseURL
    )
    .addRoutes(to: router)
    let v1 = router.group("v1")
    SignInController(accounts: dependencies.accounts).addRoutes(to: v1.group("auth"))
    let signedIn = v1.group().add(
        middleware: AuthenticationMiddleware(
            cache: dependencies.sessionCache,
            sessions: dependencies.sessions,
            metrics: metrics,
            cachingAllowed: dependencies.sessionCachingAllowed
        )
    )
    let tableProfile = TableProfile(profiles: dependencies.profiles, households: dependencies.households)
    let scans = ScanCoordinator(
        ledger: dependencies.ledger,
        tableProfile: tableProfile,
        pantryScans: PantryScanRequest(pantry: dependencies.pantry, households: dependencies.households),
        jobQueue: dependencies.jobQueue,
        announcer: dependencies.announcer,
        hub: dependencies.scanEventHub,
        policy: dependencies.policy,
        startLimiter: ScanStartLimiter(capacity: dependencies.scanStartSlots),
        metrics: metrics,
        timeout: dependencies.scanTimeout
    )
    let kitchenPrices = KitchenPrices(pantry: dependencies.pantry, profiles: dependencies.profiles)
    let answerCosts = AnswerCosts(households: dependencies.households, kitchenPrices: kitchenPrices)
    BlockingScanController(scans: scans, costs: answerCosts, metrics: metrics).addRoutes(to: signedIn)
    ScansController(scans: scans, costs: answerCosts).addRoutes(to: signedIn)
    ReceiptLinesController(ledger: dependencies.ledger).addRoutes(to: signedIn)
    DietGuard.loadEveryLanguage()
    let profileCheck = TodaysProfileCheck(tableProfile: tableProfile)
    let mealRecipes = PlanMealRecipes(
        scans: scans,
        plans: dependencies.plans,
        pantry: dependencies.pantry,
        recipes: dependencies.recipes,
        profileCheck: profileCheck,
        kitchenPrices: kitchenPrices
    )
    let planPresenter = MealPlanPresenter(scans: scans, plans: dependencies.plans)
    PlansController(
        scans: scans,
        plans: dependencies.plans,
        presenter: planPresenter,
        households: dependencies.households,
        pantry: dependencies.pantry,
        recipes: dependencies.recipes,
        profiles: dependencies.profiles,
        profileCheck: profileCheck,
        publicBaseURL: dependencies.publicBaseURL,
        now: dependencies.now
    )
    .addRoutes(to: signedIn)
    PlanRecipesController(mealRecipes: mealRecipes, plans: dependencies.plans, households: dependencies.households).addRoutes(to: signedIn)
    RecipesController(
        recipes: dependencies.recipes,
        households: dependencies.households,
        ledger: dependencies.ledger,
        pantry: dependencies.pantry,
        profileCheck: profileCheck,
        kitchenPrices: kitchenPrices,
        publicBaseURL: dependencies.publicBaseURL,
        now: dependencies.now
    )
    .addRoutes(to: signedIn)
    ProfileController(profiles: dependencies.profiles).addRoutes(to: signedIn)
    PantryController(
        pantry: dependencies.pantry,
        households: dependencies.households,
        profiles: dependencies.profiles,
        ledger: dependencies.ledger,
        listNews: dependencies.listNews,
        metrics: metrics,
        now: dependencies.now
    )
    .addRoutes(to: signedIn)
    ShoppingListController(
        shoppingList: dependencies.shoppingList,
        households: dependencies.households,
        recipes: dependencies.recipes,
        ledger: dependencies.ledger,
        pantry: dependencies.pantry,
        profileCheck: profileCheck,
        kitchenPrices: kitchenPrices,
        plans: dependencies.plans,
        mealRecipes: mealRecipes,
        news: dependencies.listNews,
        streamLifetime: dependencies.listStreamLifetime,
        metrics: metrics,
        now: dependencies.now
    )
    .addRoutes(to: signedIn)
    HouseholdController(
        households: dependencies.households,
        profiles: dependencies.profiles,
        listNews: dependencies.listNews,
        codeLimiter: ClientRateLimiter(dependencies.householdCodeLimit),
        now: dependencies.now
    )
    .addRoutes(to: signedIn)
    AccountController(
        ledger: dependencies.ledger,
        recipes: dependencies.recipes,
        profiles: dependencies.profiles,
        pantry: dependencies.pantry,
        shoppingList: dependencies.shoppingList,
        households: dependencies.households,
        plans: dependencies.plans,
        devices: dependencies.devices,
        policy: dependencies.policy,
        accounts: dependencies.accounts,
        cache: dependencies.sessionCache
    )
    .addRoutes(to: signedIn)
    DevicesController(devices: dependencies.devices).addRoutes(to: signedIn)
    AccountExportController(
        accounts: dependencies.accounts,
        profiles: dependencies.profiles,
        devices: dependencies.devices,
        households: dependencies.households,
        pantry: dependencies.pantry,
        shoppingList: dependencies.shoppingList,
        plans: dependencies.plans,
        planPresenter: planPresenter,
        recipes: dependencies.recipes,
        ledger: dependencies.ledger,
        limiter: ClientRateLimiter(dependencies.exportLimit),
        publicBaseURL: dependencies.publicBaseURL
    )
    .addRoutes(to: signedIn)
    return router
}

/// The public API's paths and their methods (as `Shared/APIDocument/openapi.yaml` lists them), for 405 answers.
enum GatewayRoutes {
    static let allowedMethods: [String: [HTTPRequest.Method]] = [
        "/health": [.get, .head], "/health/ready": [.get, .head], "/v1/auth/apple": [.post], "/v1/scan": [.post],
        "/v1/scans": [.get, .head, .post], "/v1/recipes": [.get, .head, .post], "/v1/profile": [.get, .head, .put],
        "/v1/quota": [.get, .head], "/v1/account": [.delete], "/v1/auth/session": [.delete], "/openapi.yaml": [.get, .head],
        "/openapi.json": [.get, .head], "/v1/pantry": [.get, .head, .delete], "/v1/pantry/items": [.post],
        "/v1/shopping-list": [.get, .head, .delete], "/v1/shopping-list/events": [.get, .head], "/v1/shopping-list/items": [.post],
        "/v1/shopping-list/checked/pantry": [.post],
        "/v1/household": [.get, .head, .post], "/v1/plans": [.get, .head, .post], "/v1/household/invitations": [.post],
        "/v1/household/members": [.post], "/v1/account/export": [.get, .head],
    ]
}

/// The request-tracking middleware answers the database's errors as the database reads them.
extension DatabaseFailure: StoreFailure {}
