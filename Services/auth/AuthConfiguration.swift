import Foundation
import KiwiAppleSignIn
import KiwiConfiguration
import KiwiDatabase
import KiwiMessaging
import KiwiServiceSupport
import Logging
import PostgresNIO

/// Everything the auth service reads from its environment (docs/operations.md, "1. Configuration").
struct AuthConfiguration: ServiceConfiguration {
    static let serviceName = "kiwi-auth"
    static let appleJWKSURL = URL(string: "https://appleid.apple.com/auth/keys")!

    var basics: ServiceBasics
    var database: PostgresClient.Configuration
    var amqp: AMQPSettings
    var internalAPIToken: String
    /// The key of the HMAC that turns an Apple `sub` into the key the day's scan count is kept under (``QuotaKeyMaker``).
    var quotaKeySecret: String
    /// The audiences Apple's identity tokens may carry: the app's bundle id and the services id.
    var appleClientIDs: [String]
    /// Where Apple publishes the keys that sign identity tokens.
    var appleJWKSURL: URL
    /// A local key set to trust instead of Apple's: development only (see ``appleKeySource(logger:)``).
    var appleJWKSFile: String?

    init(environment: [String: String]) throws(ConfigurationError) {
        var reader = EnvironmentReader(environment: environment)
        basics = ServiceBasics(reading: &reader, defaultPort: 8081, defaultMetricsPort: 9102)
        let database = reader.required("DATABASE_URL", secret: true, parse: PostgresClient.Configuration.init(url:))
        let amqp = reader.amqp(connectionName: Self.serviceName)
        let internalAPIToken = reader.internalAPIToken()
        let quotaKeySecret = reader.required("QUOTA_KEY_SECRET", secret: true) { value in
            let secret = value.trimmingCharacters(in: .whitespacesAndNewlines)
            guard secret.utf8.count >= 32 else { throw ConfigurationError.Reason("must be at least 32 characters long") }
            return secret
        }
        let appleClientIDs = reader.required("APPLE_CLIENT_ID") { text in
            let ids = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            guard !ids.isEmpty else { throw ConfigurationError.Reason("must list at least one client id") }
            return ids
        }
        appleJWKSURL = reader.httpURL("APPLE_JWKS_URL", default: Self.appleJWKSURL)
        appleJWKSFile = reader.optional("APPLE_JWKS_FILE")
        (self.database, self.amqp, self.internalAPIToken, self.quotaKeySecret, self.appleClientIDs) =
            try reader.finish(database, amqp, internalAPIToken, quotaKeySecret, appleClientIDs)
    }

    var startupMetadata: Logger.Metadata {
        [
            "amqp": .stringConvertible(amqp),
            "appleClientIDs": .array(appleClientIDs.map { .string($0) }),
            "appleJWKSURL": .string(appleJWKSURL.absoluteString),
            "appleJWKSFile": .string(appleJWKSFile ?? "none"),
        ]
    }

    /// Apple's keys, or in development the local key set of `APPLE_JWKS_FILE`. In production that file is
    /// refused even when configured, and the refusal is logged at start-up.
    func appleKeySource(logger: Logger) -> any JWKSSource {
        guard let appleJWKSFile else { return HTTPJWKSSource(url: appleJWKSURL) }
        guard basics.environment == .development else {
            logger.error(
                "APPLE_JWKS_FILE is set but refused: development keys are never trusted when KIWI_ENV is production",
                metadata: ["appleJWKSURL": "\(appleJWKSURL)"]
            )
            return HTTPJWKSSource(url: appleJWKSURL)
        }
        logger.warning("trusting the development Apple key set instead of Apple's", metadata: ["appleJWKSFile": "\(appleJWKSFile)"])
        return FileJWKSSource(path: appleJWKSFile)
    }
}
