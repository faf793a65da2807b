import Foundation
import KiwiConfiguration
import KiwiMessaging
import KiwiServiceSupport
import Testing

@testable import KiwiAuth
@testable import KiwiGateway
@testable import KiwiScanWorker

/// The typed configurations, read in-process: defaults, and every problem reported at once.
@Suite("Service configuration")
struct ConfigurationTests {
    let complete: [String: String] = [
        "DATABASE_URL": "postgres://kiwi:kiwi@127.0.0.1:55432/kiwi?sslmode=disable",
        "AMQP_URL": "amqp://kiwi:kiwi@127.0.0.1:55672/%2F",
        "INTERNAL_API_TOKEN": String(repeating: "x", count: 32),
        "QUOTA_KEY_SECRET": String(repeating: "q", count: 32),
        "AUTH_SERVICE_URL": "http://127.0.0.1:8081",
        "APPLE_CLIENT_ID": "app.kiwi.ios, app.kiwi.web",
        "OPENAI_API_KEY": "sk-test",
    ]

    @Test(
        "tracing is on only when an OTLP endpoint is configured",
        arguments: [
            ([:], false), (["OTEL_EXPORTER_OTLP_ENDPOINT": ""], false), (["OTEL_EXPORTER_OTLP_PROTOCOL": "http/json"], false),
            (["OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318"], true),
            (["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://c:4318/v1/traces"], true),
        ] as [([String: String], Bool)]
    )
    func tracingSwitch(_ environment: [String: String], _ enabled: Bool) {
        #expect(TracingBootstrap.isEnabled(in: environment) == enabled)
    }

