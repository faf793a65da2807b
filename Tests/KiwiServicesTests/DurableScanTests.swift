import Foundation
import KiwiDevelopment
import KiwiModels
import KiwiTestSupport
import Logging
import NIOHTTP1
import PostgresNIO
import Testing

@testable import KiwiLLMStub

/// The scan ledger through the real processes: a scan outlives its gateway, and a retry does not pay twice.
@Suite("Durable scans", .serialized, .timeLimit(.minutes(4)))
struct DurableScanTests {
    let photo = SyntheticJPEG.make(size: 16 * 1024, seed: 41)

    /// The states of the user's scans, sorted.
    func states(of user: UUID, rig: SystemRig) async throws -> [String] {
        try await rig.database { client in
            var states: [String] = []
            let rows = try await client.query("SELECT state || coalesce(' ' || error_code, '') FROM scans WHERE user_id = \(user)")
            for try await state in rows.decode(String.self) { states.append(state) }
            return states.sorted()
        }
    }

    /// The user's scans by id, with their states.
    func scans(of user: UUID, rig: SystemRig) async throws -> [UUID: String] {
        try await rig.database { client in
            var scans: [UUID: String] = [:]
            for try await (id, state) in try await client.query("SELECT id, state FROM scans WHERE user_id = \(user)").decode((UUID, String).self) {
                scans[id] = state
            }
            return scans
        }
    }

    @Test(
        "a gateway killed with 20 scans in flight loses none: the worker finishes each, another gateway serves every result, and charges equal successes"
    )
    func killedGatewayLosesNothing() async throws {
        try await SystemRig.run(
            // Long enough that all 20 are reserved before the first is answered, on a machine the whole suite keeps
            // busy too (15 s was not, once).
            behaviour: StubBehaviour(latencyMilliseconds: 30_000),
            environment: ["SCAN_TIMEOUT_SECONDS": "90", "WORKER_CONCURRENCY": "20"],
            gatewayEnvironment: ["SCAN_DAILY_LIMIT": "20"],
            gateways: 2
        ) { rig in
            let token = try await rig.signIn()
            let day = UTCDay()
            let user = try await rig.userID(of: token)
            // 12 scans started with POST /v1/scans, then 8 clients waiting on POST /v1/scan (the HTTP client's
            // connections per host).
            let upload = MultipartUpload.make(photo)
            for _ in 0..<12 {
                try #require(try await rig.send(.POST, "/v1/scans", token: token, contentType: upload.contentType, body: upload.body).status == 202)
            }
            let clients = Task {
                await withTaskGroup(of: Void.self) { group in
                    for _ in 0..<8 {
                        group.addTask { _ = try? await rig.send(.POST, "/v1/scan", token: token, contentType: upload.contentType, body: upload.body) }
                    }
                }
            }
            let reserved = ContinuousClock.now + .seconds(30)
            while try await scans(of: user, rig: rig).count < 20, ContinuousClock.now < reserved { try await Task.sleep(for: .milliseconds(250)) }
            let inFlight = try await scans(of: user, rig: rig)
            try #require(inFlight.count == 20 && inFlight.values.allSatisfy { $0 == "queued" || $0 == "running" }, "\(inFlight)")
            rig.processes["kiwi-gateway-0"]!.send(SIGKILL)
            await clients.value
            let finished = ContinuousClock.now + .seconds(60)
            while try await scans(of: user, rig: rig).values.contains(where: { $0 == "queued" || $0 == "running" }), ContinuousClock.now < finished {
                try await Task.sleep(for: .milliseconds(500))
            }
            let final = try await scans(of: user, rig: rig)
            #expect(final.values.allSatisfy { $0 == "succeeded" }, "\(final)")
            for id in final.keys {
                let resource = try await rig.send(.GET, "/v1/scans/\(id)", token: token, to: rig.gateways[1])
                #expect(resource.status == 200)
                #expect(try resource.json()["result"] is [String: Any], "scan \(id) has no result at the other gateway")
            }
            let quota = try await rig.send(.GET, "/v1/quota", token: token, to: rig.gateways[1]).json()
            #expect(day.allows(quota["remaining"] as? Int, exactly: 20 - final.values.filter { $0 == "succeeded" }.count, limit: 20))
            #expect(rig.stub.snapshot.requests == 20, "one model call per scan")
        }
    }

