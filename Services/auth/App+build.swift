import HTTPTypes
import Hummingbird
import KiwiAppleSignIn
import KiwiDatabase
import KiwiMessaging
import KiwiServiceSupport
import KiwiTopology
import Logging
import PostgresNIO

/// The auth service's composition root: builds the application the executable runs and the tests drive.
func buildApplication(configuration: AuthConfiguration, logger: Logger) async throws -> some ApplicationProtocol {
    let postgres = PostgresClient(configuration: configuration.database, countingConnectionsLoggingTo: logger)
    let revocations = AMQPPublisher(settings: configuration.amqp, topology: KiwiTopology.revocations, logger: logger)
    let users = PostgresUserStore(client: postgres, logger: logger)
    let sessions = PostgresSessionStore(client: postgres, logger: logger)
    let verifier = AppleIdentityTokenVerifier(
        keys: AppleSigningKeys(source: configuration.appleKeySource(logger: logger), logger: logger),
        audiences: configuration.appleClientIDs
    )

    let router = Router(context: TrackedBasicRequestContext.self, options: .autoGenerateHeadEndpoints)
    router.add(middleware: HTTPMetricsMiddleware())
    router.add(middleware: RequestTrackingMiddleware(routes: AuthRoutes.allowedMethods, storeFailure: DatabaseFailure.self))
    router.add(middleware: StorableTextMiddleware())
    router.addHealthRoute()
    // RabbitMQ is not a readiness dependency: revocation announcements are best-effort (a gateway that misses them
    // stops caching sessions), and an auth service taken out of rotation would stop every sign-in and session check.
    router.addReadinessRoute(checks: ["postgres": { await postgres.isWritablePrimary(logger: logger) }])
    AppleSignInController(verifier: verifier, users: users, sessions: sessions).addRoutes(to: router.group("v1/auth"))
    InternalController(
        users: users,
        sessions: sessions,
        quotaKeys: QuotaKeyMaker(secret: configuration.quotaKeySecret),
        announcer: RevocationAnnouncer(publisher: revocations, logger: logger)
    )
    .addRoutes(to: router.group("internal/v1").add(middleware: InternalTokenMiddleware(token: configuration.internalAPIToken)))

    var app = Application(
        router: router,
        server: .kiwiHTTP1(logger: logger),
        configuration: ApplicationConfiguration(basics: configuration.basics, serverName: AuthConfiguration.serviceName),
        services: [
            postgres, revocations,
            PeriodicTask("purge expired sessions", every: .seconds(3600), logger: logger) {
                let purged = try await sessions.purgeExpired()
                if purged > 0 { logger.info("purged expired sessions", metadata: ["count": "\(purged)"]) }
            },
        ],
        logger: logger
    )
    app.beforeServerStarts {
        try await DatabaseMigrator(migrations: KiwiSchema.auth).migrate(postgres, logger: logger, timeout: .seconds(120))
    }
    return app
}

/// The auth service's fixed paths and their methods, for 405 answers.
enum AuthRoutes {
    static let allowedMethods: [String: [HTTPRequest.Method]] = [
        "/health": [.get, .head], "/health/ready": [.get, .head], "/v1/auth/apple": [.post],
        "/internal/v1/sessions/introspect": [.post], "/internal/v1/sessions/revoke": [.post],
    ]
}

/// The request-tracking middleware answers the database's errors as the database reads them.
extension DatabaseFailure: StoreFailure {}
