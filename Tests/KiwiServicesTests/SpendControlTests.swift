import Foundation
import KiwiDatabase
import KiwiDevelopment
import KiwiTestSupport
import Logging
import NIOHTTP1
import PostgresNIO
import Testing

@testable import KiwiLLMStub

/// Spend and provider control through the real processes: model routes that give way to each other, circuit
/// breakers, the daily budget across gateways and the per-person token cap.
@Suite("Spend and provider control", .serialized, .timeLimit(.minutes(3)))
struct SpendControlTests {
    let photo = SyntheticJPEG.make(size: 16 * 1024, seed: 59)
    /// Two routes to the stub, told apart by their models.
    let twoRoutes = [
        "LLM_MODELS": #"[{"name": "primary", "model": "gpt-4o"}, {"name": "backup", "model": "gpt-4o-mini"}]"#,
        "OPENAI_MAX_RETRIES": "1",
    ]

    /// The route, model and cost recorded on scan `id`.
    func spend(of id: String, rig: SystemRig) async throws -> (route: String?, model: String?, costNanos: Int64?) {
        try await rig.database { client in
            let rows = try await client.query("SELECT route, model, cost_nanousd FROM scans WHERE id = \(try #require(UUID(uuidString: id)))")
            for try await row in rows.decode((String?, String?, Int64?).self) { return row }
            throw CancellationError()
        }
    }

    func scanID(_ answer: SystemRig.Exchange) throws -> String {
        try #require(answer.headers.first(name: "Location")?.split(separator: "/").last.map(String.init))
    }

    func remaining(token: String, rig: SystemRig) async throws -> Int? {
        try await rig.send(.GET, "/v1/quota", token: token).json()["remaining"] as? Int
    }

    @Test("a route out of quota gives way to the next: the scan succeeds, is charged once, and its record names the route that answered")
    func fallbackOnInsufficientQuota() async throws {
        try await SystemRig.run(environment: twoRoutes) { rig in
            rig.stub.setBehaviour(StubBehaviour(fault: .insufficientQuota), model: "gpt-4o")
            let token = try await rig.signIn()
            let day = UTCDay()
            let answer = try await rig.scan(photo, token: token)
            #expect(answer.status == 200)
            #expect(day.allows(try await remaining(token: token, rig: rig), exactly: 3, limit: 4))
            let recorded = try await spend(of: try scanID(answer), rig: rig)
            #expect(recorded.route == "backup")
            #expect(recorded.model == "gpt-4o-mini")
            #expect((recorded.costNanos ?? 0) > 0)
            // insufficient_quota is never retried: one call on each route.
            #expect(rig.stub.snapshot.requestsByModel == ["gpt-4o": 1, "gpt-4o-mini": 1])
        }
    }

