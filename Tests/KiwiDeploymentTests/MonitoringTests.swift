import Foundation
import Testing
import Yams

/// The alert and recording rules, their unit tests and the dashboard, checked like code: a rule that does not parse,
/// an alert that fires when it should not, a Kubernetes copy that drifted, or a query naming a metric nobody exports
/// fails `make test`, not the pager.
@Suite("Monitoring rules and dashboard")
struct MonitoringTests {
    @Test("promtool accepts the rule file")
    func rulesParse() async throws {
        let check = try await promtool(["check", "rules", MonitoringFiles.rulesPath])
        #expect(check.status == 0, "\(check.output)")
    }

    @Test("the alerts fire, and stay quiet, as deploy/prometheus/tests expects (promtool test rules)")
    func ruleUnitTests() async throws {
        let folder = DeploymentFiles.root.appending(path: MonitoringFiles.ruleTestsFolder)
        let tests = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".test.yml") }.sorted()
        try #require(!tests.isEmpty)
        let run = try await promtool(["test", "rules"] + tests, in: folder)
        #expect(run.status == 0, "\(run.output)")
    }

    @Test("every alert is unit-tested, both firing and staying quiet")
    func everyAlertTested() throws {
        let folder = DeploymentFiles.root.appending(path: MonitoringFiles.ruleTestsFolder)
        var firing: Set<String> = []
        var quiet: Set<String> = []
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) where file.hasSuffix(".test.yml") {
            let document = try #require(try YAMLValue.documents(in: String(contentsOf: folder.appending(path: file), encoding: .utf8)).first)
            for check in document["tests"].items.flatMap({ $0["alert_rule_test"].items }) {
                guard let name = check["alertname"].string else { continue }
                if check["exp_alerts"].items.isEmpty { quiet.insert(name) } else { firing.insert(name) }
            }
        }
        let alerts = Set(try MonitoringFiles().alerts.compactMap(\.alert))
        #expect(alerts.subtracting(firing).isEmpty, "never seen firing: \(alerts.subtracting(firing).sorted())")
        #expect(alerts.subtracting(quiet).isEmpty, "never seen quiet: \(alerts.subtracting(quiet).sorted())")
    }

    @Test("every alert has a severity, a summary and a runbook section in docs/operations.md")
    func alertsHaveRunbooks() throws {
        let anchors = try MonitoringFiles.operationsAnchors()
        for alert in try MonitoringFiles().alerts {
            let name = alert.alert ?? ""
            #expect(["page", "ticket"].contains(alert.labels["severity"]), "\(name): severity \(alert.labels["severity"] ?? "none")")
            #expect(!(alert.annotations["summary"] ?? "").isEmpty, "\(name) has no summary")
            let runbook = try #require(alert.annotations["runbook_url"], "\(name) has no runbook_url")
            let parts = runbook.split(separator: "#", maxSplits: 1).map(String.init)
            #expect(parts.first == "docs/operations.md", "\(name): \(runbook)")
            #expect(parts.count == 2 && anchors.contains(parts[1]), "\(name): no heading in docs/operations.md has the anchor of \(runbook)")
        }
    }

    @Test("the Kubernetes PrometheusRule holds exactly the rules of deploy/prometheus/kiwi-rules.yml")
    func kubernetesRuleIsGenerated() throws {
        let source = try #require(try Yams.load(yaml: DeploymentFiles.text(MonitoringFiles.rulesPath)))
        let generated = try #require(try Yams.load(yaml: DeploymentFiles.text(MonitoringFiles.kubernetesRulePath)) as? [String: Any])
        #expect(generated["kind"] as? String == "PrometheusRule")
        #expect(
            try Yams.dump(object: generated["spec"], sortKeys: true) == Yams.dump(object: source, sortKeys: true),
            "run deploy/prometheus/generate-k8s.sh"
        )
    }

    @Test("every dashboard query parses as PromQL")
    func dashboardQueriesParse() async throws {
        let queries = try MonitoringFiles().dashboardQueries
        try #require(!queries.isEmpty)
        // promtool parses expressions as rules do: each query becomes a recording rule of a throwaway rule file.
        // A JSON string is a YAML double-quoted scalar: the expression goes in as it is.
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        let rules = try queries.enumerated().map { index, query in
            "      - record: dashboard:query_\(index)\n        expr: \(String(decoding: try encoder.encode(query.expression), as: UTF8.self))\n"
        }
        let file = FileManager.default.temporaryDirectory.appending(path: "kiwi-dashboard-\(UUID().uuidString).yml")
        defer { try? FileManager.default.removeItem(at: file) }
        try ("groups:\n  - name: dashboard\n    rules:\n" + rules.joined()).write(to: file, atomically: true, encoding: .utf8)
        let check = try await promtool(["check", "rules", file.path])
        #expect(check.status == 0, "\(check.output)")
    }

    @Test("every metric a rule or a dashboard panel reads is exported by a Kiwi service, RabbitMQ or Prometheus")
    func metricsExist() throws {
        let files = try MonitoringFiles()
        let known = try MonitoringFiles.exportedKiwiMetrics().union(files.recordedNames).union(MonitoringFiles.rabbitMQMetrics)
            .union(MonitoringFiles.prometheusOwnMetrics)
        let used =
            files.rules.map { ("rule \($0.record ?? $0.alert ?? "")", $0.expression) }
            + files.dashboardQueries.map { ("panel \"\($0.panel)\"", $0.expression) }
        for (place, expression) in used {
            let unknown = MonitoringFiles.metricNames(in: expression).subtracting(known)
            #expect(unknown.isEmpty, "\(place) reads \(unknown.sorted()), which nothing exports")
        }
    }

    @Test("the metric-name reader finds metrics and skips functions, labels, keywords and durations")
    func metricNameReader() {
        let names = MonitoringFiles.metricNames(
            in: #"sum by (le) (rate(kiwi_a_bucket{outcome="x", le="45.0"}[5m])) / on (instance) kiwi:b:ratio > 1e3 and up unless absent(c)"#
        )
        #expect(names == ["kiwi_a_bucket", "kiwi:b:ratio", "up", "c"])
    }
}
