import AsyncHTTPClient
import Foundation
import KiwiDevelopment
import KiwiJPEG
import KiwiTestSupport
import NIOCore
import NIOHTTP1
import Testing

@testable import KiwiLLMStub

/// Every service serves Prometheus text on its own `METRICS_PORT`, and what it counts follows real traffic.
@Suite("Metrics", .serialized, .timeLimit(.minutes(3)))
struct MetricsTests {
    let photo = SyntheticJPEG.make(size: 24 * 1024, seed: 31)

    /// Scrapes `url` and parses the answer.
    func scrape(_ url: URL?) async throws -> PrometheusText {
        let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: try #require(url).absoluteString), timeout: .seconds(10))
        #expect(response.status == .ok)
        #expect(response.headers.first(name: "Content-Type")?.hasPrefix("text/plain; version=0.0.4") == true)
        return PrometheusText(String(buffer: try await response.body.collect(upTo: 4 << 20)))
    }

    /// The metrics at `endpoint` once `condition` holds of them, scraped `every` so often for at most `timeout`.
    func scrape(
        _ endpoint: URL?,
        every interval: Duration,
        timeout: Duration = .seconds(30),
        until condition: (PrometheusText) -> Bool
    ) async throws -> PrometheusText {
        var metrics = PrometheusText("")
        try await eventually(timeout: timeout, every: interval) {
            metrics = try await scrape(endpoint)
            return condition(metrics)
        }
        return metrics
    }

    /// The worker's metrics once it has no job in flight. It counts a job when it has acknowledged it, after
    /// announcing its outcome, so the client may have its answer first.
    func settledWorkerMetrics(_ rig: SystemRig) async throws -> PrometheusText {
        try await scrape(rig.metrics["kiwi-scan-worker"], every: .milliseconds(100)) { $0.value("kiwi_worker_jobs_in_flight") == 0 }
    }

    /// Signs in, scans once (the day's only scan), is refused a second, and asks for the quota with the same token.
    func traffic(_ rig: SystemRig) async throws {
        let token = try await rig.signIn()
        #expect(try await rig.scan(photo, token: token).status == 200)
        #expect(try await rig.scan(photo, token: token).status == 429)
        #expect(try await rig.send(.GET, "/v1/quota", token: token).status == 200)
    }

    @Test("the gateway counts requests by route and status, scans, quota rejections, session cache use and its AMQP and PostgreSQL traffic")
    func gatewayCounters() async throws {
        try await SystemRig.run(gatewayEnvironment: ["SCAN_DAILY_LIMIT": "1"]) { rig in
            try await traffic(rig)
            let metrics = try await scrape(rig.metrics["kiwi-gateway-0"])
            #expect(metrics.value("kiwi_http_requests_total", ["route": "/v1/scan", "method": "POST", "status": "200"]) == 1)
            #expect(metrics.value("kiwi_http_requests_total", ["route": "/v1/scan", "method": "POST", "status": "429"]) == 1)
            #expect(metrics.value("kiwi_http_requests_total", ["route": "/v1/auth/apple", "status": "200"]) == 1)
            #expect(metrics.value("kiwi_http_request_duration_seconds_count", ["route": "/v1/scan"]) == 2)
            #expect(metrics.value("kiwi_gateway_scans_total", ["outcome": "ok"]) == 1)
            #expect(metrics.value("kiwi_gateway_quota_rejections_total") == 1)
            #expect(metrics.value("kiwi_gateway_scans_in_flight") == 0)
            #expect(metrics.value("kiwi_gateway_session_cache_total", ["result": "miss"]) >= 1)
            #expect(metrics.value("kiwi_gateway_session_cache_total", ["result": "hit"]) >= 1)
            // One job published; the worker's two announcements (running, succeeded) received, with those of other
            // tests' scans: the scan event exchange is the broker's one.
            #expect(metrics.value("kiwi_amqp_publishes_total", ["connection": "kiwi-gateway"]) == 1)
            #expect(metrics.value("kiwi_amqp_confirms_total", ["connection": "kiwi-gateway", "result": "ack"]) == 1)
            #expect(metrics.value("kiwi_amqp_deliveries_total", ["connection": "kiwi-gateway scan events"]) >= 2)
            #expect(metrics.value("kiwi_amqp_connections_open") >= 3)
            #expect(metrics.value("kiwi_postgres_connect_attempts_total") >= 1)
        }
    }

