import Foundation
import KiwiAppleSignIn
import KiwiDevelopment
import KiwiTestSupport
import NIOHTTP1
import Testing

@testable import KiwiLLMStub
@testable import KiwiLoadTest

/// `kiwi-loadtest` against the real services: what it reports is what happened.
@Suite("Load generator", .serialized, .timeLimit(.minutes(3)))
struct LoadTestTests {
    @Test("the Server-Timing header's llm duration is read, whatever else the header carries")
    func readsServerTiming() {
        #expect(ScanClient.modelTime(inServerTiming: "llm;dur=2003.5") == .microseconds(2_003_500))
        #expect(ScanClient.modelTime(inServerTiming: "db;dur=3, llm;desc=\"model\";dur=12") == .milliseconds(12))
        #expect(ScanClient.modelTime(inServerTiming: "llm") == nil)
        #expect(ScanClient.modelTime(inServerTiming: "llm;dur=-1") == nil)
    }

    @Test("Retry-After in whole seconds is how long a refused lane waits; a date or nonsense is not read")
    func readsRetryAfter() {
        #expect(ScanClient.retryAfter(["Retry-After": "1"]) == .seconds(1))
        #expect(ScanClient.retryAfter(["Retry-After": " 30 "]) == .seconds(30))
        #expect(ScanClient.retryAfter(["Retry-After": "Wed, 21 Oct 2026 07:28:00 GMT"]) == nil)
        #expect(ScanClient.retryAfter(["Retry-After": "-1"]) == nil)
        #expect(ScanClient.retryAfter([:]) == nil)
    }

    @Test("a short closed-loop run signs users in as their quota runs out, succeeds on every scan and reports it as JSON")
    func closedLoopRun() async throws {
        let keys = FileManager.default.temporaryDirectory.appending(path: "kiwi-loadtest-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: keys, withIntermediateDirectories: true)
        try Data(SystemRig.key.pemRepresentation.utf8).write(to: keys.appending(path: "key.pem"))
        let report = keys.appending(path: "report.json")
        defer { try? FileManager.default.removeItem(at: keys) }

        try await SystemRig.run(behaviour: StubBehaviour(latencyMilliseconds: 100)) { rig in
            // The load starts on a rig that has answered a scan: every service up, connected and consuming.
            let first = try await rig.scan(SyntheticJPEG.make(size: 16 * 1024, seed: 103), token: try await rig.signIn())
            try #require(first.status == 200, "\(String(decoding: first.body, as: UTF8.self))")
            let processes = try ["kiwi-gateway-0", "kiwi-scan-worker"].flatMap { name in
                ["--process", "\(name)=\(try #require(rig.processes[name]).pid)"]
            }
            let loadtest = try ServiceProcess(
                "kiwi-loadtest",
                arguments: [
                    // Measured after a warm-up: on a machine busy with the rest of the suite, the first scans of a fresh
                    // process can take seconds, and a window they all straddle would measure nothing.
                    "--gateway", rig.gateway.absoluteString, "--concurrency", "4", "--warmup", "5", "--duration", "5", "--image-size", "65536",
                    "--key-directory", keys.path, "--json", report.path,
                ] + processes,
                environment: [:]
            )
            let status = await loadtest.waitForExit(timeout: .seconds(60))
            #expect(status == 0, "\(loadtest.capturedOutput())")
            #expect(loadtest.capturedOutput().contains("| scans/s |"))
        }
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any])
        let scans = try #require(json["scans"] as? Int)
        let text = String(decoding: try Data(contentsOf: report), as: UTF8.self)
        // Each lane finishes a scan at least: on a machine the whole suite shares, a 100 ms scan can take seconds.
        #expect(scans >= 4, "4 lanes of 100 ms scans for 5 s: \(text)")
        #expect(json["succeeded"] as? Int == scans)
        #expect(try #require(json["users"] as? Int) >= scans / 4, "each user has 4 scans a day")
        #expect(try #require(json["scansPerSecond"] as? Double) > 0)
        let added = try #require(json["gatewayAddedMs"] as? [String: Any])
        #expect(added["count"] as? Int == scans)
        let latency = try #require(json["latencyMs"] as? [String: Any])
        #expect(try #require(latency["p50"] as? Double) >= 100, "the stub's latency is part of every scan")
        let processes = try #require(json["processes"] as? [[String: Any]])
        #expect(processes.map { $0["name"] as? String } == ["kiwi-gateway-0", "kiwi-scan-worker"])
        #expect(processes.allSatisfy { ($0["peakRSSMiB"] as? Double ?? 0) > 1 })
    }
}
