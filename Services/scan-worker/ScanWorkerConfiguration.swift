import Foundation
import KiwiConfiguration
import KiwiDatabase
import KiwiMessaging
import KiwiServiceSupport
import Logging
import PostgresNIO

/// Everything the scan worker reads from its environment (DESIGN.md §7).
struct ScanWorkerConfiguration: ServiceConfiguration {
    static let serviceName = "kiwi-scan-worker"
    static let openAIBaseURL = URL(string: "https://api.openai.com/v1")!

    var basics: ServiceBasics
    /// Where the scans' records are: the worker writes each scan's state and outcome on it.
    var database: PostgresClient.Configuration
    var amqp: AMQPSettings
    var openAIAPIKey: String
    var openAIBaseURL: URL
    var openAIModel: String
    /// How closely the model looks at the photo (`low`, `high` or `auto`): `high` costs more tokens and reads labels.
    var imageDetail: ImageDetail
    /// The longest one HTTP attempt at OpenAI may take; the job's deadline bounds it too.
    var attemptTimeout: Duration
    /// Retries of a failed call (429, 5xx, connection errors) on top of the first attempt, as the official SDKs default to.
    var maxRetries: Int
    /// Jobs one worker processes at once; also its prefetch.
    var concurrency: Int
    /// The queue jobs come from (`SCAN_JOB_QUEUE`): ``KiwiTopology/scanJobQueue`` unless workers must be kept apart
    /// on a shared broker, as benchmarks and tests do.
    var jobQueue: String

    init(environment: [String: String]) throws(ConfigurationError) {
        var reader = EnvironmentReader(environment: environment)
        basics = ServiceBasics(reading: &reader, defaultPort: 8082, defaultMetricsPort: 9103)
        let database = reader.required("DATABASE_URL", secret: true, parse: PostgresClient.Configuration.init(url:))
        let amqp = reader.required("AMQP_URL", secret: true) { url in try AMQPSettings(url: url, connectionName: Self.serviceName) }
        let openAIAPIKey = reader.required("OPENAI_API_KEY", secret: true)
        openAIBaseURL = reader.httpURL("OPENAI_BASE_URL", default: Self.openAIBaseURL)
        openAIModel = reader.string("OPENAI_MODEL", default: "gpt-4o")
        imageDetail = reader.value("OPENAI_IMAGE_DETAIL", default: .high) { text in
            guard let detail = ImageDetail(rawValue: text) else { throw ConfigurationError.Reason("must be low, high or auto") }
            return detail
        }
        attemptTimeout = .seconds(reader.int("OPENAI_TIMEOUT_SECONDS", default: 60, in: 1...600))
        maxRetries = reader.int("OPENAI_MAX_RETRIES", default: 2, in: 0...10)
        concurrency = reader.int("WORKER_CONCURRENCY", default: 16, in: 1...1024)
        jobQueue = reader.jobQueue()
        (self.database, self.amqp, self.openAIAPIKey) = try reader.finish(database, amqp, openAIAPIKey)
    }

    var startupMetadata: Logger.Metadata {
        [
            "amqp": .stringConvertible(amqp),
            "openAIBaseURL": .string(openAIBaseURL.absoluteString),
            "openAIModel": .string(openAIModel),
            "imageDetail": .string(imageDetail.rawValue),
            "attemptTimeoutSeconds": .stringConvertible(attemptTimeout.components.seconds),
            "maxRetries": .stringConvertible(maxRetries),
            "concurrency": .stringConvertible(concurrency),
            "jobQueue": .string(jobQueue),
        ]
    }
}

/// The `detail` of an image content part.
enum ImageDetail: String, Sendable {
    case low, high, auto
}
