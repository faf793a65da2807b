import Foundation
import KiwiDevelopment
import KiwiTestSupport
import NIOHTTP1
import Testing

@testable import KiwiLLMStub

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The alert rules of `deploy/prometheus/kiwi-rules.yml` evaluated by a real Prometheus against the live system:
/// the three services and the RabbitMQ of `make test`, with the model stub made to fail and then to recover.
@Suite("Alerts through a real Prometheus")
struct AlertingTests {
    let photo = SyntheticJPEG.make(size: 16 * 1024, seed: 83)

    @Test("the model-error alert goes pending, then firing, while the model fails, and clears once it answers again")
    func modelErrorAlert() async throws {
        try await SystemRig.run(
            // A breaker that lets a probe through every second keeps the worker calling the failing model.
            environment: ["OPENAI_MAX_RETRIES": "0", "LLM_BREAKER_COOLDOWN_SECONDS": "1"],
            gatewayEnvironment: ["SCAN_DAILY_LIMIT": "1000"]
        ) { rig in
            // Each service's /metrics under the job name the rules expect (kiwi-gateway-0 → kiwi-gateway).
            var targets: [String: [String]] = [:]
            for (name, url) in rig.metrics {
                let job = name.hasPrefix("kiwi-gateway") ? "kiwi-gateway" : name
                targets[job, default: []].append("\(url.host ?? "127.0.0.1"):\(url.port ?? 0)")
            }
            let broker = try #require(URL(string: try testRabbitMQMetricsURL()))
            // 20 times faster: `for: 5m` over `[5m]` becomes 15 s over 15 s, which rides out a busy machine's pauses.
            let (pending, firing, cleared, scraped) = try await PrometheusServer.run(
                targets: targets,
                rabbitMQ: "\(broker.host ?? "127.0.0.1"):\(broker.port ?? 0)",
                timeScale: 20
            ) { prometheus in
                let token = try await rig.signIn()
                let upload = MultipartUpload.make(photo)
                // A steady trickle of scans, as users would keep sending them, so the worker keeps asking the model.
                let traffic = Task {
                    while !Task.isCancelled {
                        _ = try? await rig.send(.POST, "/v1/scans", token: token, contentType: upload.contentType, body: upload.body)
                        try? await Task.sleep(for: .milliseconds(300))
                    }
                }
                defer { traffic.cancel() }
                rig.stub.setBehaviour(StubBehaviour(fault: .serverError))
                let pending = try await prometheus.wait(for: "KiwiModelErrors", toBe: "pending", within: .seconds(60))
                let firing = try await prometheus.wait(for: "KiwiModelErrors", toBe: "firing", within: .seconds(60))
                rig.stub.setBehaviour(StubBehaviour())
                let cleared = try await prometheus.wait(for: "KiwiModelErrors", toBe: nil, within: .seconds(90))
                return (pending, firing, cleared, try await prometheus.metricNames())
            }
            #expect(pending, "KiwiModelErrors never went pending while every model call failed")
            #expect(firing, "KiwiModelErrors never fired while every model call failed")
            #expect(cleared, "KiwiModelErrors still active after the model recovered")
            // The SLIs' own metrics reached Prometheus through the live services.
            for name in ["kiwi_scan_duration_seconds_count", "kiwi_gateway_scan_start_seconds_count", "kiwi:scan_availability:error_ratio_rate5m"] {
                #expect(scraped.contains(name), "\(name) is not in Prometheus")
            }
        }
    }

    @Test("every RabbitMQ metric the rules and the dashboard read is one the broker's Prometheus plugin serves")
    func rabbitMQMetricsExist() async throws {
        let broker = try #require(URL(string: try testRabbitMQMetricsURL()))
        var query = try #require(URLComponents(url: broker.appending(path: "metrics/detailed"), resolvingAgainstBaseURL: false))
        query.queryItems = [URLQueryItem(name: "family", value: "queue_coarse_metrics"), URLQueryItem(name: "family", value: "queue_consumer_count")]
        let (body, _) = try await URLSession.shared.data(from: try #require(query.url))
        let served = String(decoding: body, as: UTF8.self)
        var used: Set<String> = []
        let name = try NSRegularExpression(pattern: #"rabbitmq_[a-z_]+"#)
        for file in ["deploy/prometheus/kiwi-rules.yml", "deploy/grafana/kiwi.json"] {
            let text = try String(contentsOf: ServiceProcess.checkout.appending(path: file), encoding: .utf8)
            for match in name.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                used.insert(String(text[Range(match.range, in: text)!]))
            }
        }
        try #require(!used.isEmpty)
        for metric in used.sorted() {
            #expect(served.contains("# TYPE \(metric) "), "RabbitMQ's plugin serves no \(metric)")
        }
    }
}
