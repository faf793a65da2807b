import Foundation
import KiwiConfiguration
import KiwiLogging
import KiwiMessaging
import KiwiTopology
import Logging

/// What every service's typed configuration offers the launcher.
public protocol ServiceConfiguration: Sendable {
    /// The executable's name, e.g. `kiwi-gateway`; it labels logs and the HTTP server.
    static var serviceName: String { get }

    /// Reads and checks the whole configuration, throwing every problem at once.
    init(environment: [String: String]) throws(ConfigurationError)

    /// The settings every service has.
    var basics: ServiceBasics { get }

    /// A summary of the configuration for the start-up log line; never secrets.
    var startupMetadata: Logger.Metadata { get }

    /// The longest a graceful shutdown may take before what is still running is cancelled; nil: as long as it takes.
    var shutdownTimeout: Duration? { get }
}

extension ServiceConfiguration {
    /// Services finish what they hold (a worker's jobs, bounded by their deadlines) unless they say otherwise.
    public var shutdownTimeout: Duration? { nil }

    /// Every environment variable the service reads, set or not: deployment files may give it only these. The
    /// tracing switch (``TracingBootstrap``) is read by every service besides its own configuration.
    public static var variableNames: Set<String> {
        EnvironmentReader.variableNames { _ = try? Self(environment: [:]) }.union(TracingBootstrap.endpointVariables)
    }
}

/// Settings every service reads: `PORT`, `METRICS_PORT`, `LOG_LEVEL` and `KIWI_ENV`.
public struct ServiceBasics: Sendable {
    /// The HTTP port: the public API for the gateway, internal API for auth, health probes for the worker.
    public var port: Int
    /// The port of `GET /metrics` (Prometheus text): never the public port, so scrapes stay inside the cluster.
    public var metricsPort: Int
    public var logLevel: Logger.Level
    public var environment: DeploymentEnvironment

    /// Reads the basics; `KIWI_ENV` defaults to production so that nothing development-only is on by accident.
    public init(reading environment: inout EnvironmentReader, defaultPort: Int, defaultMetricsPort: Int) {
        let port = environment.port("PORT", default: defaultPort)
        self.port = port
        self.metricsPort = environment.value("METRICS_PORT", default: defaultMetricsPort) { text in
            guard let number = Int(text), (1...65535).contains(number), number != port else {
                throw ConfigurationError.Reason("must be a port number from 1 to 65535 other than PORT's")
            }
            return number
        }
        self.logLevel = environment.value("LOG_LEVEL", default: .info, parse: Logger.Level.init(parsing:))
        self.environment = environment.value("KIWI_ENV", default: .production, parse: DeploymentEnvironment.init(parsing:))
    }
}

extension EnvironmentReader {
    /// `INTERNAL_API_TOKEN`, the secret the gateway presents to the auth service; at least 32 characters.
    public mutating func internalAPIToken() -> String? {
        required("INTERNAL_API_TOKEN", secret: true) { value in
            // Secrets mounted from files often end in a newline that the other side's copy lacks.
            let token = value.trimmingCharacters(in: .whitespacesAndNewlines)
            guard token.count >= 32 else { throw ConfigurationError.Reason("must be at least 32 characters long") }
            return token
        }
    }

    /// `AMQP_URLS` (the cluster's nodes, comma-separated `amqp://` URLs) or `AMQP_URL` (one node), never both, and
    /// `AMQP_HEARTBEAT_SECONDS` (2–60, default 10): how the service reaches RabbitMQ, named `connectionName` there. A
    /// link that goes silent without a FIN is noticed by the heartbeats, after two to three intervals on either side
    /// (docs/operations.md, "Noticing a silent network"). Neither set is reported as `AMQP_URLS` missing.
    public mutating func amqp(connectionName: String) -> AMQPSettings? {
        let heartbeat = int("AMQP_HEARTBEAT_SECONDS", default: 10, in: 2...60)
        let (list, single) = (optional("AMQP_URLS", secret: true), optional("AMQP_URL", secret: true))
        if list != nil, single != nil {
            // Which one was meant is a guess: a forgotten AMQP_URL would quietly pin every service to one node.
            reject("AMQP_URLS", "and AMQP_URL are both set: list every node in AMQP_URLS and unset AMQP_URL")
            return nil
        }
        if single != nil {
            return required("AMQP_URL", secret: true) { url in
                try AMQPSettings(url: url, heartbeatSeconds: heartbeat, connectionName: connectionName)
            }
        }
        return required("AMQP_URLS", secret: true) { urls in
            try AMQPSettings(urlList: urls, heartbeatSeconds: heartbeat, connectionName: connectionName)
        }
    }

    /// `SCAN_JOB_QUEUE`, the job queue gateway and workers share: ``KiwiTopology/scanJobQueue`` unless a deployment
    /// keeps workers apart on a shared broker, as benchmarks and tests do.
    public mutating func jobQueue() -> String {
        value("SCAN_JOB_QUEUE", default: KiwiTopology.scanJobQueue) { name in
            guard !name.isEmpty, name.utf8.count <= 200, !name.hasPrefix("amq.") else {
                throw ConfigurationError.Reason("must be a queue name of 1 to 200 bytes not starting with amq.")
            }
            return name
        }
    }
}
