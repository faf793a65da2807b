import Foundation

/// Samples read from Prometheus' text format, for tests that check what a service exports.
public struct PrometheusText: Sendable {
    /// One line: a name, its labels and a value.
    public struct Sample: Sendable {
        public var name: String
        public var labels: [String: String]
        public var value: Double
    }

    public let samples: [Sample]

    /// Parses the exposition format's sample lines (`name{a="1",b="2"} 3`); comments and blank lines are skipped.
    public init(_ text: String) {
        samples = text.split(separator: "\n").compactMap { line -> Sample? in
            guard !line.hasPrefix("#"), let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else { return nil }
            let series = line[..<space]
            guard let brace = series.firstIndex(of: "{") else { return Sample(name: String(series), labels: [:], value: value) }
            var labels: [String: String] = [:]
            for pair in series[series.index(after: brace)..<series.index(before: series.endIndex)].split(separator: ",") {
                guard let equals = pair.firstIndex(of: "=") else { continue }
                labels[String(pair[..<equals])] = String(pair[pair.index(after: equals)...]).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            }
            return Sample(name: String(series[..<brace]), labels: labels, value: value)
        }
    }

    /// The sum of every series named `name` whose labels include `labels`; 0 when there is none.
    public func value(_ name: String, _ labels: [String: String] = [:]) -> Double {
        samples.filter { sample in sample.name == name && labels.allSatisfy { sample.labels[$0.key] == $0.value } }.reduce(0) { $0 + $1.value }
    }

    /// Whether any series is named `name`.
    public func has(_ name: String) -> Bool {
        samples.contains { $0.name == name }
    }
}
