import JWTKit
import KiwiServiceSupport

@testable import KiwiAuth
@testable import KiwiGateway
@testable import KiwiNotifier
@testable import KiwiScanWorker

/// The four services, named by their executables, with what their code says about their environment.
enum KiwiService: String, CaseIterable {
    case gateway = "kiwi-gateway"
    case auth = "kiwi-auth"
    case scanWorker = "kiwi-scan-worker"
    case notifier = "kiwi-notifier"

    /// Valid values for the variables that have no default, to read a service's defaults with.
    private static let requiredValues = [
        "DATABASE_URL": "postgres://kiwi:kiwi@localhost:5432/kiwi",
        "AMQP_URL": "amqp://kiwi:kiwi@localhost:5672/%2F",
        "INTERNAL_API_TOKEN": String(repeating: "x", count: 32),
        "QUOTA_KEY_SECRET": String(repeating: "q", count: 32),
        "AUTH_SERVICE_URL": "http://localhost:8081",
        "APPLE_CLIENT_ID": "app.kiwi.ios",
        "OPENAI_API_KEY": "sk-test",
        "APNS_TEAM_ID": "KIWITEAM01",
        "APNS_KEY_ID": "KIWIKEY001",
        "APNS_KEY": ES256PrivateKey().pemRepresentation,
    ]

    /// Every variable the service reads: a deployment may give it these and no others.
    var variableNames: Set<String> {
        switch self {
        case .gateway: GatewayConfiguration.variableNames
        case .auth: AuthConfiguration.variableNames
        case .scanWorker: ScanWorkerConfiguration.variableNames
        case .notifier: NotifierConfiguration.variableNames
        }
    }

    /// Reads the configuration from `environment` as the service does at start-up.
    func configuration(_ environment: [String: String]) throws -> any ServiceConfiguration {
        switch self {
        case .gateway: return try GatewayConfiguration(environment: environment)
        case .auth: return try AuthConfiguration(environment: environment)
        case .scanWorker: return try ScanWorkerConfiguration(environment: environment)
        case .notifier: return try NotifierConfiguration(environment: environment)
        }
    }

    /// The settings the service has when only its required variables are set: its default ports among them.
    func defaults() throws -> ServiceBasics {
        try configuration(Self.requiredValues.filter { variableNames.contains($0.key) }).basics
    }
}