    @Test(
        "SIGTERM stops a gateway with clients waiting within its shutdown timeout, not their scans' deadline; the scans go on, and keyed retries elsewhere get each one's answer, charged once"
    )
    func gracefulShutdownIsBounded() async throws {
        try await SystemRig.run(
            // The model takes longer than the gateway's shutdown may: the scans are still running when it stops.
            behaviour: StubBehaviour(latencyMilliseconds: 20_000),
            environment: ["SCAN_TIMEOUT_SECONDS": "60"],
            gatewayEnvironment: ["SCAN_DAILY_LIMIT": "20", "SHUTDOWN_TIMEOUT_SECONDS": "2"],
            gateways: 2
        ) { rig in
            let token = try await rig.signIn()
            let day = UTCDay()
            let user = try await rig.userID(of: token)
            let upload = MultipartUpload.make(photo)
            let keys = (0..<4).map { "shutdown-\($0)-\(UUID().uuidString)" }
            @Sendable func scan(key: String, on gateway: URL) async throws -> SystemRig.Exchange {
                try await rig.send(
                    .POST,
                    "/v1/scan",
                    token: token,
                    contentType: upload.contentType,
                    body: upload.body,
                    to: gateway,
                    headers: [("Idempotency-Key", key)]
                )
            }
            let clients = Task {
                await withTaskGroup(of: Void.self) { group in
                    for key in keys { group.addTask { _ = try? await scan(key: key, on: rig.gateways[0]) } }
                }
            }
            // Stopped with its four scans stored and unfinished: queued ones go on as surely as running ones, since their
            // jobs are the broker's. Waiting for all four to run would ask a loaded worker to start them within the
            // model's 20 s.
            try await eventually(timeout: .seconds(60), every: .milliseconds(100)) { try await states(of: user, rig: rig).count == 4 }
            let stopped = try await states(of: user, rig: rig)
            try #require(stopped.allSatisfy { $0 == "queued" || $0 == "running" }, "\(stopped)")
            let gateway = try #require(rig.processes["kiwi-gateway-0"])
            gateway.send(SIGTERM)
            // Its shutdown timeout is 2 s; the model answers in 20 s, the scans' deadline is a minute away.
            #expect(await gateway.waitForExit(timeout: .seconds(10)) == 0, "the gateway did not stop, or not cleanly, long before its scans ended")
            await clients.value
            for key in keys {
                let answer = try await scan(key: key, on: rig.gateways[1])
                #expect(answer.status == 200, "\(String(decoding: answer.body, as: UTF8.self))")
            }
            #expect(try await states(of: user, rig: rig) == Array(repeating: "succeeded", count: 4))
            let left = try await rig.send(.GET, "/v1/quota", token: token, to: rig.gateways[1]).json()["remaining"] as? Int
            #expect(day.allows(left, exactly: 16, limit: 20))
            #expect(rig.stub.snapshot.requests == 4, "one model call per scan")
        }
    }

    @Test(
        "a keyed retry of a person's last scan of the day, whose gateway was killed mid-scan, gets that scan's answer from another gateway, not 429"
    )
    func keyedRetryOfTheLastScanIsAnswered() async throws {
        try await SystemRig.run(behaviour: StubBehaviour(latencyMilliseconds: 4_000), environment: ["SCAN_TIMEOUT_SECONDS": "60"], gateways: 2) {
            rig in
            let token = try await rig.signIn()
            let day = UTCDay()
            let user = try await rig.userID(of: token)
            try await rig.setUsed(3, token: token)
            let upload = MultipartUpload.make(photo)
            let headers = [("Idempotency-Key", "last-\(UUID().uuidString)")]
            @Sendable func scan(on gateway: URL) async throws -> SystemRig.Exchange {
                try await rig.send(.POST, "/v1/scan", token: token, contentType: upload.contentType, body: upload.body, to: gateway, headers: headers)
            }
            let client = Task { try? await scan(on: rig.gateways[0]) }
            try await eventually(every: .milliseconds(250)) { try await states(of: user, rig: rig) == ["running"] }
            rig.processes["kiwi-gateway-0"]!.send(SIGKILL)
            _ = await client.value
            let retried = try await scan(on: rig.gateways[1])
            #expect(retried.status == 200, "\(String(decoding: retried.body, as: UTF8.self))")
            #expect(try retried.json()["recipes"] is [Any])
            #expect(try await states(of: user, rig: rig) == ["succeeded"])
            let left = try await rig.send(.GET, "/v1/quota", token: token, to: rig.gateways[1]).json()["remaining"] as? Int
            #expect(day.allows(left, exactly: 0, limit: 4))
            #expect(rig.stub.snapshot.requests == 1, "one model call")
        }
    }