    @Test("every service sends AMQP heartbeats every 10 s unless AMQP_HEARTBEAT_SECONDS says otherwise, from 2 to 60")
    func amqpHeartbeat() throws {
        #expect(try GatewayConfiguration(environment: complete).amqp.heartbeatSeconds == 10)
        #expect(try AuthConfiguration(environment: complete).amqp.heartbeatSeconds == 10)
        #expect(try ScanWorkerConfiguration(environment: complete.merging(["AMQP_HEARTBEAT_SECONDS": "4"]) { $1 }).amqp.heartbeatSeconds == 4)
        #expect(throws: ConfigurationError.self) {
            try ScanWorkerConfiguration(environment: complete.merging(["AMQP_HEARTBEAT_SECONDS": "1"]) { $1 })
        }
    }

    @Test("AMQP_URLS gives every service the cluster's nodes in order; AMQP_URL, one node, still works")
    func amqpNodes() throws {
        let cluster = complete.filter { $0.key != "AMQP_URL" }.merging(["AMQP_URLS": "amqp://k:p@rabbit-0/%2F,amqp://k:p@rabbit-1/%2F"]) { $1 }
        #expect(try GatewayConfiguration(environment: cluster).amqp.nodes.map(\.host) == ["rabbit-0", "rabbit-1"])
        #expect(try AuthConfiguration(environment: cluster).amqp.nodes.map(\.host) == ["rabbit-0", "rabbit-1"])
        #expect(try ScanWorkerConfiguration(environment: cluster).amqp.nodes.map(\.host) == ["rabbit-0", "rabbit-1"])
        #expect(try GatewayConfiguration(environment: complete).amqp.nodes.map(\.port) == [55672])
    }

    @Test("AMQP_URLS and AMQP_URL both set is a configuration error that names both")
    func amqpBothSet() {
        let both = complete.merging(["AMQP_URLS": "amqp://k:p@rabbit-0/%2F,amqp://k:p@rabbit-1/%2F"]) { $1 }
        let error = #expect(throws: ConfigurationError.self) { try ScanWorkerConfiguration(environment: both) }
        #expect(error?.invalid.map(\.name) == ["AMQP_URLS"])
        #expect(error?.description.contains("AMQP_URLS and AMQP_URL are both set") == true, "\(error.map { "\($0)" } ?? "")")
    }

    @Test("with neither AMQP_URLS nor AMQP_URL, AMQP_URLS is reported missing; a bad entry of AMQP_URLS is reported by position")
    func amqpMissingOrInvalid() {
        let neither = complete.filter { $0.key != "AMQP_URL" }
        #expect(throws: ConfigurationError(missing: ["AMQP_URLS"], invalid: [])) { try AuthConfiguration(environment: neither) }
        let bad = neither.merging(["AMQP_URLS": "amqp://rabbit-0,amqps://rabbit-1"]) { $1 }
        let error = #expect(throws: ConfigurationError.self) { try GatewayConfiguration(environment: bad) }
        #expect(error?.description == "AMQP_URLS entry 2 uses amqps://, which is not supported yet")
    }

    @Test("the gateway applies the documented defaults")
    func gatewayDefaults() throws {
        let configuration = try GatewayConfiguration(environment: complete)
        #expect(configuration.basics.port == 8080)
        #expect(configuration.basics.environment == .production)
        #expect(configuration.scanDailyLimit == 4)
        #expect(configuration.scanTimeout == .seconds(90))
    }

    @Test("the auth service splits APPLE_CLIENT_ID on commas and defaults to Apple's JWKS")
    func authDefaults() throws {
        let configuration = try AuthConfiguration(environment: complete)
        #expect(configuration.basics.port == 8081)
        #expect(configuration.appleClientIDs == ["app.kiwi.ios", "app.kiwi.web"])
        #expect(configuration.appleJWKSURL.absoluteString == "https://appleid.apple.com/auth/keys")
    }

    @Test("the scan worker defaults to one gpt-4o route at OpenAI, high detail, 60 s attempts, 2 retries, 16 concurrent jobs and a 5-failure breaker")
    func workerDefaults() throws {
        let configuration = try ScanWorkerConfiguration(environment: complete)
        #expect(configuration.basics.port == 8082)
        #expect(configuration.routes.map(\.name) == ["gpt-4o"])
        #expect(configuration.routes.map(\.baseURL.absoluteString) == ["https://api.openai.com/v1"])
        #expect(configuration.breaker == CircuitBreaker.Settings(failureThreshold: 5, coolDown: .seconds(30)))
        #expect(configuration.imageDetail == .high)
        #expect(configuration.attemptTimeout == .seconds(60))
        #expect(configuration.maxRetries == 2)
        #expect(configuration.concurrency == 16)
        #expect(configuration.jobQueue == "kiwi.scan.jobs")
    }

    @Test("the scan worker reports an unknown image detail, an out-of-range retry count and a reserved queue name together")
    func workerInvalidValues() {
        var environment = complete
        environment["OPENAI_IMAGE_DETAIL"] = "ultra"
        environment["OPENAI_MAX_RETRIES"] = "-1"
        environment["SCAN_JOB_QUEUE"] = "amq.jobs"
        #expect {
            try ScanWorkerConfiguration(environment: environment)
        } throws: { error in
            Set((error as? ConfigurationError)?.invalid.map(\.name) ?? []) == ["OPENAI_IMAGE_DETAIL", "OPENAI_MAX_RETRIES", "SCAN_JOB_QUEUE"]
        }
    }

    @Test("a benchmark leg leaves out the features KIWI_BENCH_WITHOUT lists, in development; every feature is on without it")
    func benchOmissions() throws {
        let development = complete.merging(["KIWI_ENV": "development", "KIWI_BENCH_WITHOUT": "shows, quorum"]) { $1 }
        let worker = try ScanWorkerConfiguration(environment: development)
        #expect(worker.omissions.features == [.shows, .quorum])
        #expect(worker.omissions.jobQueueKind == .classic)
        #expect(try GatewayConfiguration(environment: development).omissions.jobQueueKind == .classic)
        let everything = try ScanWorkerConfiguration(environment: complete.merging(["KIWI_ENV": "development"]) { $1 })
        #expect(everything.omissions == .none)
        #expect(everything.omissions.jobQueueKind == .quorum)
    }

    @Test(
        "KIWI_BENCH_WITHOUT is refused in production, and with a feature it does not know",
        arguments: [["KIWI_BENCH_WITHOUT": "labels"], ["KIWI_ENV": "development", "KIWI_BENCH_WITHOUT": "labels,guard"]]
    )
    func benchOmissionsRefused(_ variables: [String: String]) {
        let error = #expect(throws: ConfigurationError.self) {
            try ScanWorkerConfiguration(environment: complete.merging(variables) { $1 })
        }
        #expect(error?.invalid.map(\.name) == ["KIWI_BENCH_WITHOUT"])
    }

    @Test("LLM_MODELS lists routes in order, each with its name, base URL and the key its variable holds")
    func workerRoutes() throws {
        var environment = complete
        environment["OPENAI_BASE_URL"] = "http://127.0.0.1:9999/v1"
        environment["BACKUP_OPENAI_KEY"] = "sk-backup"
        environment["LLM_MODELS"] = """
            [{"model": "gpt-4o"},
             {"name": "backup", "model": "gpt-4o-mini", "baseURL": "https://backup.example/v1", "apiKeyVariable": "BACKUP_OPENAI_KEY"}]
            """
        let routes = try ScanWorkerConfiguration(environment: environment).routes
        #expect(
            routes == [
                ModelRouteSettings(name: "gpt-4o", model: "gpt-4o", baseURL: URL(string: "http://127.0.0.1:9999/v1")!, apiKey: "sk-test"),
                ModelRouteSettings(name: "backup", model: "gpt-4o-mini", baseURL: URL(string: "https://backup.example/v1")!, apiKey: "sk-backup"),
            ]
        )
    }

    @Test(
        "LLM_MODELS that is not a list of routes, names a route twice, a key variable that is unset or a model without a price is refused",
        arguments: [
            ("LLM_MODELS", "gpt-4o"), ("LLM_MODELS", "[]"), ("LLM_MODELS", #"[{"model": "gpt-4o"}, {"model": "gpt-4o"}]"#),
            ("LLM_MODELS", #"[{"model": "gpt-4o", "apiKeyVariable": "NOT_SET_ANYWHERE"}]"#),
            ("LLM_MODELS", #"[{"model": "gpt-4o", "baseURL": "ftp://x/v1"}]"#), ("LLM_PRICES", #"[{"model": "my-model"}]"#),
        ]
    )
    func invalidRoutes(_ variable: String, _ value: String) {
        var environment = complete
        // A model without a price is LLM_PRICES' fault: the routes themselves are fine.
        environment[variable == "LLM_PRICES" ? "LLM_MODELS" : variable] = value
        #expect {
            try ScanWorkerConfiguration(environment: environment)
        } throws: { error in
            (error as? ConfigurationError)?.invalid.map(\.name) == [variable]
        }
    }

    @Test("the gateway reads the daily budget in dollars and the per-user token cap; both default to none")
    func gatewaySpendLimits() throws {
        #expect(try GatewayConfiguration(environment: complete).dailyBudgetNanos == nil)
        #expect(try GatewayConfiguration(environment: complete).userDailyTokens == nil)
        var environment = complete
        environment["LLM_DAILY_BUDGET_USD"] = "12.50"
        environment["LLM_USER_DAILY_TOKENS"] = "20000"
        let configuration = try GatewayConfiguration(environment: environment)
        #expect(configuration.dailyBudgetNanos == 12_500_000_000)
        #expect(configuration.userDailyTokens == 20000)
    }

    @Test("missing and invalid values are all reported together")
    func reportsEverything() {
        var environment = complete
        environment["DATABASE_URL"] = nil
        environment["PORT"] = "99999"
        environment["INTERNAL_API_TOKEN"] = "short"
        environment["SCAN_DAILY_LIMIT"] = "lots"
        #expect {
            try GatewayConfiguration(environment: environment)
        } throws: { error in
            guard let error = error as? ConfigurationError else { return false }
            return error.missing == ["DATABASE_URL"] && Set(error.invalid.map(\.name)) == ["PORT", "INTERNAL_API_TOKEN", "SCAN_DAILY_LIMIT"]
        }
    }

    @Test("each service serves metrics on its own documented port by default: 9101, 9102, 9103")
    func metricsPortDefaults() throws {
        #expect(try GatewayConfiguration(environment: complete).basics.metricsPort == 9101)
        #expect(try AuthConfiguration(environment: complete).basics.metricsPort == 9102)
        #expect(try ScanWorkerConfiguration(environment: complete).basics.metricsPort == 9103)
    }

    @Test("METRICS_PORT equal to PORT is refused: metrics never share the public port")
    func metricsPortApart() {
        var environment = complete
        (environment["PORT"], environment["METRICS_PORT"]) = ("8080", "8080")
        #expect {
            try GatewayConfiguration(environment: environment)
        } throws: { error in
            (error as? ConfigurationError)?.invalid.map(\.name) == ["METRICS_PORT"]
        }
    }

    @Test("variableNames lists every variable a service reads, optional ones included, and no other service's")
    func variableNames() {
        let gateway = GatewayConfiguration.variableNames
        #expect(gateway.isSuperset(of: ["PORT", "METRICS_PORT", "LOG_LEVEL", "KIWI_ENV", "DATABASE_URL", "INTERNAL_API_TOKEN"]))
        #expect(gateway.isSuperset(of: ["AMQP_URLS", "AMQP_URL", "AMQP_HEARTBEAT_SECONDS"]))
        #expect(gateway.isSuperset(of: ["AUTH_SERVICE_URL", "SCAN_DAILY_LIMIT", "SCAN_TIMEOUT_SECONDS", "SESSION_CACHE_SECONDS", "SCAN_JOB_QUEUE"]))
        #expect(!gateway.contains("OPENAI_API_KEY"))
        #expect(AuthConfiguration.variableNames.isSuperset(of: ["APPLE_CLIENT_ID", "APPLE_JWKS_URL", "APPLE_JWKS_FILE", "QUOTA_KEY_SECRET"]))
        #expect(!gateway.contains("QUOTA_KEY_SECRET"))
        #expect(ScanWorkerConfiguration.variableNames.isSuperset(of: ["OPENAI_API_KEY", "OPENAI_BASE_URL", "WORKER_CONCURRENCY", "SCAN_JOB_QUEUE"]))
        #expect(ScanWorkerConfiguration.variableNames.contains("DATABASE_URL"), "the worker records each scan's outcome")
        #expect(!ScanWorkerConfiguration.variableNames.contains("QUOTA_KEY_SECRET"))
        #expect(AuthConfiguration.variableNames.contains("OTEL_EXPORTER_OTLP_ENDPOINT"), "every service reads the tracing switch")
    }
}
