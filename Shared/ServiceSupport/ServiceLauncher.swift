import Foundation
import Hummingbird
import KiwiConfiguration
import KiwiLogging
import Logging
import ServiceLifecycle
import UnixSignals

/// Runs a service executable the same way for every service: read the configuration (exiting with
/// every problem listed when it is incomplete), switch logging to JSON lines, metrics to Prometheus and, when
/// configured, traces to OTLP (``TracingBootstrap``), log one start-up line, then build the application and serve
/// it, and `GET /metrics` on `METRICS_PORT`, until SIGTERM or SIGINT asks for a graceful shutdown.
public enum ServiceLauncher {
    /// Never returns normally: exits 0 after a graceful shutdown and 1 when the service could not run.
    public static func run<Configuration: ServiceConfiguration, App: ApplicationProtocol>(
        _: Configuration.Type,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        build: (Configuration, Logger) async throws -> App
    ) async -> Never {
        let name = Configuration.serviceName
        let configuration: Configuration
        do {
            configuration = try Configuration(environment: environment)
        } catch {
            var logger = Logger(label: name) { _ in JSONLogHandler(logLevel: .info) }
            logger[metadataKey: "service"] = .string(name)
            var metadata: Logger.Metadata = [:]
            if !error.missing.isEmpty { metadata["missing"] = .array(error.missing.map { .string($0) }) }
            logger.critical("invalid configuration: \(error)", metadata: metadata)
            exit(1)
        }

        let level = configuration.basics.logLevel
        LoggingSystem.bootstrap(
            { _, traceMetadata in
                var handler = JSONLogHandler(logLevel: level, metadataProvider: traceMetadata)
                handler.metadata["service"] = .string(name)
                return handler
            },
            metadataProvider: TracingBootstrap.logMetadataProvider
        )
        let logger = Logger(label: name)
        // Bootstrapped before the build, so that every metric the application makes is exported and every HTTP
        // client it makes propagates the trace.
        PrometheusMetrics.bootstrap()
        let tracing: (any Service)?
        do {
            tracing = try TracingBootstrap.bootstrap(serviceName: name, environment: environment, logger: logger)
        } catch {
            logger.critical("invalid tracing configuration: \(error)")
            exit(1)
        }
        logger.info(
            "starting \(name)",
            metadata: configuration.startupMetadata.merging([
                "port": .stringConvertible(configuration.basics.port),
                "metricsPort": .stringConvertible(configuration.basics.metricsPort),
                "environment": .string(configuration.basics.environment.rawValue),
                "logLevel": .string(level.rawValue), "tracing": .string(tracing == nil ? "off" : "otlp"),
            ]) { own, _ in own }
        )
        do {
            let app = try await build(configuration, logger)
            let metrics = PrometheusMetrics.server(port: configuration.basics.metricsPort, serviceName: name, logger: logger)
            // Services stop in reverse order: the metrics server and the span exporter last, so a draining service can
            // still be scraped and its last spans still go out.
            let services: [any Service] = [metrics] + (tracing.map { [$0] } ?? []) + [app]
            var group = ServiceGroupConfiguration(services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
            // Past it, what still runs is cancelled: open requests end, and the service stops.
            group.maximumGracefulShutdownDuration = configuration.shutdownTimeout
            try await ServiceGroup(configuration: group).run()
            logger.info("\(name) stopped")
            exit(0)
        } catch {
            logger.critical("\(name) failed: \(error)")
            exit(1)
        }
    }
}
