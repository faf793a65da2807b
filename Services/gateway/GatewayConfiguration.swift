import Foundation
import KiwiConfiguration
import KiwiDatabase
import KiwiMessaging
import KiwiServiceSupport
import Logging
import PostgresNIO

/// Everything the gateway reads from its environment (docs/operations.md, "1. Configuration").
struct GatewayConfiguration: ServiceConfiguration {
    static let serviceName = "kiwi-gateway"

    var basics: ServiceBasics
    var database: PostgresClient.Configuration
    var amqp: AMQPSettings
    /// Base URL of the auth service's internal API.
    var authServiceURL: URL
    var internalAPIToken: String
    /// Scans each user may make per UTC day.
    var scanDailyLimit: Int
    /// The most model tokens one person's scans may spend a UTC day (`LLM_USER_DAILY_TOKENS`); nil: no cap.
    var userDailyTokens: Int?
    /// The most everyone's scans may cost a UTC day, in nano-dollars (`LLM_DAILY_BUDGET_USD`); nil: no budget.
    var dailyBudgetNanos: Int64?
    /// How long a graceful shutdown may wait for open requests (`SHUTDOWN_TIMEOUT_SECONDS`); then they are cut off,
    /// and their scans go on without this gateway.
    var shutdownTimeout: Duration?
    /// How long a scan request waits for its result before answering 504.
    var scanTimeout: Duration
    /// The job queue (`SCAN_JOB_QUEUE`), as the scan workers consume it.
    var jobQueue: String
    /// What a benchmark leg leaves out (`KIWI_BENCH_WITHOUT`): of the gateway's part, only the quorum queue.
    var omissions: BenchOmissions
    /// How long an introspected session is trusted without asking the auth service again.
    var sessionCacheTTL: Duration
    /// How long a scan's result is kept (`SCAN_RESULT_TTL_HOURS`); its record goes once its day has ended too.
    var scanRetention: Duration
    /// Where clients reach the gateway (`PUBLIC_BASE_URL`): the base of the share links it hands out.
    var publicBaseURL: URL

    init(environment: [String: String]) throws(ConfigurationError) {
        var reader = EnvironmentReader(environment: environment)
        basics = ServiceBasics(reading: &reader, defaultPort: 8080, defaultMetricsPort: 9101)
        let database = reader.required("DATABASE_URL", secret: true, parse: PostgresClient.Configuration.init(url:))
        let amqp = reader.amqp(connectionName: Self.serviceName)
        let authServiceURL = reader.requiredHTTPURL("AUTH_SERVICE_URL")
        let internalAPIToken = reader.internalAPIToken()
        scanDailyLimit = reader.int("SCAN_DAILY_LIMIT", default: 4, in: 1...1000)
        userDailyTokens = reader.value("LLM_USER_DAILY_TOKENS", default: nil) { text in
            guard let tokens = Int(text), (1...100_000_000).contains(tokens) else {
                throw ConfigurationError.Reason("must be a whole number of tokens from 1 to 100000000")
            }
            return tokens
        }
        dailyBudgetNanos = reader.value("LLM_DAILY_BUDGET_USD", default: nil) { text in
            guard let dollars = Double(text), dollars.isFinite, dollars >= 0, dollars <= 1_000_000 else {
                throw ConfigurationError.Reason("must be an amount of US dollars from 0 to 1000000, like 25 or 12.50")
            }
            return Int64((dollars * 1e9).rounded())
        }
        scanTimeout = .seconds(reader.int("SCAN_TIMEOUT_SECONDS", default: 90, in: 1...600))
        shutdownTimeout = .seconds(reader.int("SHUTDOWN_TIMEOUT_SECONDS", default: 20, in: 1...600))
        jobQueue = reader.jobQueue()
        omissions = reader.benchOmissions(in: basics.environment)
        sessionCacheTTL = .seconds(reader.int("SESSION_CACHE_SECONDS", default: 5, in: 0...60))
        scanRetention = .seconds(3600 * reader.int("SCAN_RESULT_TTL_HOURS", default: 24, in: 1...720))
        publicBaseURL = reader.httpURL("PUBLIC_BASE_URL", default: URL(string: "http://localhost:8080")!)
        (self.database, self.amqp, self.authServiceURL, self.internalAPIToken) =
            try reader.finish(database, amqp, authServiceURL, internalAPIToken)
    }

    var startupMetadata: Logger.Metadata {
        [
            "amqp": .stringConvertible(amqp),
            "authServiceURL": .string(authServiceURL.absoluteString),
            "scanDailyLimit": .stringConvertible(scanDailyLimit),
            "userDailyTokens": .string(userDailyTokens.map(String.init) ?? "none"),
            "dailyBudgetUSD": .string(dailyBudgetNanos.map { String(Double($0) / 1e9) } ?? "none"),
            "scanTimeoutSeconds": .stringConvertible(scanTimeout.components.seconds),
            "shutdownTimeoutSeconds": .stringConvertible(shutdownTimeout?.components.seconds ?? 0),
            "jobQueue": .string(jobQueue),
            "benchWithout": .stringConvertible(omissions),
            "sessionCacheSeconds": .stringConvertible(sessionCacheTTL.components.seconds),
            "scanResultTTLHours": .stringConvertible(scanRetention.components.seconds / 3600),
            "publicBaseURL": .string(publicBaseURL.absoluteString),
        ]
    }
}