    @Test("blocking scans outlive PostgreSQL out of reach for 20 s, twice their recheck: every client gets its answer, charged once")
    func blockingScansOutliveADatabaseBlip() async throws {
        let url = try #require(ProcessInfo.processInfo.environment["KIWI_TEST_DATABASE_URL"], "run the tests with `make test`")
        let database = try #require(URLComponents(string: url))
        let proxy = try await FaultProxy.start(forwardingTo: try #require(database.host), port: database.port ?? 5432)
        var proxied = database
        proxied.port = proxy.port
        let throughProxy = ["DATABASE_URL": try #require(proxied.string)]
        try await SystemRig.run(
            behaviour: StubBehaviour(latencyMilliseconds: 2_000),
            environment: ["SCAN_TIMEOUT_SECONDS": "60"],
            gatewayEnvironment: throughProxy,
            workerEnvironment: throughProxy
        ) { rig in
            let token = try await rig.signIn()
            let day = UTCDay()
            let user = try await rig.userID(of: token)
            let upload = MultipartUpload.make(photo)
            let clients = Task {
                await withTaskGroup(of: Int.self, returning: [Int].self) { group in
                    for _ in 0..<4 {
                        group.addTask {
                            // Waiting through the outage and the pools' reconnection takes longer than the rig's usual 30 s.
                            let url = rig.gateway.absoluteString + "/v1/scan"
                            let answer = try? await SystemRig.exchange(
                                .POST,
                                url,
                                token: token,
                                contentType: upload.contentType,
                                body: upload.body,
                                timeout: .seconds(90)
                            )
                            return answer?.status ?? 0
                        }
                    }
                    return await group.reduce(into: []) { $0.append($1) }
                }
            }
            try await eventually(every: .milliseconds(250)) { try await states(of: user, rig: rig) == Array(repeating: "running", count: 4) }
            // Twice a waiting request's recheck (10 s), so that every waiting request reads while it is out of reach.
            proxy.set(.silent)
            try await Task.sleep(for: .seconds(20))
            proxy.set(.none)
            let statuses = await clients.value
            #expect(statuses == [200, 200, 200, 200], "\(statuses)")
            #expect(try await states(of: user, rig: rig) == Array(repeating: "succeeded", count: 4))
            #expect(day.allows(try await rig.send(.GET, "/v1/quota", token: token).json()["remaining"] as? Int, exactly: 0, limit: 4))
        }
        await proxy.stop()
    }

    @Test("scans whose gateway and worker are both killed are failed and refunded by another replica's sweeper after the deadline")
    func sweptWhenEveryoneIsGone() async throws {
        try await SystemRig.run(behaviour: StubBehaviour(fault: .slow), environment: ["SCAN_TIMEOUT_SECONDS": "15"], gateways: 2) { rig in
            let token = try await rig.signIn()
            let day = UTCDay()
            let user = try await rig.userID(of: token)
            let clients = Task { [photo] in
                await withTaskGroup(of: Void.self) { group in
                    for _ in 0..<4 { group.addTask { _ = try? await rig.scan(photo, token: token) } }
                }
            }
            let inFlight = ContinuousClock.now + .seconds(30)
            while try await states(of: user, rig: rig) != Array(repeating: "running", count: 4), ContinuousClock.now < inFlight {
                try await Task.sleep(for: .milliseconds(250))
            }
            try #require(try await states(of: user, rig: rig) == Array(repeating: "running", count: 4))
            let left = try await rig.send(.GET, "/v1/quota", token: token, to: rig.gateways[1]).json()["remaining"] as? Int
            try #require(day.allows(left, exactly: 0, limit: 4))
            // The worker dies with the jobs unacknowledged: they go back to the queue, where no worker takes them.
            rig.processes["kiwi-scan-worker"]!.send(SIGKILL)
            rig.processes["kiwi-gateway-0"]!.send(SIGKILL)
            await clients.value
            // Deadline (15 s: long enough that no scan times out before the kills, on a busy machine too) + grace
            // (30 s) + at most one sweep interval (10 s), with room for a slow machine.
            let swept = ContinuousClock.now + .seconds(100)
            while try await states(of: user, rig: rig).contains("running"), ContinuousClock.now < swept {
                try await Task.sleep(for: .milliseconds(500))
            }
            #expect(try await states(of: user, rig: rig) == Array(repeating: "failed scan_timeout", count: 4))
            let quota = try await rig.send(.GET, "/v1/quota", token: token, to: rig.gateways[1]).json()
            #expect(quota["remaining"] as? Int == 4)
        }
    }

    @Test("a retry with the same Idempotency-Key after the first answer was lost costs one charge and one model call")
    func idempotentRetry() async throws {
        try await SystemRig.run { rig in
            let token = try await rig.signIn()
            let day = UTCDay()
            let upload = MultipartUpload.make(photo)
            let headers = [("Idempotency-Key", "retry-\(UUID().uuidString)")]
            let first = try await rig.send(.POST, "/v1/scan", token: token, contentType: upload.contentType, body: upload.body, headers: headers)
            let again = try await rig.send(.POST, "/v1/scan", token: token, contentType: upload.contentType, body: upload.body, headers: headers)
            #expect(first.status == 200 && again.status == 200)
            // The same scan: the same ids and content (JSON key order is not part of the contract).
            #expect(try ScanResponseContract.validate(first.body) == ScanResponseContract.validate(again.body))
            #expect(rig.stub.snapshot.requests == 1)
            let other = MultipartUpload.make(SyntheticJPEG.make(size: 16 * 1024, seed: 42))
            let reused = try await rig.send(.POST, "/v1/scan", token: token, contentType: other.contentType, body: other.body, headers: headers)
            #expect(reused.status == 422)
            #expect(try reused.json()["error"] as? String == "idempotency_key_reused")
            #expect(day.allows(try await rig.send(.GET, "/v1/quota", token: token).json()["remaining"] as? Int, exactly: 3, limit: 4))
        }
    }

    /// The events of a server-sent event stream: (id, event, the scan's status).
    func events(_ body: Data) throws -> [(id: String, event: String, status: String)] {
        try serverSentEvents(in: String(decoding: body, as: UTF8.self)).map { fields in
            let scan = try #require(try JSONSerialization.jsonObject(with: Data((fields["data"] ?? "").utf8)) as? [String: Any])
            return (fields["id"] ?? "", fields["event"] ?? "", scan["status"] as? String ?? "")
        }
    }

    @Test("POST /v1/scans answers 202 at once; the scan's events, read through another gateway, end with its result; Last-Event-ID resumes")
    func asyncScanThroughTheProcesses() async throws {
        try await SystemRig.run(behaviour: StubBehaviour(latencyMilliseconds: 1500), gateways: 2) { rig in
            let token = try await rig.signIn()
            let upload = MultipartUpload.make(photo)
            let created = try await rig.send(.POST, "/v1/scans", token: token, contentType: upload.contentType, body: upload.body)
            #expect(created.status == 202)
            let location = try #require(created.headers.first(name: "Location"))
            let stream = try await rig.send(.GET, location + "/events", token: token, to: rig.gateways[1])
            #expect(stream.status == 200)
            #expect(stream.headers.first(name: "Content-Type") == "text/event-stream")
            let seen = try events(stream.body)
            #expect(seen.first.map { [$0.id, $0.event, $0.status] } == ["1", "status", "queued"])
            let end = try #require(seen.last)
            #expect([end.event, end.status] == ["result", "succeeded"])
            // Between them, whatever the stream saw of the answer as it was written: ids only grow.
            let ids = seen.compactMap { Int($0.id) }
            #expect(ids.count == seen.count && zip(ids, ids.dropFirst()).allSatisfy { $0 < $1 }, "\(seen)")
            // The gateway that streamed it asked for the scan's news; the one that started it had it unasked.
            let asked = "kiwi_gateway_scan_news_requests_total"
            #expect(try await rig.scrapeMetrics(of: "kiwi-gateway-1").value(asked) == 1)
            #expect(try await rig.scrapeMetrics(of: "kiwi-gateway-0").value(asked) == 0)
            // The scan is final: its partials are gone, and a client that missed them gets the result alone.
            let resumed = try await rig.send(.GET, location + "/events", token: token, headers: [("Last-Event-ID", "2")])
            #expect(try events(resumed.body).map { [$0.id, $0.event] } == [[end.id, "result"]])
            #expect(try await rig.send(.GET, location + "/events", token: token, headers: [("Last-Event-ID", end.id)]).status == 204)
            let finished = try await rig.send(.GET, location, token: token, to: rig.gateways[1]).json()
            #expect(finished["status"] as? String == "succeeded")
            #expect(rig.stub.snapshot.requests == 1)
        }
    }

    @Test("with Prefer: wait the answer is the finished scan; a keyed retry on POST /v1/scans is the same scan, one model call")
    func preferWaitAndKeyedRetryThroughTheProcesses() async throws {
        try await SystemRig.run { rig in
            let token = try await rig.signIn()
            let day = UTCDay()
            let upload = MultipartUpload.make(photo)
            let headers = [("Prefer", "wait=30"), ("Idempotency-Key", "async-\(UUID().uuidString)")]
            let first = try await rig.send(.POST, "/v1/scans", token: token, contentType: upload.contentType, body: upload.body, headers: headers)
            #expect(first.status == 200)
            #expect(first.headers.first(name: "Preference-Applied") == "wait=30")
            #expect(try first.json()["status"] as? String == "succeeded")
            #expect(try first.json()["result"] is [String: Any])
            let again = try await rig.send(.POST, "/v1/scans", token: token, contentType: upload.contentType, body: upload.body, headers: headers)
            #expect(try again.json()["id"] as? String == first.json()["id"] as? String)
            #expect(rig.stub.snapshot.requests == 1)
            #expect(day.allows(try await rig.send(.GET, "/v1/quota", token: token).json()["remaining"] as? Int, exactly: 3, limit: 4))
        }
    }
}
