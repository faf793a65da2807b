// swift-tools-version: 6.2
import PackageDescription

/// One set of compiler settings for every target: Swift 6 language mode comes with the tools version.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

// MARK: Products of other packages, named once

let argumentParser: Target.Dependency = .product(name: "ArgumentParser", package: "swift-argument-parser")
let asyncHTTPClient: Target.Dependency = .product(name: "AsyncHTTPClient", package: "async-http-client")
let configuration: Target.Dependency = .product(name: "Configuration", package: "swift-configuration")
let coreMetrics: Target.Dependency = .product(name: "CoreMetrics", package: "swift-metrics")
let crypto: Target.Dependency = .product(name: "Crypto", package: "swift-crypto")
let cryptoExtras: Target.Dependency = .product(name: "_CryptoExtras", package: "swift-crypto")
let heapModule: Target.Dependency = .product(name: "HeapModule", package: "swift-collections")
let httpTypes: Target.Dependency = .product(name: "HTTPTypes", package: "swift-http-types")
let hummingbird: Target.Dependency = .product(name: "Hummingbird", package: "hummingbird")
let hummingbirdCore: Target.Dependency = .product(name: "HummingbirdCore", package: "hummingbird")
let hummingbirdTesting: Target.Dependency = .product(name: "HummingbirdTesting", package: "hummingbird")
let instrumentation: Target.Dependency = .product(name: "Instrumentation", package: "swift-distributed-tracing")
let jwtKit: Target.Dependency = .product(name: "JWTKit", package: "jwt-kit")
let logging: Target.Dependency = .product(name: "Logging", package: "swift-log")
let nioCore: Target.Dependency = .product(name: "NIOCore", package: "swift-nio")
let nioHTTP1: Target.Dependency = .product(name: "NIOHTTP1", package: "swift-nio")
let nioHTTPTypes: Target.Dependency = .product(name: "NIOHTTPTypes", package: "swift-nio-extras")
let nioPosix: Target.Dependency = .product(name: "NIOPosix", package: "swift-nio")
let nioSSL: Target.Dependency = .product(name: "NIOSSL", package: "swift-nio-ssl")
let openAPIRuntime: Target.Dependency = .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime")
let openAPIURLSession: Target.Dependency = .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession")
let otel: Target.Dependency = .product(name: "OTel", package: "swift-otel")
let postgresNIO: Target.Dependency = .product(name: "PostgresNIO", package: "postgres-nio")
let prometheus: Target.Dependency = .product(name: "Prometheus", package: "swift-prometheus")
let serviceLifecycle: Target.Dependency = .product(name: "ServiceLifecycle", package: "swift-service-lifecycle")
let tracing: Target.Dependency = .product(name: "Tracing", package: "swift-distributed-tracing")
let unixSignals: Target.Dependency = .product(name: "UnixSignals", package: "swift-service-lifecycle")
let yams: Target.Dependency = .product(name: "Yams", package: "Yams")

// MARK: Kinds of target, each with its folder and the shared settings

/// A service that runs in production, in `Services/<folder>`.
func service(_ name: String, folder: String, dependencies: [Target.Dependency]) -> Target {
    .executableTarget(name: name, dependencies: dependencies, path: "Services/\(folder)", swiftSettings: swiftSettings)
}

/// A development tool (the CLI, the OpenAI stub, the load test, the benches) in `Tools/<folder>`; no service depends on one.
func tool(_ name: String, folder: String, dependencies: [Target.Dependency]) -> Target {
    .executableTarget(name: name, dependencies: dependencies, path: "Tools/\(folder)", swiftSettings: swiftSettings)
}

/// A library the services and tools share, in `Shared/<folder>`.
func library(
    _ name: String,
    folder: String,
    dependencies: [Target.Dependency] = [],
    resources: [Resource]? = nil
) -> Target {
    .target(
        name: name,
        dependencies: dependencies,
        path: "Shared/\(folder)",
        resources: resources,
        swiftSettings: swiftSettings
    )
}

