import Foundation
import KiwiTestSupport
import Testing

/// Kiwi's monitoring files — `deploy/prometheus/kiwi-rules.yml` (the rules' one source), its `promtool` tests, the
/// generated `deploy/k8s/monitoring/prometheus-rule.yaml` and the Grafana dashboard `deploy/grafana/kiwi.json` —
/// with the lookups their checks need.
struct MonitoringFiles {
    static let rulesPath = "deploy/prometheus/kiwi-rules.yml"
    static let ruleTestsFolder = "deploy/prometheus/tests"
    static let kubernetesRulePath = "deploy/k8s/monitoring/prometheus-rule.yaml"
    static let dashboardPath = "deploy/grafana/kiwi.json"

    /// Metrics that Prometheus makes itself rather than scraping them from anyone.
    static let prometheusOwnMetrics: Set<String> = ["up", "ALERTS"]
    /// The rabbitmq_prometheus plugin's metrics the rules and the dashboard read (its `/metrics/detailed` families
    /// `queue_coarse_metrics` and `queue_consumer_count`); the end-to-end alert test finds each in the broker's output.
    static let rabbitMQMetrics: Set<String> = [
        "rabbitmq_detailed_queue_messages", "rabbitmq_detailed_queue_messages_ready", "rabbitmq_detailed_queue_messages_unacked",
        "rabbitmq_detailed_queue_consumers",
    ]

    /// One rule of the rule file.
    struct Rule {
        let group: String
        let record: String?
        let alert: String?
        let expression: String
        let labels: [String: String]
        let annotations: [String: String]
    }

    let rules: [Rule]
    /// Every PromQL expression of the dashboard's panels, with its panel's title.
    let dashboardQueries: [(panel: String, expression: String)]

    init() throws {
        let document = try #require(try YAMLValue.documents(in: DeploymentFiles.text(Self.rulesPath)).first)
        rules = document["groups"].items.flatMap { group in
            group["rules"].items.map { rule in
                Rule(
                    group: group["name"].string ?? "",
                    record: rule["record"].string,
                    alert: rule["alert"].string,
                    expression: rule["expr"].string ?? "",
                    labels: rule["labels"].entries.compactMapValues(\.string),
                    annotations: rule["annotations"].entries.compactMapValues(\.string)
                )
            }
        }
        let dashboard = try #require(
            try JSONSerialization.jsonObject(with: Data(DeploymentFiles.text(Self.dashboardPath).utf8)) as? [String: Any]
        )
        var queries: [(String, String)] = []
        for panel in dashboard["panels"] as? [[String: Any]] ?? [] {
            for target in panel["targets"] as? [[String: Any]] ?? [] {
                if let expression = target["expr"] as? String { queries.append((panel["title"] as? String ?? "", expression)) }
            }
        }
        dashboardQueries = queries
    }

    var alerts: [Rule] { rules.filter { $0.alert != nil } }
    var recordedNames: Set<String> { Set(rules.compactMap(\.record)) }

    /// The metric names a PromQL expression selects: every identifier that is not a function, a keyword, a label
    /// (in braces or a `by`/`on` list) or a duration or string.
    static func metricNames(in expression: String) -> Set<String> {
        var text = expression
        for pattern in [
            #""(?:[^"\\]|\\.)*""#, #"'(?:[^'\\]|\\.)*'"#, #"\{[^}]*\}"#, #"\[[^\]]*\]"#,
            #"\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)"#,
        ] {
            text = text.replacingOccurrences(of: pattern, with: " ", options: .regularExpression)
        }
        let keywords: Set<String> = ["and", "or", "unless", "by", "without", "on", "ignoring", "bool", "offset", "inf", "nan"]
        let identifier = try! NSRegularExpression(pattern: #"(?<![0-9A-Za-z_:.])[A-Za-z_:][A-Za-z0-9_:]*+(?!\s*\()"#)
        let range = NSRange(text.startIndex..., in: text)
        return Set(
            identifier.matches(in: text, range: range).compactMap { Range($0.range, in: text).map { String(text[$0]) } }
                .filter { !keywords.contains($0.lowercased()) }
        )
    }

    /// The `kiwi_…` metric names the services register: every such string literal in `Services/` and `Shared/`, with
    /// the `_bucket`, `_count` and `_sum` series of each histogram.
    static func exportedKiwiMetrics() throws -> Set<String> {
        var names: Set<String> = []
        let literal = try NSRegularExpression(pattern: #""(kiwi_[a-z0-9_]+)""#)
        for folder in ["Services", "Shared"] {
            let root = DeploymentFiles.root.appending(path: folder)
            let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
            while let file = files?.nextObject() as? URL {
                guard file.pathExtension == "swift" else { continue }
                let source = try String(contentsOf: file, encoding: .utf8)
                for match in literal.matches(in: source, range: NSRange(source.startIndex..., in: source)) {
                    if let range = Range(match.range(at: 1), in: source) { names.insert(String(source[range])) }
                }
            }
        }
        return names.union(names.flatMap { name in ["_bucket", "_count", "_sum"].map { name + $0 } })
    }

    /// The anchors of `docs/operations.md`'s headings, as GitHub makes them.
    static func operationsAnchors() throws -> Set<String> {
        let headings = try DeploymentFiles.text("docs/operations.md").split(separator: "\n").filter { $0.hasPrefix("#") }
        return Set(
            headings.map { heading in
                let title = heading.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces).lowercased()
                return String(title.compactMap { $0 == " " ? "-" : ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") ? $0 : nil })
            }
        )
    }
}

/// Runs `promtool` with `arguments` and returns its exit status and output. `make test` installs it (Debian's
/// `prometheus` package).
func promtool(_ arguments: [String], in folder: URL = DeploymentFiles.root) async throws -> (status: Int32, output: String) {
    let path = "/usr/bin/promtool"
    try #require(FileManager.default.isExecutableFile(atPath: path), "promtool is missing: run deploy/local/install-packages.sh")
    // The rule tests evaluate days of series; with the whole suite competing for two cores at its start they have
    // taken over a minute.
    return try await runProgram(path, arguments, in: folder, includingStandardError: true, timeout: .seconds(600))
}