    @Test("a failing route's breaker opens after its threshold, later scans skip it without a call, and a probe after the cool-down closes it")
    func breakerOpensAndCloses() async throws {
        var environment = twoRoutes
        environment["LLM_BREAKER_FAILURES"] = "2"
        // Long enough for the scans below on a busy machine; the test waits it out once.
        environment["LLM_BREAKER_COOLDOWN_SECONDS"] = "20"
        try await SystemRig.run(environment: environment, gatewayEnvironment: ["SCAN_DAILY_LIMIT": "100"]) { rig in
            rig.stub.setBehaviour(StubBehaviour(fault: .serverError), model: "gpt-4o")
            let token = try await rig.signIn()
            // The first scan fails twice on the primary (an attempt and its retry), which opens its breaker.
            #expect(try await rig.scan(photo, token: token).status == 200)
            let opened = ContinuousClock.now
            #expect(rig.stub.snapshot.requestsByModel["gpt-4o"] == 2)
            for _ in 1...2 { #expect(try await rig.scan(photo, token: token).status == 200) }
            #expect(rig.stub.snapshot.requestsByModel["gpt-4o"] == 2, "a scan called a route whose breaker is open")
            #expect(rig.stub.snapshot.requestsByModel["gpt-4o-mini"] == 3)

            rig.stub.setBehaviour(StubBehaviour(), model: "gpt-4o")
            try await Task.sleep(until: opened + .seconds(20.5))
            let probed = try await rig.scan(photo, token: token)
            #expect(probed.status == 200)
            #expect(try await spend(of: try scanID(probed), rig: rig).route == "primary")
            #expect(try await spend(of: try scanID(try await rig.scan(photo, token: token)), rig: rig).route == "primary")
            #expect(rig.stub.snapshot.requestsByModel == ["gpt-4o": 4, "gpt-4o-mini": 3])
            let metrics = try await rig.send(.GET, "", to: rig.metrics["kiwi-scan-worker"])
            let text = PrometheusText(String(decoding: metrics.body, as: UTF8.self))
            #expect(text.value("kiwi_llm_breaker_transitions_total", ["route": "primary", "to": "open"]) == 1)
            #expect(text.value("kiwi_llm_breaker_transitions_total", ["route": "primary", "to": "closed"]) == 1)
            #expect(text.value("kiwi_llm_breaker_state", ["route": "primary"]) == 0)
        }
    }

    @Test("with every route's breaker open a scan fails with 503 and a Retry-After, calling no one")
    func allRoutesOpenFailFast() async throws {
        var environment = twoRoutes
        environment["LLM_BREAKER_FAILURES"] = "1"
        environment["LLM_BREAKER_COOLDOWN_SECONDS"] = "60"
        environment["OPENAI_MAX_RETRIES"] = "0"
        try await SystemRig.run(environment: environment) { rig in
            rig.stub.setBehaviour(StubBehaviour(fault: .unavailable))
            let token = try await rig.signIn()
            let first = try await rig.scan(photo, token: token)
            #expect(first.status == 503)
            #expect(first.headers.first(name: "Retry-After") != nil)
            let calls = rig.stub.snapshot.requests
            let fast = try await rig.scan(photo, token: token)
            #expect(fast.status == 503)
            #expect(try fast.json()["error"] as? String == "scan_unavailable")
            let retryAfter = try #require(fast.headers.first(name: "Retry-After").flatMap(Int.init))
            #expect((1...60).contains(retryAfter))
            #expect(rig.stub.snapshot.requests == calls, "a scan called a route whose breaker is open")
            #expect(try await remaining(token: token, rig: rig) == 4)
        }
    }

    @Test("as the rate-limit headers count down to zero, the worker takes fewer jobs at once and OpenAI never answers 429")
    func intakeSlowsBeforeTheLimit() async throws {
        // Ten requests a minute for a worker that would run eight at once, each call taking 300 ms.
        try await SystemRig.run(
            behaviour: StubBehaviour(latencyMilliseconds: 300, requestsPerMinute: 10),
            gatewayEnvironment: ["SCAN_DAILY_LIMIT": "100"]
        ) { rig in
            let token = try await rig.signIn()
            let upload = MultipartUpload.make(photo)
            let started = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 1...12 {
                    group.addTask {
                        try await rig.send(.POST, "/v1/scans", token: token, contentType: upload.contentType, body: upload.body).status
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(started.allSatisfy { $0 == 202 })
            // The first ten answers used up the window; the last two wait for it to reset instead of calling: the
            // worker holds the next job with none in flight.
            func workerMetrics() async throws -> PrometheusText {
                PrometheusText(String(decoding: try await rig.send(.GET, "", to: rig.metrics["kiwi-scan-worker"]).body, as: UTF8.self))
            }
            try await eventually(timeout: .seconds(30), every: .milliseconds(200)) {
                guard rig.stub.snapshot.requests >= 10 else { return false }
                let metrics = try await workerMetrics()
                return metrics.value("kiwi_worker_jobs_held") == 1 && metrics.value("kiwi_worker_jobs_in_flight") == 0
            }
            let snapshot = rig.stub.snapshot
            #expect(snapshot.requests == 10)
            #expect(snapshot.requestsOverLimit == 0, "the worker called past the rate limit")
            #expect(try await workerMetrics().value("kiwi_worker_intake_limit") == 0)
        }
    }

    @Test("a person whose scans spent the day's tokens gets 429 and a quota of none left")
    func userTokenCap() async throws {
        try await SystemRig.run(gatewayEnvironment: ["LLM_USER_DAILY_TOKENS": "1"]) { rig in
            let token = try await rig.signIn()
            let day = UTCDay()
            #expect(try await rig.scan(photo, token: token).status == 200)
            let refused = try await rig.scan(photo, token: token)
            #expect(refused.status == 429)
            #expect(try refused.json()["error"] as? String == "rate_limit_exceeded")
            #expect(day.allows(try await remaining(token: token, rig: rig), exactly: 0, limit: 4))
            #expect(try await rig.scan(photo, token: try await rig.signIn()).status == 200, "another person was refused")
        }
    }

    @Test(
        "a budget three scans exceed: the fourth scan on either gateway is 503 until midnight UTC; at once, no more than the scans in flight overshoot it"
    )
    func dailyBudgetAcrossGateways() async throws {
        // A database of its own: everyone's spend of the day is one figure, which other tests would add to.
        try await withTemporaryDatabase { configuration in
            var url = try #require(URLComponents(string: try testDatabaseURL()))
            url.path = "/" + (configuration.database ?? "")
            let budget: Int64 = 1_000_000_000  // $1
            try await SystemRig.run(
                environment: ["DATABASE_URL": try #require(url.string)],
                gatewayEnvironment: ["LLM_DAILY_BUDGET_USD": "1", "SCAN_DAILY_LIMIT": "100"],
                gateways: 2
            ) { rig in
                try await withClient(configuration) { database in
                    @Sendable func spent() async throws -> Int64 {
                        let rows = try await database.query(
                            "SELECT cost_nanousd FROM daily_model_spend WHERE spend_date = (now() AT TIME ZONE 'UTC')::date"
                        )
                        for try await cost in rows.decode(Int64.self) { return cost }
                        return 0
                    }
                    @Sendable func setSpent(_ nanos: Int64) async throws {
                        let logger = Logger(label: "test.spend")
                        try await database.execute(
                            "UPDATE model_spend_parts SET cost_nanousd = 0 WHERE spend_date = (now() AT TIME ZONE 'UTC')::date",
                            logger: logger
                        )
                        try await database.execute(
                            """
                            INSERT INTO model_spend_parts (spend_date, part, cost_nanousd, tokens)
                            VALUES ((now() AT TIME ZONE 'UTC')::date, 0, \(nanos), 0)
                            ON CONFLICT (spend_date, part) DO UPDATE SET cost_nanousd = EXCLUDED.cost_nanousd
                            """,
                            logger: logger
                        )
                    }
                    let token = try await rig.signIn()
                    let day = UTCDay()
                    // One scan tells what a scan of this photo costs; then the day's spend is set so that three more exceed the budget.
                    #expect(try await rig.scan(photo, token: token).status == 200)
                    let scanCost = try await spent()
                    #expect(scanCost > 0)
                    try await setSpent(budget - scanCost * 5 / 2)
                    for gateway in [rig.gateways[0], rig.gateways[1], rig.gateways[0]] {
                        let upload = MultipartUpload.make(photo)
                        #expect(
                            try await rig.send(.POST, "/v1/scan", token: token, contentType: upload.contentType, body: upload.body, to: gateway)
                                .status == 200
                        )
                    }
                    #expect(try await spent() > budget)
                    for gateway in rig.gateways {
                        let upload = MultipartUpload.make(photo)
                        let refused = try await rig.send(
                            .POST,
                            "/v1/scan",
                            token: token,
                            contentType: upload.contentType,
                            body: upload.body,
                            to: gateway
                        )
                        #expect(refused.status == 503)
                        #expect(try refused.json()["error"] as? String == "scan_unavailable")
                        #expect((try refused.json()["message"] as? String)?.contains("paused for today") == true)
                        let retryAfter = try #require(refused.headers.first(name: "Retry-After").flatMap(Int.init))
                        let midnight = Calendar(identifier: .gregorian).nextDate(
                            after: Date(),
                            matching: DateComponents(timeZone: TimeZone(identifier: "UTC"), hour: 0, minute: 0, second: 0),
                            matchingPolicy: .strict
                        )!
                        #expect(abs(Double(retryAfter) - midnight.timeIntervalSinceNow) < 5)
                    }
                    #expect(day.allows(try await remaining(token: token, rig: rig), exactly: 96, limit: 100), "a refused scan was charged")

                    // Eight at once with half a scan left: each was let in only while the spend was below the budget,
                    // so the overshoot is at most what the ones let in cost.
                    try await setSpent(budget - scanCost / 2)
                    let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                        for index in 0..<8 {
                            group.addTask {
                                let upload = MultipartUpload.make(photo)
                                return try await rig.send(
                                    .POST,
                                    "/v1/scan",
                                    token: token,
                                    contentType: upload.contentType,
                                    body: upload.body,
                                    to: rig.gateways[index % 2]
                                ).status
                            }
                        }
                        return try await group.reduce(into: []) { $0.append($1) }
                    }
                    let admitted = Int64(statuses.filter { $0 == 200 }.count)
                    #expect(statuses.allSatisfy { $0 == 200 || $0 == 503 })
                    #expect(admitted >= 1)
                    #expect(try await spent() == budget - scanCost / 2 + admitted * scanCost)
                }
            }
        }
    }
}
