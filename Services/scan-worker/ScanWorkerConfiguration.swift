import Foundation
import KiwiConfiguration
import KiwiDatabase
import KiwiMessaging
import KiwiOpenAI
import KiwiServiceSupport
import Logging
import PostgresNIO

/// Everything the scan worker reads from its environment (docs/operations.md, "1. Configuration").
struct ScanWorkerConfiguration: ServiceConfiguration {
    static let serviceName = "kiwi-scan-worker"
    static let openAIBaseURL = URL(string: "https://api.openai.com/v1")!

    var basics: ServiceBasics
    /// Where the scans' records are: the worker writes each scan's state and outcome on it.
    var database: PostgresClient.Configuration
    var amqp: AMQPSettings
    /// The model routes, tried in order (`LLM_MODELS`; by default one: `OPENAI_MODEL` at `OPENAI_BASE_URL` with
    /// `OPENAI_API_KEY`).
    var routes: [ModelRouteSettings]
    /// The routes of a refinement's text-only requests, tried in order (`LLM_TEXT_MODELS`, in the form of `LLM_MODELS`;
    /// by default the first photo route). A text route that is also a photo route is the same route, its breaker shared.
    var textRoutes: [ModelRouteSettings]
    /// What each model costs (OpenAI's prices, with `LLM_PRICES` over them).
    var prices: ModelPrices
    /// When a route's circuit breaker opens, and for how long (`LLM_BREAKER_FAILURES`, `LLM_BREAKER_COOLDOWN_SECONDS`).
    var breaker: CircuitBreaker.Settings
    /// How closely the model looks at the photo (`low`, `high` or `auto`): `high` costs more tokens and reads labels.
    var imageDetail: ImageDetail
    /// The longest one HTTP attempt at OpenAI may take; the job's deadline bounds it too.
    var attemptTimeout: Duration
    /// Whether model calls stream their answers (`LLM_STREAM`, true unless `false`): each element is shown as soon as
    /// it is written and checked. Off for a proxy that cannot stream, and as the benchmark's baseline.
    var stream: Bool
    /// The longest a streamed answer may go silent before the attempt counts as stalled and is retried
    /// (`OPENAI_STREAM_IDLE_SECONDS`).
    var streamIdleTimeout: Duration
    /// Retries of a failed call (429, 5xx, connection errors) on top of the first attempt, as the official SDKs default to.
    var maxRetries: Int
    /// Jobs one worker processes at once; also its prefetch.
    var concurrency: Int
    /// The queue jobs come from (`SCAN_JOB_QUEUE`): ``KiwiTopology/scanJobQueue`` unless workers must be kept apart
    /// on a shared broker, as benchmarks and tests do.
    var jobQueue: String
    /// What a benchmark leg leaves out (`KIWI_BENCH_WITHOUT`); nothing in a deployment.
    var omissions: BenchOmissions

    init(environment: [String: String]) throws(ConfigurationError) {
        var reader = EnvironmentReader(environment: environment)
        basics = ServiceBasics(reading: &reader, defaultPort: 8082, defaultMetricsPort: 9103)
        let database = reader.required("DATABASE_URL", secret: true, parse: PostgresClient.Configuration.init(url:))
        let amqp = reader.amqp(connectionName: Self.serviceName)
        let openAIAPIKey = reader.required("OPENAI_API_KEY", secret: true)
        let openAIBaseURL = reader.httpURL("OPENAI_BASE_URL", default: Self.openAIBaseURL)
        let openAIModel = reader.string("OPENAI_MODEL", default: "gpt-4o")
        let routes = reader.value("LLM_MODELS", default: [ModelRouteSettings.Listed(model: openAIModel)]) { text in
            try ModelRouteSettings.listed(in: text, environment: environment)
        }
        let textRoutes = reader.value("LLM_TEXT_MODELS", default: [routes[0]]) { text in
            try ModelRouteSettings.listed(in: text, environment: environment)
        }
        prices = reader.value("LLM_PRICES", default: ModelPrices.openAI) { text in try ModelPrices.openAI.overridden(byJSON: text) }
        breaker = CircuitBreaker.Settings(
            failureThreshold: reader.int("LLM_BREAKER_FAILURES", default: 5, in: 1...1000),
            coolDown: .seconds(reader.int("LLM_BREAKER_COOLDOWN_SECONDS", default: 30, in: 1...3600))
        )
        for model in Set((routes + textRoutes).map(\.model)).sorted() where prices.price(of: model) == nil {
            reader.reject("LLM_PRICES", "has no price for the model \(model); add it")
        }
        imageDetail = reader.value("OPENAI_IMAGE_DETAIL", default: .high) { text in
            guard let detail = ImageDetail(rawValue: text) else { throw ConfigurationError.Reason("must be low, high or auto") }
            return detail
        }
        attemptTimeout = .seconds(reader.int("OPENAI_TIMEOUT_SECONDS", default: 60, in: 1...600))
        stream = reader.value("LLM_STREAM", default: true) { text in
            guard let stream = Bool(text.lowercased()) else { throw ConfigurationError.Reason("must be true or false") }
            return stream
        }
        streamIdleTimeout = .seconds(reader.int("OPENAI_STREAM_IDLE_SECONDS", default: 20, in: 1...600))
        maxRetries = reader.int("OPENAI_MAX_RETRIES", default: 2, in: 0...10)
        concurrency = reader.int("WORKER_CONCURRENCY", default: 16, in: 1...1024)
        jobQueue = reader.jobQueue()
        omissions = reader.benchOmissions(in: basics.environment)
        (self.database, self.amqp, (self.routes, self.textRoutes)) = try reader.finish(
            database,
            amqp,
            openAIAPIKey.map { key in
                (
                    routes.map { $0.settings(defaultBaseURL: openAIBaseURL, defaultAPIKey: key) },
                    textRoutes.map { $0.settings(defaultBaseURL: openAIBaseURL, defaultAPIKey: key) }
                )
            }
        )
    }

