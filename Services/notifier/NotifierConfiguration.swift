import Foundation
import KiwiConfiguration
import KiwiDatabase
import KiwiMessaging
import KiwiServiceSupport
import KiwiTopology
import Logging
import PostgresNIO

/// Everything the notifier reads from its environment (docs/operations.md, "1. Configuration").
struct NotifierConfiguration: ServiceConfiguration {
    static let serviceName = "kiwi-notifier"
    /// Apple's two provider API hosts ("Sending notification requests to APNs": "Establish a connection to APNs").
    static let productionAPNs = URL(string: "https://api.push.apple.com")!
    static let sandboxAPNs = URL(string: "https://api.sandbox.push.apple.com")!

    var basics: ServiceBasics
    /// Where scans, profiles and devices are, and where sent notifications are recorded.
    var database: PostgresClient.Configuration
    var amqp: AMQPSettings
    /// The signing key Apple issued (`APNS_KEY`, the `.p8` file's PEM text), its id (`APNS_KEY_ID`) and the team's id
    /// (`APNS_TEAM_ID`): what every provider token is made of.
    var signingKey: APNsSigningKey
    /// Where notifications go for each environment (`APNS_PRODUCTION_URL`, `APNS_SANDBOX_URL`): Apple's hosts unless a
    /// fake APNs stands in (tests, `make run`).
    var endpoints: APNsEndpoints
    /// A PEM file of certificates to trust for APNs instead of the system's (`APNS_CA_FILE`): only for a fake APNs
    /// with a test certificate.
    var trustedCertificates: String?
    /// News handled at once; also the prefetch.
    var concurrency: Int
    /// The queue news comes from (`NOTIFIER_QUEUE`): ``KiwiTopology/notificationQueue`` unless tests keep notifiers
    /// apart on a shared broker.
    var queue: String

    init(environment: [String: String]) throws(ConfigurationError) {
        var reader = EnvironmentReader(environment: environment)
        basics = ServiceBasics(reading: &reader, defaultPort: 8084, defaultMetricsPort: 9105)
        let database = reader.required("DATABASE_URL", secret: true, parse: PostgresClient.Configuration.init(url:))
        let amqp = reader.amqp(connectionName: Self.serviceName)
        let teamID = reader.required("APNS_TEAM_ID", parse: APNsSigningKey.identifier(parsing:))
        let keyID = reader.required("APNS_KEY_ID", parse: APNsSigningKey.identifier(parsing:))
        let key = reader.required("APNS_KEY", secret: true, parse: APNsSigningKey.privateKey(parsing:))
        endpoints = APNsEndpoints(
            production: reader.httpURL("APNS_PRODUCTION_URL", default: Self.productionAPNs),
            sandbox: reader.httpURL("APNS_SANDBOX_URL", default: Self.sandboxAPNs)
        )
        trustedCertificates = reader.optional("APNS_CA_FILE")
        concurrency = reader.int("NOTIFIER_CONCURRENCY", default: 64, in: 1...1024)
        queue = reader.string("NOTIFIER_QUEUE", default: KiwiTopology.notificationQueue)
        let signingKey: APNsSigningKey? =
            if let teamID, let keyID, let key { APNsSigningKey(key: key, keyID: keyID, teamID: teamID) } else { nil }
        (self.database, self.amqp, self.signingKey) = try reader.finish(database, amqp, signingKey)
    }

    var startupMetadata: Logger.Metadata {
        [
            "amqp": .stringConvertible(amqp),
            "apnsProduction": .string(endpoints.production.absoluteString),
            "apnsSandbox": .string(endpoints.sandbox.absoluteString),
            "apnsKeyId": .string(signingKey.keyID),
            "apnsTeamId": .string(signingKey.teamID),
            "trustedCertificates": .string(trustedCertificates ?? "the system's"),
            "concurrency": .stringConvertible(concurrency),
            "queue": .string(queue),
        ]
    }
}
