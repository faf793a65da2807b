import AsyncHTTPClient
import Foundation
import Hummingbird
import HummingbirdTesting
import KiwiAppleSignIn
import KiwiDevelopment
import KiwiModels
import KiwiTestSupport
import Logging
import NIOCore
import NIOHTTP1
import Synchronization
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

    @Test("a failure below HTTP is reported by its kind, so that closed connections and connect timeouts are told apart")
    func namesTransportErrors() {
        #expect(ScanClient.transportError(HTTPClientError.remoteConnectionClosed) == "transport_error: HTTPClientError.remoteConnectionClosed")
        #expect(ScanClient.transportError(CancellationError()) == "transport_error: Swift.CancellationError")
    }

    @Test("a sign-in refused with Retry-After is not tried again for that person before the wait has passed")
    func signInHonoursRetryAfter() async throws {
        let attempts = Mutex<[ContinuousClock.Instant]>([])
        let router = Router()
        router.post("/v1/auth/apple") { _, _ -> Response in
            attempts.withLock { $0.append(.now) }
            return Response(status: .serviceUnavailable, headers: [.retryAfter: "1"])
        }
        var logger = Logger(label: "test.refusing-gateway")
        logger.logLevel = .critical
        try await Application(router: router, configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: 0)), logger: logger)
            .test(.live) { client in
                let api = GatewayAPI(gateway: "http://127.0.0.1:\(client.port!)", client: .shared, key: SystemRig.key, audience: "app.kiwi.test")
                let users = UserPool(api: api, people: 1)
                await #expect(throws: LoadTestError.self) { try await users.token() }
                await #expect(throws: LoadTestError.self) { try await users.token() }
            }
        let times = attempts.withLock { $0 }
        try #require(times.count == 2)
        #expect(times[1] - times[0] >= .seconds(1), "asked again \(times[1] - times[0]) after a Retry-After of 1 s")
    }

    @Test("event names are read from a stream cut anywhere, as from the stream whole; data lines are not names")
    func readsEventNamesAcrossChunks() {
        let stream = Array(
            ("id: 1\nevent: status\ndata: {\"status\":\"queued\"}\n\n: keep-alive\n\nid: 3\nevent: ingredients\ndata: {\"event: recipe\"}\n\n"
                + "id: 4\nevent: recipe\ndata: \(String(repeating: "x", count: 200))\n\nid: 5\nevent: result\ndata: {}\n\n").utf8
        )
        var whole = EventNameReader()
        let names = whole.names(in: stream)
        #expect(names == ["status", "ingredients", "recipe", "result"])
        for size in [1, 2, 7, 13] {
            var reader = EventNameReader()
            var cut: [String] = []
            for start in stride(from: 0, to: stream.count, by: size) { cut += reader.names(in: stream[start..<min(stream.count, start + size)]) }
            #expect(cut == names, "in chunks of \(size) bytes")
        }
    }

    @Test("a shopping list's events are read as their items' names from a stream cut anywhere; comments are not lists")
    func readsListEventsAcrossChunks() {
        let stream = Array(
            (": keep-alive\n\nid: a1\nevent: list\ndata: {\"sections\":[{\"section\":\"dairy\",\"items\":[{\"name\":\"Milk\"}]},"
                + "{\"section\":\"other\",\"items\":[{\"name\":\"Item 1 2\"},{\"name\":\"Soap\"}]}]}\n\n"
                + "id: b2\nevent: list\ndata: {\"sections\":[]}\n\n").utf8
        )
        let expected: [Set<String>] = [["Milk", "Item 1 2", "Soap"], []]
        for size in [1, 3, 17, stream.count] {
            var reader = ListEventReader()
            var lists: [Set<String>] = []
            for start in stride(from: 0, to: stream.count, by: size) {
                lists += reader.lists(in: ByteBuffer(bytes: stream[start..<min(stream.count, start + size)]))
            }
            #expect(lists == expected, "in chunks of \(size) bytes")
        }
    }

    @Test("a household of any size has the same allergies between its members, all the scanner's in a household of one")
    func seatingDealsOneUnionAtEverySize() {
        for size in 1...Household.capacity {
            let seating = HouseholdSeating(size: size)
            let dealt = (0..<size).flatMap { seating.allergies(ofMember: $0) }
            #expect(dealt.sorted() == HouseholdSeating.allergies.sorted(), "a household of \(size)")
        }
        #expect(HouseholdSeating(size: 1).allergies(ofMember: 0) == HouseholdSeating.allergies)
        #expect(HouseholdSeating(size: 4).allergies(ofMember: 2) == ["lupin"])
    }

    @Test("a histogram's growth over the window is summed over its label sets, its p50 and p99 read as bucket bounds")
    func readsHistogramWindow() {
        let name = "kiwi_scan_event_delay_seconds"
        func text(_ counts: [String: [Double]]) -> MetricsSnapshot {
            let bounds = ["0.005", "0.01", "0.025", "+Inf"]
            return MetricsSnapshot(
                text: counts.flatMap { kind, values in
                    zip(bounds, values).map { "\(name)_bucket{kind=\"\(kind)\",le=\"\($0)\"} \($1)" }
                        + ["\(name)_count{kind=\"\(kind)\"} \(values.last ?? 0)", "\(name)_sum{kind=\"\(kind)\"} \((values.last ?? 0) * 0.004)"]
                }.joined(separator: "\n") + "\n# TYPE other counter\nother 1\n"
            )
        }
        let before = text(["recipe": [1, 1, 1, 1]])
        // 100 more: 60 within 5 ms, 39 more within 10 ms, 1 more within 25 ms.
        let after = text(["recipe": [41, 60, 61, 61], "ingredients": [20, 40, 40, 40]])
        let window = HistogramWindow(name, from: before, to: after)
        #expect(window.count == 100)
        #expect(window.p50AtMostMs == 5)
        #expect(window.p99AtMostMs == 10)
        #expect(window.buckets.map(\.count) == [60, 99, 100])
        #expect(abs((window.meanMs ?? 0) - 4) < 0.001)
    }

    @Test("a p99 beyond the histogram's largest finite bucket is reported as none")
    func histogramBeyondItsBuckets() {
        let name = "delay_seconds"
        let before = MetricsSnapshot(text: "")
        let after = MetricsSnapshot(text: "\(name)_bucket{le=\"0.01\"} 90\n\(name)_bucket{le=\"+Inf\"} 100\n\(name)_count 100\n\(name)_sum 2\n")
        let window = HistogramWindow(name, from: before, to: after)
        #expect(window.p50AtMostMs == 10)
        #expect(window.p99AtMostMs == nil)
    }

    @Test("messages published on one exchange are counted from RabbitMQ's per-channel counters, a channel opened meanwhile from zero")
    func countsMessagesPublishedOnAnExchange() {
        let metric = "rabbitmq_detailed_channel_messages_published_total"
        let before = MetricsSnapshot(
            text: """
                \(metric){channel="<0.1.0>",vhost="/",exchange="kiwi.scans.news"} 10
                \(metric){channel="<0.1.0>",vhost="/",exchange="kiwi.scan.jobs"} 5
                """
        )
        let after = MetricsSnapshot(
            text: """
                \(metric){channel="<0.1.0>",vhost="/",exchange="kiwi.scans.news"} 25
                \(metric){channel="<0.2.0>",vhost="/",exchange="kiwi.scans.news"} 4
                \(metric){channel="<0.1.0>",vhost="/",exchange="kiwi.scan.jobs"} 50
                """
        )
        #expect(after.messagesPublished(on: "kiwi.scans.news", since: before) == 19)
    }

    @Test("a short closed-loop run signs users in as their quota runs out, succeeds on every scan and reports it as JSON")
    func closedLoopRun() async throws {
        let run = try await SystemRig.run(behaviour: StubBehaviour(latencyMilliseconds: 100)) { rig in
            // The load starts on a rig that has answered a scan: every service up, connected and consuming.
            let first = try await rig.scan(SyntheticJPEG.make(size: 16 * 1024, seed: 103), token: try await rig.signIn())
            try #require(first.status == 200, "\(String(decoding: first.body, as: UTF8.self))")
            let processes = try ["kiwi-gateway-0", "kiwi-scan-worker"].flatMap { name in
                ["--process", "\(name)=\(try #require(rig.processes[name]).pid)"]
            }
            return try await Self.loadTest(
                [
                    // Measured after a warm-up: on a machine busy with the rest of the suite, the first scans of a fresh
                    // process can take seconds, and a window they all straddle would measure nothing.
                    "--gateway", rig.gateway.absoluteString, "--concurrency", "4", "--warmup", "5", "--duration", "5", "--image-size", "65536",
                ] + processes
            )
        }
        #expect(run.output.contains("| scans/s |"))
        let (json, text) = (try run.json(), run.report)
        let scans = try #require(json["scans"] as? Int)
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

extension LoadTestTests {
    @Test("an async run times each scan's ingredients and first recipe before its result, and reads the events' cost from the metrics")
    func asyncRunTimesStreamedEvents() async throws {
        // A paced stream, so that the ingredients come well before the last recipe: about 2 s a scan.
        var behaviour = StubBehaviour()
        behaviour.tokensPerSecond = 600

        let run = try await SystemRig.run(behaviour: behaviour) { rig in
            let first = try await rig.scan(SyntheticJPEG.make(size: 16 * 1024, seed: 104), token: try await rig.signIn())
            try #require(first.status == 200, "\(String(decoding: first.body, as: UTF8.self))")
            return try await Self.loadTest([
                "--gateway", rig.gateway.absoluteString, "--async", "--concurrency", "2", "--warmup", "3", "--duration", "6",
                "--image-size", "65536", "--idle-after", "0",
                "--process", "kiwi-gateway-0=\(try #require(rig.processes["kiwi-gateway-0"]).pid)",
                "--gateway-metrics", try #require(rig.metrics["kiwi-gateway-0"]).absoluteString,
                "--broker-metrics", try testRabbitMQMetricsURL() + "/metrics/detailed?family=channel_exchange_metrics",
            ])
        }
        #expect(run.output.contains("| ingredients |"))
        let (json, text) = (try run.json(), run.report)
        let succeeded = try #require(json["succeeded"] as? Int)
        #expect(succeeded >= 2 && json["scans"] as? Int == succeeded, "\(text)")
        let streamed = try #require(json["streamed"] as? [String: Any])
        func p50(_ key: String) throws -> Double {
            let summary = try #require(streamed[key] as? [String: Any])
            #expect(summary["count"] as? Int == succeeded, "every successful scan showed its \(key): \(text)")
            return try #require(summary["p50"] as? Double)
        }
        let (ingredients, recipe, result) = (try p50("ingredientsMs"), try p50("firstRecipeMs"), try p50("resultMs"))
        #expect(ingredients < recipe && recipe < result, "\(text)")
        #expect((streamed["samples"] as? [Any])?.count == succeeded)
        let delay = try #require(json["eventDelayMs"] as? [String: Any])
        #expect(try #require(delay["count"] as? Double) > 0, "the gateway timed the window's events: \(text)")
        #expect(try #require(json["eventMessages"] as? Double) > 0, "the workers announced each element: \(text)")
    }
}

extension LoadTestTests {
    @Test("a seated scanner's household has as many members as asked, who share the load test's allergies between them")
    func seatsAHousehold() async throws {
        try await SystemRig.run { rig in
            let api = GatewayAPI(gateway: rig.gateway.absoluteString, client: .shared, key: SystemRig.key, audience: SystemRig.audience)
            let scanner = try await api.signIn()
            try await HouseholdSeating(size: 3).seat(scanner, api: api)
            struct Household: Decodable {
                struct Member: Decodable { var allergies: [String] }
                var members: [Member]
            }
            let household: Household = try await api.call(.GET, "/v1/household", token: scanner)
            #expect(household.members.count == 3)
            #expect(household.members.flatMap(\.allergies).sorted() == HouseholdSeating.allergies.sorted())
        }
    }

    @Test("a household run scans as members of households and times each shopping-list change to the other gateway's stream")
    func householdRunTimesListChanges() async throws {
        let run = try await SystemRig.run(behaviour: StubBehaviour(latencyMilliseconds: 100), gateways: 2) { rig in
            let first = try await rig.scan(SyntheticJPEG.make(size: 16 * 1024, seed: 105), token: try await rig.signIn())
            try #require(first.status == 200, "\(String(decoding: first.body, as: UTF8.self))")
            return try await Self.loadTest(
                rig.gateways.flatMap { ["--gateway", $0.absoluteString] } + [
                    "--concurrency", "2", "--people", "2", "--household-size", "2", "--list-pairs", "1", "--list-interval", "0.5",
                    "--warmup", "3", "--duration", "4", "--image-size", "65536", "--idle-after", "0",
                    "--process", "kiwi-gateway-0=\(try #require(rig.processes["kiwi-gateway-0"]).pid)",
                ]
            )
        }
        #expect(run.output.contains("shopping-list changes sent in the window"))
        let (json, text) = (try run.json(), run.report)
        let succeeded = try #require(json["succeeded"] as? Int)
        #expect(succeeded >= 2 && json["scans"] as? Int == succeeded, "\(text)")
        #expect((json["mode"] as? String)?.contains("households of 2") == true, "\(text)")
        let changes = try #require(json["listChanges"] as? [String: Any])
        // Four seconds of a change every half second, every one of them shown.
        let count = try #require(changes["changes"] as? Int)
        #expect(count >= 4, "\(text)")
        #expect(changes["lost"] as? Int == 0, "\(text)")
        #expect((changes["samplesMs"] as? [Double])?.count == count, "\(text)")
    }
}

extension LoadTestTests {
    /// A finished kiwi-loadtest run: what it printed, and its JSON report (`--json`) as text.
    struct Run: Sendable {
        var output: String
        var report: String

        /// The report's members.
        func json() throws -> [String: Any] {
            try #require(try JSONSerialization.jsonObject(with: Data(report.utf8)) as? [String: Any], "\(output)")
        }
    }

    /// Runs kiwi-loadtest with `arguments`, its people signed in with the rig's development key from a directory of
    /// the run's own, where its report is written too; expects it to exit 0 within a minute.
    static func loadTest(_ arguments: [String]) async throws -> Run {
        let keys = FileManager.default.temporaryDirectory.appending(path: "kiwi-loadtest-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: keys, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: keys) }
        try Data(SystemRig.key.pemRepresentation.utf8).write(to: keys.appending(path: "key.pem"))
        let report = keys.appending(path: "report.json")
        let loadtest = try ServiceProcess(
            "kiwi-loadtest",
            arguments: arguments + ["--key-directory", keys.path, "--json", report.path],
            environment: [:]
        )
        let status = await loadtest.waitForExit(timeout: .seconds(60))
        #expect(status == 0, "\(loadtest.capturedOutput())")
        return Run(output: loadtest.capturedOutput(), report: (try? String(contentsOf: report, encoding: .utf8)) ?? "")
    }
}
