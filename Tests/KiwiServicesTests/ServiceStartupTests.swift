import Foundation
import KiwiDevelopment
import KiwiMessaging
import KiwiTestSupport
import Logging
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Each service executable, run as a real process: configuration checks, health, graceful shutdown.
@Suite("Service executables")
struct ServiceStartupTests {
    static let services: [(name: String, required: [String])] = [
        ("kiwi-gateway", ["DATABASE_URL", "AMQP_URLS", "AUTH_SERVICE_URL", "INTERNAL_API_TOKEN"]),
        ("kiwi-auth", ["DATABASE_URL", "AMQP_URLS", "INTERNAL_API_TOKEN", "QUOTA_KEY_SECRET", "APPLE_CLIENT_ID"]),
        ("kiwi-scan-worker", ["DATABASE_URL", "AMQP_URLS", "OPENAI_API_KEY"]),
        ("kiwi-notifier", ["DATABASE_URL", "AMQP_URLS", "APNS_TEAM_ID", "APNS_KEY_ID", "APNS_KEY"]),
    ]

    @Test("with no configuration, each service exits non-zero naming every missing variable", arguments: services.map(\.name))
    func missingConfigurationExits(_ name: String) async throws {
        let required = try #require(Self.services.first { $0.name == name }?.required)
        let process = try ServiceProcess(name, environment: [:])
        #expect(await process.waitForExit() == 1)
        let output = process.capturedOutput()
        for variable in required { #expect(output.contains(variable), "\(variable) not named in: \(output)") }
        #expect(output.contains(#""level":"critical""#))
    }

    @Test(
        "a gateway or worker whose job queue is still an earlier version's classic queue exits at start, naming the runbook",
        arguments: ["kiwi-gateway", "kiwi-scan-worker"]
    )
    func classicJobQueueStopsService(_ name: String) async throws {
        let queue = "kiwi.test.scan-jobs.\(UUID().uuidString.lowercased())"
        let earlier = AMQPPublisher(
            settings: try AMQPSettings(url: try testAMQPURL(), connectionName: "kiwi-test-classic-queue"),
            topology: AMQPTopology(queues: [AMQPQueue(name: queue)]),
            logger: Logger(label: "test.startup")
        )
        try await whileRunning([earlier]) { await earlier.waitUntilConnected() }
        var environment = try serviceEnvironment(port: try reservePort())
        environment["SCAN_JOB_QUEUE"] = queue
        let process = try ServiceProcess(name, environment: environment)
        // The service gets as far as its broker before it exits: as long as a start-up, which on a machine busy with
        // the whole suite can take longer than a shutdown's 20 s.
        let exit = await process.waitForExit(timeout: .seconds(60))
        let output = process.capturedOutput()
        #expect(exit == 1, "\(output)")
        #expect(output.contains("Moving a running deployment to quorum queues"), "\(output)")
    }

    @Test("each service logs a JSON start-up line, answers GET /health and stops cleanly on SIGTERM", arguments: services.map(\.name))
    func startsServesAndStops(_ name: String) async throws {
        let port = try reservePort()
        let process = try ServiceProcess(name, environment: try serviceEnvironment(port: port))
        let status = await process.waitUntilServing(URL(string: "http://127.0.0.1:\(port)/health")!)
        process.send(SIGTERM)
        let exit = await process.waitForExit()
        let output = process.capturedOutput()
        #expect(status == 200, "\(output)")
        #expect(exit == 0, "\(output)")
        #expect(output.split(separator: "\n").contains { $0.hasPrefix("{") && $0.contains(#""message":"starting \#(name)""#) })
    }

    @Test("SIGINT (Ctrl-C) stops a service cleanly too")
    func stopsOnInterrupt() async throws {
        let port = try reservePort()
        let process = try ServiceProcess("kiwi-scan-worker", environment: try serviceEnvironment(port: port))
        #expect(await process.waitUntilServing(URL(string: "http://127.0.0.1:\(port)/health")!) == 200)
        process.send(SIGINT)
        #expect(await process.waitForExit() == 0)
    }

    @Test("the health endpoint answers with the documented body")
    func healthBody() async throws {
        let port = try reservePort()
        let process = try ServiceProcess("kiwi-scan-worker", environment: try serviceEnvironment(port: port))
        let url = URL(string: "http://127.0.0.1:\(port)/health")!
        #expect(await process.waitUntilServing(url) == 200)
        let body = try? await URLSession.shared.data(from: url).0
        process.send(SIGTERM)
        _ = await process.waitForExit()
        #expect(body.map { String(decoding: $0, as: UTF8.self) } == #"{"status":"ok"}"#)
    }
}
