// swift-tools-version: 6.2
import PackageDescription

/// One set of compiler settings for every target: Swift 6 language mode comes with the tools version.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "kiwi",
    platforms: [.macOS(.v15), .iOS(.v17)],
    products: [
        .executable(name: "kiwi-gateway", targets: ["KiwiGateway"]),
        .executable(name: "kiwi-scan-worker", targets: ["KiwiScanWorker"]),
        .executable(name: "kiwi-auth", targets: ["KiwiAuth"]),
        .executable(name: "kiwi", targets: ["KiwiCLI"]),
        .executable(name: "kiwi-llm-stub", targets: ["KiwiLLMStub"]),
        .executable(name: "kiwi-messaging-bench", targets: ["KiwiMessagingBench"]),
        .executable(name: "kiwi-floor-bench", targets: ["KiwiFloorBench"]),
        .executable(name: "kiwi-scan-worker-bench", targets: ["KiwiScanWorkerBench"]),
        .executable(name: "kiwi-loadtest", targets: ["KiwiLoadTest"]),
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
        .package(url: "https://github.com/apple/swift-openapi-generator", from: "1.14.3"),
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
        .package(url: "https://github.com/apple/swift-openapi-urlsession", from: "1.4.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/vapor/jwt-kit", from: "5.8.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        // The gateway turns its OpenAPI document into JSON and the deployment tests read manifests; swift-openapi-generator
        // already brings Yams 6 into the graph.
        .package(url: "https://github.com/jpsim/Yams", "5.0.1"..<"7.0.0"),
    ],
    targets: [
        // MARK: Services
        .executableTarget(
            name: "KiwiGateway",
            dependencies: [
                "KiwiAPIDocument", "KiwiConcurrency", "KiwiConfiguration", "KiwiDatabase", "KiwiInternalAPI", "KiwiLogging", "KiwiMessaging",
                "KiwiModels", "KiwiScanJobs", "KiwiScans", "KiwiServiceSupport", "KiwiTracing",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            path: "Services/gateway",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "KiwiScanWorker",
            dependencies: [
                "KiwiConcurrency", "KiwiConfiguration", "KiwiDatabase", "KiwiDietGuard", "KiwiJPEG", "KiwiLogging", "KiwiMessaging",
                "KiwiModels", "KiwiOpenAI", "KiwiScanJobs", "KiwiScans", "KiwiServiceSupport", "KiwiTracing",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            path: "Services/scan-worker",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "KiwiAuth",
            dependencies: [
                "KiwiAppleSignIn", "KiwiConfiguration", "KiwiDatabase", "KiwiInternalAPI", "KiwiLogging", "KiwiMessaging", "KiwiModels",
                "KiwiServiceSupport",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Services/auth",
            swiftSettings: swiftSettings
        ),

        // MARK: Tools
        .executableTarget(
            name: "KiwiCLI",
            dependencies: [
                "KiwiDevelopment", "KiwiModels",
                "KiwiAPIClient", "KiwiAppleSignIn",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                // The scan event stream, which URLSession on Linux would only hand over once it has ended.
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
            ],
            path: "Tools/kiwi",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "KiwiLLMStub",
            dependencies: [
                "KiwiConcurrency", "KiwiJPEG", "KiwiLogging", "KiwiModels", "KiwiOpenAI",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            path: "Tools/llm-stub",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "KiwiLoadTest",
            dependencies: [
                "KiwiDevelopment",
                "KiwiAppleSignIn", "KiwiBenchmarking", "KiwiConcurrency", "KiwiJPEG",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            path: "Tools/loadtest",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "KiwiScanWorkerBench",
            dependencies: [
                "KiwiDevelopment",
                "KiwiBenchmarking", "KiwiConcurrency", "KiwiConfiguration", "KiwiDatabase", "KiwiJPEG", "KiwiMessaging", "KiwiScanJobs",
                "KiwiScans",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            path: "Tools/scan-worker-bench",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "KiwiMessagingBench",
            dependencies: [
                "KiwiDevelopment",
                "KiwiConcurrency", "KiwiConfiguration", "KiwiMessaging",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Tools/messaging-bench",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "KiwiFloorBench",
            dependencies: [
                "KiwiDevelopment",
                "KiwiBenchmarking", "KiwiConfiguration", "KiwiDatabase", "KiwiMessaging", "KiwiScanJobs", "KiwiScans",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            path: "Tools/floor-bench",
            swiftSettings: swiftSettings
        ),

        // MARK: Shared libraries
        .target(name: "KiwiModels", path: "Shared/Models", swiftSettings: swiftSettings),
        .target(name: "KiwiJPEG", path: "Shared/JPEG", swiftSettings: swiftSettings),
        // What only development tools and tests use: synthetic photos, the stand-in for Apple's signing key, running
        // services around a body. No service depends on it.
        .target(
            name: "KiwiDevelopment",
            dependencies: [
                "KiwiModels",
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ],
            path: "Shared/Development",
            swiftSettings: swiftSettings
        ),
        .target(name: "KiwiBenchmarking", dependencies: ["KiwiConcurrency"], path: "Shared/Benchmarking", swiftSettings: swiftSettings),
        .target(
            name: "KiwiAPIClient",
            dependencies: [
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
            ],
            path: "Shared/APIClient",
            swiftSettings: swiftSettings,
            plugins: [.plugin(name: "OpenAPIGenerator", package: "swift-openapi-generator")]
        ),
        .target(name: "KiwiOpenAI", path: "Shared/OpenAI", swiftSettings: swiftSettings),
        .target(
            name: "KiwiDietGuard",
            dependencies: ["KiwiModels"],
            path: "Shared/DietGuard",
            resources: [.embedInCode("ingredient-lexicon.json")],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "KiwiAPIDocument",
            dependencies: ["KiwiModels", .product(name: "Crypto", package: "swift-crypto"), .product(name: "Yams", package: "Yams")],
            path: "Shared/APIDocument",
            resources: [.embedInCode("openapi.yaml")],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "KiwiConcurrency",
            dependencies: [.product(name: "HeapModule", package: "swift-collections")],
            path: "Shared/Concurrency",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "KiwiScanJobs",
            dependencies: ["KiwiConcurrency", "KiwiMessaging", "KiwiModels", .product(name: "Crypto", package: "swift-crypto")],
            path: "Shared/ScanJobs",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "KiwiScans",
            dependencies: [
                "KiwiDatabase", "KiwiMessaging", "KiwiModels", "KiwiOpenAI", "KiwiScanJobs",
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            path: "Shared/Scans",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "KiwiInternalAPI",
            dependencies: ["KiwiModels", .product(name: "Crypto", package: "swift-crypto")],
            path: "Shared/InternalAPI",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "KiwiConfiguration",
            dependencies: [.product(name: "Configuration", package: "swift-configuration")],
            path: "Shared/Configuration",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "KiwiLogging",
            dependencies: ["KiwiModels", .product(name: "Logging", package: "swift-log")],
            path: "Shared/Logging",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "KiwiDatabase",
            dependencies: [
                "KiwiConcurrency",
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            path: "Shared/Database",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "KiwiServiceSupport",
            dependencies: [
                "KiwiConcurrency", "KiwiConfiguration", "KiwiDatabase", "KiwiLogging", "KiwiMessaging", "KiwiModels", "KiwiTracing",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Instrumentation", package: "swift-distributed-tracing"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "OTel", package: "swift-otel"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            path: "Shared/ServiceSupport",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "KiwiAppleSignIn",
            dependencies: [
                "KiwiConcurrency", "KiwiModels",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ],
            path: "Shared/AppleSignIn",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "KiwiMessaging",
            dependencies: [
                "CRabbitMQ", "KiwiConcurrency",
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Shared/Messaging",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "KiwiTracing",
            dependencies: [
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Instrumentation", package: "swift-distributed-tracing"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            path: "Shared/Tracing",
            swiftSettings: swiftSettings
        ),
        .systemLibrary(
            name: "CRabbitMQ",
            path: "Shared/CRabbitMQ",
            pkgConfig: "librabbitmq",
            providers: [.apt(["librabbitmq-dev"])]
        ),

        // MARK: Tests
        .target(
            name: "KiwiTestSupport",
            dependencies: [
                "KiwiConcurrency", "KiwiDatabase", "KiwiJPEG", "KiwiModels",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Tests/Support",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "KiwiModelsTests",
            dependencies: ["KiwiModels", "KiwiTestSupport"],
            resources: [.copy("Fixtures")],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "KiwiDietGuardTests",
            dependencies: ["KiwiDietGuard", "KiwiModels"],
            resources: [.copy("Fixtures")],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "KiwiConfigurationTests",
            dependencies: ["KiwiConfiguration"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "KiwiLoggingTests",
            dependencies: ["KiwiLogging", .product(name: "Logging", package: "swift-log")],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "KiwiDatabaseTests",
            dependencies: [
                "KiwiDevelopment",
                "KiwiConcurrency", "KiwiDatabase", "KiwiServiceSupport", "KiwiTestSupport",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "KiwiAuthTests",
            dependencies: [
                "KiwiDevelopment",
                "KiwiAppleSignIn", "KiwiAuth", "KiwiDatabase", "KiwiInternalAPI", "KiwiMessaging", "KiwiModels", "KiwiTestSupport",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "KiwiAppleSignInTests",
            dependencies: [
                "KiwiDevelopment",
                "KiwiAppleSignIn", "KiwiModels",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "KiwiMessagingTests",
            dependencies: [
                "KiwiDevelopment",
                "KiwiMessaging", "KiwiServiceSupport", "KiwiTestSupport",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "KiwiBenchmarkingTests",
            dependencies: ["KiwiBenchmarking"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "KiwiConcurrencyTests",
            dependencies: ["KiwiConcurrency", "KiwiTestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "KiwiJPEGTests",
            dependencies: ["KiwiDevelopment", "KiwiJPEG", "KiwiTestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "KiwiScanJobsTests",
            dependencies: ["KiwiMessaging", "KiwiModels", "KiwiScanJobs", "KiwiScans"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "KiwiLLMStubTests",
            dependencies: [
                "KiwiDevelopment", "KiwiDietGuard",
                "KiwiJPEG", "KiwiLLMStub", "KiwiModels", "KiwiOpenAI", "KiwiTestSupport",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            resources: [.copy("Fixtures")],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "KiwiScanWorkerTests",
            dependencies: [
                "KiwiDevelopment",
                "KiwiDatabase", "KiwiJPEG", "KiwiLLMStub", "KiwiMessaging", "KiwiModels", "KiwiOpenAI", "KiwiScanJobs", "KiwiScans",
                "KiwiScanWorker", "KiwiServiceSupport", "KiwiTestSupport",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            resources: [.copy("Fixtures")],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "KiwiDeploymentTests",
            dependencies: [
                "KiwiAuth", "KiwiConfiguration", "KiwiGateway", "KiwiMessaging", "KiwiScanWorker", "KiwiServiceSupport", "KiwiTestSupport",
                .product(name: "Yams", package: "Yams"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "KiwiGatewayTests",
            dependencies: [
                "KiwiConcurrency", "KiwiDatabase", "KiwiGateway", "KiwiInternalAPI", "KiwiMessaging", "KiwiModels", "KiwiOpenAI",
                "KiwiScanJobs", "KiwiScans", "KiwiServiceSupport", "KiwiTestSupport",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "KiwiServicesTests",
            dependencies: [
                "KiwiDevelopment",
                "KiwiAPIClient", "KiwiAppleSignIn", "KiwiAuth", "KiwiConcurrency", "KiwiConfiguration", "KiwiDatabase", "KiwiGateway",
                "KiwiInternalAPI", "KiwiJPEG",
                "KiwiBenchmarking", "KiwiLLMStub", "KiwiLoadTest", "KiwiModels", "KiwiScans", "KiwiScanWorker", "KiwiServiceSupport",
                "KiwiTestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            swiftSettings: swiftSettings
        ),
    ]
)
