import CoreMetrics
import Hummingbird
import Logging
import Prometheus

/// The process's metrics: swift-metrics, bootstrapped once onto a Prometheus registry, which `GET /metrics` on
/// `METRICS_PORT` renders in Prometheus' text format. Every module records through swift-metrics only.
public enum PrometheusMetrics {
    /// Latency buckets from 5 ms to 2 minutes: HTTP calls take milliseconds, model calls and scans tens of seconds.
    static let durationBuckets: [Duration] = [
        .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250),
        .milliseconds(500), .seconds(1), .milliseconds(2500), .seconds(5), .seconds(10), .seconds(15), .seconds(20), .seconds(30),
        .seconds(45), .seconds(60), .seconds(90), .seconds(120),
    ]

    /// Buckets from 1 ms to 1 s for the delay a gateway adds to a streamed scan's event, whose goal is 20 ms p99.
    static let eventDelayBuckets: [Duration] = [
        .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(15), .milliseconds(20),
        .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1),
    ]

    /// Buckets for how many items a pantry holds after an add, up to its bound of 500.
    static let pantrySizeBuckets: [Double] = [1, 5, 10, 25, 50, 100, 200, 300, 400, 500]

    /// Makes the registry swift-metrics' backend, once per process (later calls do nothing). Metrics made before
    /// it record nowhere: call it before building anything that records.
    public static func bootstrap() {
        _ = registry
    }

    /// The registry every metric of this process lives in; the first use makes it swift-metrics' backend.
    static let registry: PrometheusCollectorRegistry = {
        let registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = durationBuckets
        factory.durationHistogramBuckets["kiwi_scan_event_delay_seconds"] = eventDelayBuckets
        factory.valueHistogramBuckets["kiwi_gateway_pantry_items"] = pantrySizeBuckets
        MetricsSystem.bootstrap(factory)
        return registry
    }()

    /// Every metric of this process in Prometheus' text format, as `GET /metrics` answers.
    public static func exposition() -> String {
        registry.emitToString()
    }

    /// An HTTP server that answers `GET /metrics` on `port`, on every interface so a cluster's scraper reaches it.
    public static func server(port: Int, serviceName: String, logger: Logger) -> some ApplicationProtocol {
        let router = Router(options: .autoGenerateHeadEndpoints)
        router.get("/metrics") { _, _ in
            Response(
                status: .ok,
                headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: registry.emitToBuffer()))
            )
        }
        return Application(
            router: router,
            server: .kiwiHTTP1(logger: logger),
            configuration: ApplicationConfiguration(address: .hostname("0.0.0.0", port: port), serverName: "\(serviceName) metrics"),
            logger: logger
        )
    }
}
