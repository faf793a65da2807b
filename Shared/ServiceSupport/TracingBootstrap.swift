import Instrumentation
import Logging
import OTel
import ServiceLifecycle

/// Distributed tracing for a service (docs/architecture.md, "Traces"): W3C trace context in, spans out over OTLP/HTTP.
///
/// Off unless `OTEL_EXPORTER_OTLP_ENDPOINT` (or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) is set: then the process keeps
/// swift-distributed-tracing's no-op tracer, which makes no spans, propagates nothing and costs nothing. When on, the
/// other standard `OTEL_*` variables apply (`OTEL_EXPORTER_OTLP_PROTOCOL`, `OTEL_BSP_SCHEDULE_DELAY`, sampling…);
/// only traces are exported, since logs go to standard output as JSON and metrics to Prometheus.
public enum TracingBootstrap {
    /// The variables that switch exporting on.
    public static let endpointVariables = ["OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"]

    /// Whether `environment` asks for traces to be exported.
    public static func isEnabled(in environment: [String: String]) -> Bool {
        endpointVariables.contains { environment[$0]?.isEmpty == false }
    }

    /// Installs the OTLP tracer as the process's tracer when `environment` asks for it, and returns the service that
    /// batches and exports its spans (run it with the application); nil when tracing stays off.
    public static func bootstrap(serviceName: String, environment: [String: String], logger: Logger) throws -> (any Service)? {
        guard isEnabled(in: environment) else { return nil }
        var configuration = OTel.Configuration.default
        configuration.serviceName = serviceName
        configuration.logs.enabled = false
        configuration.metrics.enabled = false
        configuration.propagators = [.traceContext]
        configuration.diagnosticLogger = .custom(logger)
        configuration.diagnosticLogLevel = .warning
        let backend = try OTel.makeTracingBackend(configuration: configuration)
        InstrumentationSystem.bootstrap(backend.factory)
        return backend.service
    }

    /// Log metadata of the span a log line is written in: `traceId`, `spanId` and `traceFlags`, so that logs and
    /// traces join. Nothing while no span is recording (tracing off).
    public static let logMetadataProvider: Logger.MetadataProvider = {
        var keys = OTel.Configuration.LoggingMetadataProviderConfiguration.default
        keys.traceIDKey = "traceId"
        keys.spanIDKey = "spanId"
        keys.traceFlagsKey = "traceFlags"
        return OTel.makeLoggingMetadataProvider(configuration: keys)
    }()
}
