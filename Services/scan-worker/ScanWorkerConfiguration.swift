import Foundation
import KiwiConfiguration
import KiwiMessaging
import KiwiServiceSupport
import Logging

/// Everything the scan worker reads from its environment (DESIGN.md §7).
struct ScanWorkerConfiguration: ServiceConfiguration {
    static let serviceName = "kiwi-scan-worker"
    static let openAIBaseURL = URL(string: "https://api.openai.com/v1")!

    var basics: ServiceBasics
    var amqp: AMQPSettings
    var openAIAPIKey: String
    var openAIBaseURL: URL
    var openAIModel: String
    /// Jobs one worker processes at once; also its prefetch.
    var concurrency: Int

    init(environment: [String: String]) throws(ConfigurationError) {
        var reader = EnvironmentReader(environment: environment)
        basics = ServiceBasics(reading: &reader, defaultPort: 8082)
        let amqp = reader.required("AMQP_URL", secret: true) { url in try AMQPSettings(url: url, connectionName: Self.serviceName) }
        let openAIAPIKey = reader.required("OPENAI_API_KEY", secret: true)
        openAIBaseURL = reader.httpURL("OPENAI_BASE_URL", default: Self.openAIBaseURL)
        openAIModel = reader.string("OPENAI_MODEL", default: "gpt-4o")
        concurrency = reader.int("WORKER_CONCURRENCY", default: 16, in: 1...1024)
        (self.amqp, self.openAIAPIKey) = try reader.finish(amqp, openAIAPIKey)
    }

    var startupMetadata: Logger.Metadata {
        [
            "amqp": .stringConvertible(amqp),
            "openAIBaseURL": .string(openAIBaseURL.absoluteString),
            "openAIModel": .string(openAIModel),
            "concurrency": .stringConvertible(concurrency),
        ]
    }
}