    var startupMetadata: Logger.Metadata {
        [
            "amqp": .stringConvertible(amqp),
            "routes": .array(routes.map { .string("\($0.name): \($0.model) at \($0.baseURL.absoluteString)") }),
            "textRoutes": .array(textRoutes.map { .string("\($0.name): \($0.model) at \($0.baseURL.absoluteString)") }),
            "breakerFailures": .stringConvertible(breaker.failureThreshold),
            "breakerCoolDownSeconds": .stringConvertible(breaker.coolDown.components.seconds),
            "imageDetail": .string(imageDetail.rawValue),
            "attemptTimeoutSeconds": .stringConvertible(attemptTimeout.components.seconds),
            "stream": .stringConvertible(stream),
            "streamIdleSeconds": .stringConvertible(streamIdleTimeout.components.seconds),
            "maxRetries": .stringConvertible(maxRetries),
            "concurrency": .stringConvertible(concurrency),
            "jobQueue": .string(jobQueue),
            "benchWithout": .stringConvertible(omissions),
        ]
    }
}

/// One model route as configured: a name for metrics, logs and the scan record, the model, and where and with what
/// key to call it.
struct ModelRouteSettings: Sendable, Hashable {
    var name: String
    var model: String
    var baseURL: URL
    var apiKey: String

    /// A route as `LLM_MODELS` lists it: `{"model", "name"?, "baseURL"?, "apiKeyVariable"?}`. The key itself never
    /// appears there, only the name of the variable that holds it (a secret of its own).
    struct Listed: Decodable, Hashable {
        var model: String
        var name: String?
        var baseURL: String?
        var apiKeyVariable: String?
        /// `baseURL`, checked, and the key that `apiKeyVariable` names, both read at start-up (the key never from
        /// `LLM_MODELS` itself).
        var url: URL?
        var apiKey: String?

        enum CodingKeys: String, CodingKey {
            case model, name, baseURL, apiKeyVariable
        }

        init(model: String) {
            self.model = model
        }

        /// The route, with the defaults (`OPENAI_BASE_URL`, `OPENAI_API_KEY`) where it names none.
        func settings(defaultBaseURL: URL, defaultAPIKey: String) -> ModelRouteSettings {
            ModelRouteSettings(
                name: name ?? model,
                model: model,
                baseURL: url ?? defaultBaseURL,
                apiKey: apiKey ?? defaultAPIKey
            )
        }
    }

    /// The routes of `LLM_MODELS`: a JSON array, tried in its order. Names must be unique (a route's name defaults to
    /// its model), base URLs absolute http(s), and each `apiKeyVariable` set in `environment`.
    static func listed(in text: String, environment: [String: String]) throws -> [Listed] {
        guard var routes = try? JSONDecoder().decode([Listed].self, from: Data(text.utf8)), !routes.isEmpty, routes.count <= 10 else {
            throw ConfigurationError.Reason(
                "must be a JSON array of 1 to 10 routes {\"model\", \"name\"?, \"baseURL\"?, \"apiKeyVariable\"?}"
            )
        }
        for index in routes.indices {
            let route = routes[index]
            let name = route.name ?? route.model
            guard !route.model.isEmpty, !name.isEmpty, name.utf8.count <= 64 else {
                throw ConfigurationError.Reason("route \(index + 1) needs a model, and a name of at most 64 bytes")
            }
            if let baseURL = route.baseURL {
                do {
                    routes[index].url = try EnvironmentReader.httpURL(parsing: baseURL)
                } catch {
                    throw ConfigurationError.Reason("the baseURL of route \(name) must be an absolute http or https URL")
                }
            }
            if let variable = route.apiKeyVariable {
                guard let key = environment[variable], !key.isEmpty else {
                    throw ConfigurationError.Reason("route \(name) takes its key from \(variable), which is not set")
                }
                routes[index].apiKey = key
            }
        }
        guard Set(routes.map { $0.name ?? $0.model }).count == routes.count else {
            throw ConfigurationError.Reason("two routes have the same name; name them apart with \"name\"")
        }
        return routes
    }
}

/// The `detail` of an image content part.
enum ImageDetail: String, Sendable {
    case low, high, auto
}
