import Foundation
import KiwiTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A real Prometheus (Debian's `prometheus`, which `make test` installs) scraping the given targets every second and
/// evaluating `deploy/prometheus/kiwi-rules.yml` every second — with every duration in the rules divided by
/// `timeScale`, so that an alert written `for: 5m` over `rate(…[5m])` goes pending and fires within seconds while
/// its expressions, thresholds and logic stay exactly the production ones.
struct PrometheusServer: Sendable {
    let url: URL
    private let process: ServiceProcess
    private let folder: URL

    static let rulesFile = ServiceProcess.checkout.appending(path: "deploy/prometheus/kiwi-rules.yml")

    /// One alert as `GET /api/v1/alerts` reports it.
    struct Alert: Decodable, Sendable {
        let labels: [String: String]
        let state: String
    }

    /// Runs `body` with a Prometheus scraping `targets` (job name → `host:port` of a `/metrics`), plus `rabbitMQ`
    /// (`host:port` of the rabbitmq_prometheus plugin) as job `rabbitmq`; stops it afterwards, also when `body` throws.
    static func run<Result: Sendable>(
        targets: [String: [String]],
        rabbitMQ: String,
        timeScale: Int,
        _ body: (PrometheusServer) async throws -> Result
    ) async throws -> Result {
        let prometheus = try await start(targets: targets, rabbitMQ: rabbitMQ, timeScale: timeScale)
        do {
            let result = try await body(prometheus)
            await prometheus.stop()
            return result
        } catch {
            await prometheus.stop()
            throw error
        }
    }

    /// Starts Prometheus and waits until it is ready.
    private static func start(targets: [String: [String]], rabbitMQ: String, timeScale: Int) async throws -> PrometheusServer {
        let executable = URL(fileURLWithPath: "/usr/bin/prometheus")
        try #require(FileManager.default.isExecutableFile(atPath: executable.path), "Prometheus is missing: run deploy/local/install-packages.sh")
        let folder = FileManager.default.temporaryDirectory.appending(path: "kiwi-prometheus-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try scaled(try String(contentsOf: rulesFile, encoding: .utf8), by: timeScale)
            .write(to: folder.appending(path: "rules.yml"), atomically: true, encoding: .utf8)
        let jobs = targets.sorted { $0.key < $1.key }.map { job, addresses in
            "  - job_name: \(job)\n    static_configs:\n      - targets: [\(addresses.map { "\"\($0)\"" }.joined(separator: ", "))]\n"
        }
        let configuration = """
            global:
              scrape_interval: 1s
              evaluation_interval: 1s
            rule_files: ["rules.yml"]
            scrape_configs:
            \(jobs.joined())  - job_name: rabbitmq
                metrics_path: /metrics/detailed
                params:
                  family: [queue_coarse_metrics, queue_consumer_count]
                static_configs:
                  - targets: ["\(rabbitMQ)"]

            """
        try configuration.write(to: folder.appending(path: "prometheus.yml"), atomically: true, encoding: .utf8)
        for _ in 1...3 {
            let port = try reservePort()
            let process = try ServiceProcess(
                executable: executable,
                arguments: [
                    "--config.file=prometheus.yml", "--storage.tsdb.path=data", "--web.listen-address=127.0.0.1:\(port)", "--log.level=warn",
                ],
                environment: [:],
                in: folder
            )
            let url = URL(string: "http://127.0.0.1:\(port)")!
            // `/-/ready` answers 503 until the storage is open and the first configuration loaded.
            let deadline = ContinuousClock.now + .seconds(60)
            var status = await process.waitUntilServing(url.appending(path: "-/ready"))
            while status == 503, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(200))
                status = await process.waitUntilServing(url.appending(path: "-/ready"))
            }
            if status == 200 { return PrometheusServer(url: url, process: process, folder: folder) }
            _ = await process.waitForExit(timeout: .seconds(5))
            let output = process.capturedOutput()
            try #require(output.contains("address already in use"), "Prometheus did not start: \(output.suffix(2000))")
        }
        throw PrometheusStartError()
    }

    struct PrometheusStartError: Error {}

    /// The rule file with every duration — in `[…]` ranges, `for:` and `interval:` — divided by `factor`.
    static func scaled(_ rules: String, by factor: Int) -> String {
        let duration = try! NSRegularExpression(pattern: #"(\[|for: |interval: )(\d+)([smhd])"#)
        let seconds: [String: Int] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
        var text = rules
        for match in duration.matches(in: rules, range: NSRange(rules.startIndex..., in: rules)).reversed() {
            let part = { (index: Int) in String(rules[Range(match.range(at: index), in: rules)!]) }
            let scaled = max(1, Int(part(2))! * seconds[part(3)]! / factor)
            text.replaceSubrange(Range(match.range, in: text)!, with: "\(part(1))\(scaled)s")
        }
        return text
    }

    /// The alerts Prometheus holds now (pending and firing).
    func alerts() async throws -> [Alert] {
        struct Answer: Decodable {
            struct Payload: Decodable { let alerts: [Alert] }
            let data: Payload
        }
        let (body, _) = try await URLSession.shared.data(from: url.appending(path: "api/v1/alerts"))
        return try JSONDecoder().decode(Answer.self, from: body).data.alerts
    }

    /// The state of alert `name` (`pending` or `firing`), nil while it is inactive.
    func state(of name: String) async throws -> String? {
        try await alerts().first { $0.labels["alertname"] == name }?.state
    }

    /// Waits up to `timeout` for alert `name` to be in `state` (nil: inactive), and says whether it got there.
    func wait(for name: String, toBe state: String?, within timeout: Duration) async throws -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if try await self.state(of: name) == state { return true }
            try await Task.sleep(for: .milliseconds(250))
        }
        return false
    }

    /// The names of the series Prometheus has scraped or recorded.
    func metricNames() async throws -> Set<String> {
        struct Answer: Decodable { let data: [String] }
        let (body, _) = try await URLSession.shared.data(from: url.appending(path: "api/v1/label/__name__/values"))
        return Set(try JSONDecoder().decode(Answer.self, from: body).data)
    }

    private func stop() async {
        process.send(SIGTERM)
        _ = await process.waitForExit(timeout: .seconds(10))
        try? FileManager.default.removeItem(at: folder)
    }
}