    @Test("the gateway reports the ledger's open scans by state and the age of the oldest queued scan, read every 15 seconds")
    func ledgerGauges() async throws {
        // No worker: the scan stays queued.
        try await SystemRig.run(workers: 0) { rig in
            let token = try await rig.signIn()
            let upload = MultipartUpload.make(photo)
            #expect(try await rig.send(.POST, "/v1/scans", token: token, contentType: upload.contentType, body: upload.body).status == 202)
            // The database is shared with other tests: their open scans count too. This one is queued until the read
            // after it is reported.
            let metrics = try await scrape(rig.metrics["kiwi-gateway-0"], every: .milliseconds(500), timeout: .seconds(40)) {
                $0.value("kiwi_scans", ["state": "queued"]) >= 1 && $0.value("kiwi_scans_queue_age_seconds") > 0
            }
            #expect(metrics.value("kiwi_scans_queue_age_seconds") > 0)
            #expect(metrics.value("kiwi_gateway_scans_watched") == 0)
            // Final scans are not counted: that would read the whole table every 15 s.
            #expect(metrics.samples.filter { $0.name == "kiwi_scans" }.map { $0.labels["state"] ?? "" }.sorted() == ["queued", "running"])
        }
    }

    @Test("the auth service counts sign-ins and introspections by status, and its PostgreSQL connections")
    func authCounters() async throws {
        try await SystemRig.run(gatewayEnvironment: ["SCAN_DAILY_LIMIT": "1"]) { rig in
            try await traffic(rig)
            let metrics = try await scrape(rig.metrics["kiwi-auth"])
            #expect(metrics.value("kiwi_http_requests_total", ["route": "/v1/auth/apple", "method": "POST", "status": "200"]) == 1)
            #expect(metrics.value("kiwi_http_requests_total", ["method": "POST", "status": "200"]) >= 2)
            #expect(metrics.value("kiwi_postgres_connect_attempts_total") >= 1)
            #expect(metrics.value("kiwi_amqp_connections_total", ["connection": "kiwi-auth", "result": "opened"]) >= 1)
        }
    }

    @Test("the scan worker counts jobs, deliveries, model attempts, their latency and the tokens spent")
    func workerCounters() async throws {
        try await SystemRig.run(gatewayEnvironment: ["SCAN_DAILY_LIMIT": "1"]) { rig in
            try await traffic(rig)
            let metrics = try await settledWorkerMetrics(rig)
            #expect(metrics.value("kiwi_worker_jobs_total", ["outcome": "ok"]) == 1)
            #expect(metrics.value("kiwi_worker_job_duration_seconds_count", ["outcome": "ok"]) == 1)
            #expect(metrics.value("kiwi_worker_jobs_in_flight") == 0)
            #expect(metrics.value("kiwi_amqp_deliveries_total", ["connection": "kiwi-scan-worker"]) == 1)
            // The scan's announcements: running and succeeded. Its client waits for the result alone (`POST /v1/scan`),
            // so nothing is shown as it streams.
            #expect(metrics.value("kiwi_amqp_publishes_total", ["connection": "kiwi-scan-worker"]) == 2)
            #expect(metrics.value("kiwi_llm_attempts_total", ["result": "ok"]) == 1)
            #expect(metrics.value("kiwi_llm_attempt_duration_seconds_count", ["result": "ok"]) == 1)
            let prompt = metrics.value("kiwi_llm_tokens_total", ["kind": "prompt", "outcome": "ok"])
            #expect(prompt > 0)
            #expect(metrics.value("kiwi_llm_tokens_total", ["kind": "completion", "outcome": "ok"]) > 0)
        }
    }

