import CoreMetrics
import Logging
import PostgresNIO

/// Counts the connection pool's connection attempts, failed attempts and closed connections as
/// `kiwi_postgres_connect_attempts_total`, `kiwi_postgres_connect_failures_total` and
/// `kiwi_postgres_connections_closed_total`, labelled with the database: when PostgreSQL restarts, the pool's
/// reconnections show there (connections opened = attempts − failures). `kiwi_postgres_connections_open` counts the
/// pool's connections now (attempts − failures − closes) and `kiwi_postgres_connections_max` its size: the pool opens
/// a connection only when a query finds none free, and closes one idle for 60 s, so a pool at its maximum for minutes
/// is one whose every connection keeps being needed — at the edge of queries waiting for one. (PostgresNIO does not
/// report leases or its wait queue: its pool never calls those hooks of its observability delegate.)
///
/// PostgresNIO reports its pool's events only as log lines of its background logger, so this is a `LogHandler`
/// that turns those lines into counters and passes every line at or above the wrapped handler's level on to it.
/// It listens at `debug` (where PostgresNIO logs connects and closes), which costs a few log calls per query.
struct PostgresPoolMetrics: LogHandler {
    private var wrapped: any LogHandler
    private let attempts: Counter
    private let failures: Counter
    private let closes: Counter
    private let open: Meter

    init(database: String, maximumConnections: Int, wrapping handler: any LogHandler) {
        self.wrapped = handler
        let label = [("database", database)]
        attempts = Counter(label: "kiwi_postgres_connect_attempts_total", dimensions: label)
        failures = Counter(label: "kiwi_postgres_connect_failures_total", dimensions: label)
        closes = Counter(label: "kiwi_postgres_connections_closed_total", dimensions: label)
        open = Meter(label: "kiwi_postgres_connections_open", dimensions: label)
        Gauge(label: "kiwi_postgres_connections_max", dimensions: label).record(maximumConnections)
    }

    var logLevel: Logger.Level {
        get { min(.debug, wrapped.logLevel) }
        set { wrapped.logLevel = newValue }
    }

    var metadata: Logger.Metadata {
        get { wrapped.metadata }
        set { wrapped.metadata = newValue }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { wrapped[metadataKey: key] }
        set { wrapped[metadataKey: key] = newValue }
    }

    func log(event: LogEvent) {
        switch event.message.description {
        case "Creating new connection":
            attempts.increment()
            open.increment()
        case "Connection creation failed":
            failures.increment()
            open.decrement()
        case "Connection closed":
            closes.increment()
            open.decrement()
        default: break
        }
        if event.level >= wrapped.logLevel { wrapped.log(event: event) }
    }
}

extension PostgresClient {
    /// A client whose background logger is `logger`, with the pool's connects and closes counted as metrics.
    public convenience init(configuration: Configuration, countingConnectionsLoggingTo logger: Logger) {
        let handler = PostgresPoolMetrics(
            database: configuration.database ?? configuration.username,
            maximumConnections: configuration.options.maximumConnections,
            wrapping: logger.handler
        )
        self.init(configuration: configuration, backgroundLogger: Logger(label: logger.label) { _ in handler })
    }
}