/// A test suite in `Tests/<name>`.
func tests(_ name: String, dependencies: [Target.Dependency], resources: [Resource]? = nil) -> Target {
    .testTarget(name: name, dependencies: dependencies, resources: resources, swiftSettings: swiftSettings)
}

let package = Package(
    name: "kiwi",
    platforms: [.macOS(.v15), .iOS(.v17)],
    products: [
        .executable(name: "kiwi-gateway", targets: ["KiwiGateway"]),
        .executable(name: "kiwi-scan-worker", targets: ["KiwiScanWorker"]),
        .executable(name: "kiwi-auth", targets: ["KiwiAuth"]),
        .executable(name: "kiwi-notifier", targets: ["KiwiNotifier"]),
        .executable(name: "kiwi", targets: ["KiwiCLI"]),
        .executable(name: "kiwi-llm-stub", targets: ["KiwiLLMStub"]),
        .executable(name: "kiwi-messaging-bench", targets: ["KiwiMessagingBench"]),
        .executable(name: "kiwi-floor-bench", targets: ["KiwiFloorBench"]),
        .executable(name: "kiwi-guard-bench", targets: ["KiwiGuardBench"]),
        .executable(name: "kiwi-lexicon-score", targets: ["KiwiLexiconScore"]),
        .executable(name: "kiwi-scan-worker-bench", targets: ["KiwiScanWorkerBench"]),
        .executable(name: "kiwi-loadtest", targets: ["KiwiLoadTest"]),
        .executable(name: "kiwi-stream-floor", targets: ["KiwiStreamFloor"]),
        .executable(name: "kiwi-gateway-floor", targets: ["KiwiGatewayFloor"]),
        .executable(name: "kiwi-worker-floor", targets: ["KiwiWorkerFloor"]),
        .library(name: "KiwiModels", targets: ["KiwiModels"]),
        .library(name: "KiwiAPIClient", targets: ["KiwiAPIClient"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // Already in the graph (swift-nio, Hummingbird and PostgresNIO use its DequeModule); the timer wheel orders its
        // ticks with its HeapModule, a small module of its own.
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-configuration", from: "1.4.0"),
        .package(url: "https://github.com/apple/swift-crypto", "4.5.2"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        // Traces only go out over OTLP/HTTP: without the gRPC trait the build stays clear of grpc-swift.
        .package(url: "https://github.com/swift-otel/swift-otel", from: "1.6.0", traits: ["OTLPHTTP"]),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
        .package(url: "https://github.com/apple/swift-openapi-urlsession", from: "1.4.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/vapor/jwt-kit", from: "5.8.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        // The gateway turns its OpenAPI document into JSON and the deployment tests read manifests.
        .package(url: "https://github.com/jpsim/Yams", "5.0.1"..<"7.0.0"),
    ],
    targets: [
        // MARK: Services
        service(
            "KiwiGateway",
            folder: "gateway",
            dependencies: [
                "KiwiAPIDocument", "KiwiConcurrency", "KiwiConfiguration", "KiwiDatabase", "KiwiDietGuard", "KiwiFood", "KiwiInternalAPI",
                "KiwiLogging", "KiwiMessaging", "KiwiModels", "KiwiScanMessages", "KiwiScanStore", "KiwiScans", "KiwiServiceSupport",
                "KiwiStrictJSON", "KiwiTopology", "KiwiTracing", asyncHTTPClient, coreMetrics, crypto, httpTypes, hummingbird, instrumentation,
                logging, nioCore, nioHTTP1, postgresNIO, serviceLifecycle, tracing,
            ]
        ),
        service(
            "KiwiScanWorker",
            folder: "scan-worker",
            dependencies: [
                "KiwiConcurrency", "KiwiConfiguration", "KiwiDatabase", "KiwiDietGuard", "KiwiJPEG", "KiwiLogging", "KiwiMessaging", "KiwiModels",
                "KiwiNutrition", "KiwiOpenAI", "KiwiScanMessages", "KiwiScanStore", "KiwiScans", "KiwiServiceSupport", "KiwiStrictJSON",
                "KiwiTopology", "KiwiTracing", asyncHTTPClient, coreMetrics, hummingbird, logging, nioCore, nioHTTP1, postgresNIO, serviceLifecycle,
                tracing,
            ]
        ),
        service(
            "KiwiNotifier",
            folder: "notifier",
            dependencies: [
                "KiwiConcurrency", "KiwiConfiguration", "KiwiDatabase", "KiwiMessaging", "KiwiModels", "KiwiScanMessages", "KiwiScans",
                "KiwiServiceSupport", "KiwiTopology", asyncHTTPClient, coreMetrics, hummingbird, jwtKit, logging, nioCore, nioHTTP1, nioSSL,
                postgresNIO, serviceLifecycle,
            ]
        ),
        service(
            "KiwiAuth",
            folder: "auth",
            dependencies: [
                "KiwiAppleSignIn", "KiwiConfiguration", "KiwiDatabase", "KiwiInternalAPI", "KiwiLogging", "KiwiMessaging", "KiwiModels",
                "KiwiServiceSupport", "KiwiTopology",
                crypto, httpTypes, hummingbird, logging, postgresNIO, serviceLifecycle,
            ]
        ),

        // MARK: Tools
        tool(
            "KiwiCLI",
            folder: "kiwi",
            dependencies: [
                "KiwiDevelopment", "KiwiModels", "KiwiAPIClient", "KiwiAppleSignIn", "KiwiConcurrency", "KiwiFood", argumentParser,
                // The scan event stream, which URLSession on Linux would only hand over once it has ended.
                asyncHTTPClient,
                nioCore, nioHTTP1, openAPIRuntime,
            ]
        ),
        tool(
            "KiwiLLMStub",
            folder: "llm-stub",
            dependencies: [
                "KiwiConcurrency", "KiwiDevelopment", "KiwiJPEG", "KiwiLogging", "KiwiModels", "KiwiOpenAI", "KiwiStrictJSON", argumentParser,
                crypto, httpTypes, hummingbird, logging, nioCore, nioHTTPTypes, nioPosix,
            ]
        ),
        tool(
            "KiwiLoadTest",
            folder: "loadtest",
            dependencies: [
                "KiwiDevelopment", "KiwiAppleSignIn", "KiwiBenchmarking", "KiwiConcurrency", "KiwiJPEG", "KiwiModels",
                argumentParser, asyncHTTPClient, nioCore, nioHTTP1,
            ]
        ),
        tool(
            "KiwiScanWorkerBench",
            folder: "scan-worker-bench",
            dependencies: [
                "KiwiBenchmarking", "KiwiConcurrency", "KiwiConfiguration", "KiwiDatabase", "KiwiDevelopment", "KiwiJPEG", "KiwiMessaging",
                "KiwiScanMessages", "KiwiScanStore", "KiwiScans", "KiwiTopology", logging, postgresNIO,
            ]
        ),
        tool(
            "KiwiMessagingBench",
            folder: "messaging-bench",
            dependencies: ["KiwiDevelopment", "KiwiConcurrency", "KiwiConfiguration", "KiwiMessaging", logging, serviceLifecycle]
        ),
        tool(
            "KiwiFloorBench",
            folder: "floor-bench",
            dependencies: [
                "KiwiBenchmarking", "KiwiConcurrency", "KiwiConfiguration", "KiwiDatabase", "KiwiDevelopment", "KiwiMessaging", "KiwiScanMessages",
                "KiwiScanStore", "KiwiScans", "KiwiTopology", asyncHTTPClient, logging, nioCore, nioHTTP1, postgresNIO, serviceLifecycle,
            ]
        ),
        tool(
            "KiwiGuardBench",
            folder: "guard-bench",
            dependencies: ["KiwiBenchmarking", "KiwiDevelopment", "KiwiDietGuard", "KiwiGuardEvaluation", "KiwiModels", "KiwiStrictJSON"]
        ),
        tool("KiwiLexiconScore", folder: "lexicon-score", dependencies: ["KiwiDietGuard", "KiwiGuardEvaluation"]),
        tool("KiwiGatewayFloor", folder: "gateway-floor", dependencies: ["KiwiConfiguration", "KiwiModels", hummingbird, logging]),
        tool(
            "KiwiWorkerFloor",
            folder: "worker-floor",
            dependencies: [
                "KiwiConfiguration", "KiwiDevelopment", "KiwiMessaging", "KiwiOpenAI", "KiwiTopology", asyncHTTPClient, logging, nioCore, nioHTTP1,
            ]
        ),
        tool("KiwiStreamFloor", folder: "stream-floor", dependencies: ["KiwiBenchmarking", "KiwiConfiguration", asyncHTTPClient, nioCore, nioHTTP1]),

        // MARK: Shared libraries
        // Crypto: the ids of a model's answer are derived from the scan id and the answer (SHA-256), not drawn at random.
        // JSON read strictly (values, the strict parser, the incremental reader, decoding from values, shapes): it
        // imports nothing of Kiwi's, so every layer may use it.
        library("KiwiStrictJSON", folder: "StrictJSON"),
        library("KiwiModels", folder: "Models", dependencies: ["KiwiStrictJSON", crypto]),
        library("KiwiJPEG", folder: "JPEG"),
        // What only development tools and tests use: synthetic photos, the stand-in for Apple's signing key, running
        // services around a body. No service depends on it.
        library("KiwiDevelopment", folder: "Development", dependencies: ["KiwiModels", "KiwiStrictJSON", jwtKit, serviceLifecycle, cryptoExtras]),
        library("KiwiBenchmarking", folder: "Benchmarking", dependencies: ["KiwiConcurrency"]),
        library(
            "KiwiAPIClient",
            folder: "APIClient",
            dependencies: [httpTypes, openAPIRuntime, openAPIURLSession]
        ),
        library("KiwiOpenAI", folder: "OpenAI", dependencies: ["KiwiModels", nioCore]),
        library(
            "KiwiDietGuard",
            folder: "DietGuard",
            dependencies: ["KiwiModels"],
            resources: ["", "-de", "-fr", "-es", "-it", "-nl"].map { .embedInCode("ingredient-lexicon\($0).json") }
                + [.embedInCode("allergen-labels.json")]
        ),
        // Scoring the guard on blind allergen sets, for its tests and for tuning a lexicon.
        library("KiwiGuardEvaluation", folder: "GuardEvaluation", dependencies: ["KiwiDietGuard", "KiwiModels"]),
        library("KiwiFood", folder: "Food", dependencies: ["KiwiDietGuard", "KiwiModels"]),
        library("KiwiNutrition", folder: "Nutrition", dependencies: ["KiwiDietGuard", "KiwiFood", "KiwiModels"]),
        library("KiwiAPIDocument", folder: "APIDocument", dependencies: ["KiwiModels", crypto, yams], resources: [.embedInCode("openapi.yaml")]),
        library("KiwiConcurrency", folder: "Concurrency", dependencies: [heapModule]),
        // A scan's values (state, failure, outcome, event, job, photo key, partial): no SQL and no AMQP, so every layer
        // above may use them.
        library("KiwiScans", folder: "Scans", dependencies: ["KiwiModels", crypto]),
        // The statements and transitions of a scan's row in `scans`, shared by the gateway and the worker.
        library(
            "KiwiScanStore",
            folder: "ScanStore",
            dependencies: ["KiwiDatabase", "KiwiModels", "KiwiScans", coreMetrics, logging, postgresNIO]
        ),
        // A scan job and a scan event as messages, beside the topology that names their queue and exchange.
        library(
            "KiwiScanMessages",
            folder: "ScanMessages",
            dependencies: ["KiwiConcurrency", "KiwiMessaging", "KiwiModels", "KiwiScans", "KiwiTopology", crypto, logging]
        ),
        library("KiwiInternalAPI", folder: "InternalAPI", dependencies: ["KiwiModels", crypto]),
        library("KiwiConfiguration", folder: "Configuration", dependencies: [configuration]),
        library("KiwiLogging", folder: "Logging", dependencies: ["KiwiModels", "KiwiStrictJSON", logging]),
        library(
            "KiwiDatabase",
            folder: "Database",
            dependencies: ["KiwiConcurrency", coreMetrics, crypto, logging, nioSSL, postgresNIO, tracing],
            resources: [.copy("fdc-foods.tsv")]
        ),
        library(
            "KiwiServiceSupport",
            folder: "ServiceSupport",
            dependencies: [
                "KiwiConcurrency", "KiwiConfiguration", "KiwiLogging", "KiwiMessaging", "KiwiModels", "KiwiTopology", "KiwiTracing",
                asyncHTTPClient, coreMetrics, httpTypes, hummingbird, hummingbirdCore, instrumentation, logging, nioCore, nioHTTP1,
                nioHTTPTypes, otel, prometheus, serviceLifecycle, tracing, unixSignals,
            ]
        ),
        library(
            "KiwiAppleSignIn",
            folder: "AppleSignIn",
            dependencies: ["KiwiConcurrency", "KiwiModels", asyncHTTPClient, coreMetrics, jwtKit, logging, nioCore, nioHTTP1, cryptoExtras]
        ),
        library("KiwiMessaging", folder: "Messaging", dependencies: ["CRabbitMQ", "KiwiConcurrency", coreMetrics, logging, serviceLifecycle]),
        // Kiwi's own exchange and queue names, apart from the messaging core (which knows no application's names), so auth,
        // gateways and workers share them without sharing any scan code.
        library("KiwiTopology", folder: "Topology", dependencies: ["KiwiMessaging"]),
        library("KiwiTracing", folder: "Tracing", dependencies: [httpTypes, instrumentation, nioHTTP1, tracing]),
        .systemLibrary(name: "CRabbitMQ", path: "Shared/CRabbitMQ", pkgConfig: "librabbitmq", providers: [.apt(["librabbitmq-dev"])]),

        // MARK: Tests
        .target(
            name: "KiwiTestSupport",
            dependencies: [
                "KiwiConcurrency", "KiwiDatabase", "KiwiJPEG", "KiwiModels", "KiwiStrictJSON", logging, nioCore, nioPosix, postgresNIO,
                serviceLifecycle,
            ],
            path: "Tests/Support",
            swiftSettings: swiftSettings
        ),
        tests("KiwiModelsTests", dependencies: ["KiwiModels", "KiwiStrictJSON", "KiwiTestSupport"], resources: [.copy("Fixtures")]),
        tests(
            "KiwiDietGuardTests",
            dependencies: ["KiwiDietGuard", "KiwiGuardEvaluation", "KiwiModels", "KiwiStrictJSON"],
            resources: [.copy("Fixtures")]
        ),
        tests("KiwiFoodTests", dependencies: ["KiwiDietGuard", "KiwiFood", "KiwiModels"]),
        tests("KiwiNutritionTests", dependencies: ["KiwiDatabase", "KiwiModels", "KiwiNutrition"], resources: [.copy("Fixtures")]),
        tests("KiwiConfigurationTests", dependencies: ["KiwiConfiguration"]),
        tests(
            "KiwiCLITests",
            dependencies: ["KiwiCLI", "KiwiAPIClient", "KiwiModels", "KiwiTestSupport", argumentParser, httpTypes, openAPIRuntime]
        ),
        tests("KiwiLoggingTests", dependencies: ["KiwiLogging", "KiwiModels", "KiwiStrictJSON", logging]),
        tests(
            "KiwiDatabaseTests",
            dependencies: [
                "KiwiDevelopment", "KiwiConcurrency", "KiwiDatabase", "KiwiServiceSupport", "KiwiTestSupport", logging, nioSSL, postgresNIO,
            ]
        ),
        tests(
            "KiwiAuthTests",
            dependencies: [
                "KiwiDevelopment", "KiwiAppleSignIn", "KiwiAuth", "KiwiDatabase", "KiwiInternalAPI", "KiwiMessaging", "KiwiModels",
                "KiwiTestSupport", "KiwiTopology",
                crypto, httpTypes, hummingbird, hummingbirdTesting, logging, nioCore, postgresNIO,
            ]
        ),
        tests(
            "KiwiAppleSignInTests",
            dependencies: ["KiwiDevelopment", "KiwiAppleSignIn", "KiwiModels", hummingbird, nioCore, jwtKit, logging, cryptoExtras]
        ),
        tests(
            "KiwiMessagingTests",
            dependencies: [
                "KiwiConcurrency", "KiwiDevelopment", "KiwiMessaging", "KiwiServiceSupport", "KiwiTestSupport", "KiwiTopology", logging,
                serviceLifecycle,
            ]
        ),
        tests("KiwiBenchmarkingTests", dependencies: ["KiwiBenchmarking"]),
        tests("KiwiConcurrencyTests", dependencies: ["KiwiConcurrency", "KiwiTestSupport"]),
        tests("KiwiJPEGTests", dependencies: ["KiwiDevelopment", "KiwiJPEG", "KiwiTestSupport"]),
        tests("KiwiScanMessagesTests", dependencies: ["KiwiMessaging", "KiwiModels", "KiwiScanMessages", "KiwiScans"]),
        tests(
            "KiwiLLMStubTests",
            dependencies: [
                "KiwiConcurrency", "KiwiDevelopment", "KiwiDietGuard", "KiwiJPEG", "KiwiLLMStub", "KiwiModels", "KiwiOpenAI", "KiwiStrictJSON",
                "KiwiTestSupport", asyncHTTPClient, crypto, nioCore, nioHTTP1,
            ],
            resources: [.copy("Fixtures")]
        ),
        tests(
            "KiwiNotifierTests",
            dependencies: [
                "KiwiConfiguration", "KiwiModels", "KiwiNotifier", "KiwiScans", "KiwiServiceSupport", "KiwiTestSupport", "KiwiTopology", jwtKit,
                nioHTTP1,
            ]
        ),
        tests(
            "KiwiScanWorkerTests",
            dependencies: [
                "KiwiConcurrency", "KiwiDatabase", "KiwiDevelopment", "KiwiDietGuard", "KiwiJPEG", "KiwiLLMStub", "KiwiMessaging", "KiwiModels",
                "KiwiNutrition", "KiwiOpenAI", "KiwiScanMessages", "KiwiScanStore", "KiwiScanWorker", "KiwiScans", "KiwiServiceSupport",
                "KiwiStrictJSON", "KiwiTestSupport", "KiwiTopology", asyncHTTPClient, crypto, logging, nioCore, nioHTTP1, postgresNIO,
                serviceLifecycle,
            ],
            resources: [.copy("Fixtures")]
        ),
        tests(
            "KiwiDeploymentTests",
            dependencies: [
                "KiwiAuth", "KiwiConfiguration", "KiwiGateway", "KiwiMessaging", "KiwiNotifier", "KiwiScanWorker", "KiwiServiceSupport",
                "KiwiTestSupport", "KiwiTopology", crypto, jwtKit, yams,
            ]
        ),
        tests(
            "KiwiGatewayTests",
            dependencies: [
                "KiwiAPIDocument", "KiwiConcurrency", "KiwiDatabase", "KiwiDevelopment", "KiwiFood", "KiwiGateway", "KiwiInternalAPI",
                "KiwiMessaging", "KiwiModels",
                "KiwiOpenAI", "KiwiScanMessages", "KiwiScanStore", "KiwiScans", "KiwiServiceSupport", "KiwiStrictJSON", "KiwiTestSupport", httpTypes,
                hummingbird, hummingbirdTesting, logging, nioCore, postgresNIO,
            ]
        ),
        tests(
            "KiwiServicesTests",
            dependencies: [
                "KiwiDevelopment", "KiwiAPIClient", "KiwiAppleSignIn", "KiwiAuth", "KiwiConcurrency", "KiwiConfiguration", "KiwiDatabase",
                "KiwiGateway", "KiwiInternalAPI", "KiwiJPEG", "KiwiBenchmarking", "KiwiLLMStub", "KiwiLoadTest", "KiwiMessaging", "KiwiModels",
                "KiwiScans", "KiwiScanWorker", "KiwiServiceSupport", "KiwiTestSupport",
                "KiwiScanMessages", "KiwiTopology", asyncHTTPClient, crypto, hummingbird, hummingbirdTesting, logging, nioCore, nioHTTP1,
                openAPIRuntime, postgresNIO,
            ]
        ),
    ]
)