    @Test("a rate-limited model call is counted as a 429 attempt and a retry, and the scan still succeeds")
    func retriesCounted() async throws {
        let behaviour = StubBehaviour(fault: .rateLimit, faultCount: 1, retryAfterSeconds: 0)
        try await SystemRig.run(behaviour: behaviour) { rig in
            let token = try await rig.signIn()
            #expect(try await rig.scan(photo, token: token).status == 200)
            let metrics = try await scrape(rig.metrics["kiwi-scan-worker"])
            #expect(metrics.value("kiwi_llm_attempts_total", ["result": "http_429"]) == 1)
            #expect(metrics.value("kiwi_llm_retries_total", ["reason": "http_429"]) == 1)
            #expect(metrics.value("kiwi_llm_attempts_total", ["result": "ok"]) == 1)
        }
    }

    @Test("a scan the model cannot answer usefully is counted by its outcome on both sides, with its repair")
    func failedScanCounted() async throws {
        try await SystemRig.run(behaviour: StubBehaviour(fault: .refusal)) { rig in
            let token = try await rig.signIn()
            #expect(try await rig.scan(photo, token: token).status == 502)
            let gateway = try await scrape(rig.metrics["kiwi-gateway-0"])
            #expect(gateway.value("kiwi_gateway_scans_total", ["outcome": "invalid_model_response"]) == 1)
            let worker = try await settledWorkerMetrics(rig)
            #expect(worker.value("kiwi_worker_jobs_total", ["outcome": "invalid_model_response"]) == 1)
            #expect(worker.value("kiwi_llm_repairs_total") == 1)
        }
    }

    @Test("a scan that ends is counted once, by outcome, where it ended; the gateway times its own part of starting it")
    func scanEndAndStartCounted() async throws {
        try await SystemRig.run(gatewayEnvironment: ["SCAN_DAILY_LIMIT": "1"]) { rig in
            try await traffic(rig)
            let worker = try await scrape(rig.metrics["kiwi-scan-worker"])
            #expect(worker.value("kiwi_scan_duration_seconds_count", ["outcome": "succeeded"]) == 1)
            #expect(worker.value("kiwi_scan_duration_seconds_bucket", ["outcome": "succeeded", "le": "45.0"]) == 1)
            let gateway = try await scrape(rig.metrics["kiwi-gateway-0"])
            // The worker recorded the answer: the gateway ended nothing, and the refused second scan never started.
            #expect(gateway.value("kiwi_scan_duration_seconds_count") == 0)
            #expect(gateway.value("kiwi_gateway_scan_start_seconds_count") == 1)
        }
    }

    @Test("a scan failed at its deadline is counted as ended once, by the gateway or the worker, whichever failed it")
    func deadlineEndCounted() async throws {
        try await SystemRig.run(behaviour: StubBehaviour(latencyMilliseconds: 60_000), environment: ["SCAN_TIMEOUT_SECONDS": "2"]) { rig in
            let token = try await rig.signIn()
            #expect(try await rig.scan(photo, token: token).status == 504)
            // Both race to fail it at the deadline; the compare-and-set lets one win, and only the winner counts it.
            let ended = { @Sendable () async throws -> Double in
                var total = 0.0
                for service in ["kiwi-gateway-0", "kiwi-scan-worker"] {
                    total += try await scrape(rig.metrics[service]).value("kiwi_scan_duration_seconds_count", ["outcome": "scan_timeout"])
                }
                return total
            }
            // The gateway tried before it answered; once the worker has ended its job too, however, both have tried.
            try await eventually(timeout: .seconds(20), every: .milliseconds(200)) {
                try await scrape(rig.metrics["kiwi-scan-worker"]).value("kiwi_worker_jobs_total") >= 1
            }
            #expect(try await ended() == 1)
        }
    }

    @Test("the auth service counts its fetches of Apple's keys and reports when it last had them")
    func appleKeyFetchesCounted() async throws {
        try await SystemRig.run { rig in
            _ = try await rig.signIn()
            let auth = try await scrape(rig.metrics["kiwi-auth"])
            #expect(auth.value("kiwi_auth_jwks_fetches_total", ["result": "ok"]) == 1)
            #expect(auth.value("kiwi_auth_jwks_fetches_total", ["result": "failed"]) == 0)
            #expect(abs(auth.value("kiwi_auth_jwks_fetched_timestamp_seconds") - Date().timeIntervalSince1970) < 120)
            #expect(auth.value("kiwi_auth_jwks_max_age_seconds") == 86_400)
        }
    }
}
