import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// The samples of a Prometheus text exposition, read as the load test needs them: one metric's series with their
/// labels, summed or compared between the start and the end of the measured window.
struct MetricsSnapshot: Sendable {
    struct Sample: Sendable, Hashable {
        var labels: [String: String]
        var value: Double
    }

    let text: String

    /// Every sample of the metric `name` (exactly: `name_bucket` is another metric).
    func samples(named name: String) -> [Sample] {
        text.split(separator: "\n").compactMap { line -> Sample? in
            guard line.hasPrefix(name), !line.hasPrefix("#") else { return nil }
            let rest = line.dropFirst(name.count)
            var labels: [String: String] = [:]
            let valueText: Substring
            if rest.first == "{" {
                guard let close = rest.lastIndex(of: "}") else { return nil }
                labels = Self.labels(rest[rest.index(after: rest.startIndex)..<close])
                valueText = rest[rest.index(after: close)...]
            } else if rest.first == " " {
                valueText = rest
            } else {
                return nil
            }
            guard let value = valueText.split(separator: " ").first.flatMap({ Double($0) }) else { return nil }
            return Sample(labels: labels, value: value)
        }
    }

    /// `a="1",b="x"` as a dictionary (the values unescaped of `\"` and `\\`).
    private static func labels(_ text: Substring) -> [String: String] {
        var labels: [String: String] = [:]
        var rest = text[...]
        while let equals = rest.firstIndex(of: "=") {
            let name = rest[..<equals].trimmingCharacters(in: CharacterSet(charactersIn: ", "))
            var index = rest.index(after: equals)
            guard index < rest.endIndex, rest[index] == "\"" else { break }
            index = rest.index(after: index)
            var value = ""
            while index < rest.endIndex, rest[index] != "\"" {
                if rest[index] == "\\", rest.index(after: index) < rest.endIndex { index = rest.index(after: index) }
                value.append(rest[index])
                index = rest.index(after: index)
            }
            labels[name] = value
            rest = index < rest.endIndex ? rest[rest.index(after: index)...] : ""
        }
        return labels
    }

    /// The text served at `url`, or nil when it could not be read (the report then leaves its figures out).
    static func read(_ url: String, client: HTTPClient) async -> MetricsSnapshot? {
        do {
            let response = try await client.execute(HTTPClientRequest(url: url), timeout: .seconds(5))
            let body = try await response.body.collect(upTo: 64 << 20)
            return response.status == .ok ? MetricsSnapshot(text: String(buffer: body)) : nil
        } catch {
            return nil
        }
    }
}

/// What a Prometheus histogram (summed over its label sets) observed between two readings: the count, the mean, and
/// the p50 and p99 as the upper bounds of the buckets that hold them (a histogram knows no finer).
struct HistogramWindow: Encodable, Hashable {
    struct Bucket: Encodable, Hashable {
        /// The bucket's upper bound, in milliseconds.
        var leMs: Double
        /// Observations at most `leMs`, cumulative as in Prometheus.
        var count: Double
    }

    var count: Double
    var meanMs: Double?
    /// The bound of the bucket holding the p50 and the p99; nil when beyond the largest finite bound.
    var p50AtMostMs: Double?
    var p99AtMostMs: Double?
    /// The finite buckets; observations beyond the last are `count` minus its count.
    var buckets: [Bucket]

    /// The histogram `name` (in seconds) as it grew from `before` to `after`.
    init(_ name: String, from before: MetricsSnapshot, to after: MetricsSnapshot) {
        func byBound(_ text: MetricsSnapshot) -> [Double: Double] {
            text.samples(named: name + "_bucket").reduce(into: [:]) { sums, sample in
                guard let bound = sample.labels["le"].flatMap(Double.init) else { return }
                sums[bound, default: 0] += sample.value
            }
        }
        func total(_ metric: String, _ text: MetricsSnapshot) -> Double { text.samples(named: name + metric).reduce(0) { $0 + $1.value } }
        let (start, end) = (byBound(before), byBound(after))
        let grown = end.map { bound, value in (bound, value - (start[bound] ?? 0)) }.sorted { $0.0 < $1.0 }
        count = total("_count", after) - total("_count", before)
        let sum = total("_sum", after) - total("_sum", before)
        meanMs = count > 0 ? sum * 1000 / count : nil
        buckets = grown.filter { $0.0.isFinite }.map { Bucket(leMs: $0.0 * 1000, count: $0.1) }
        p50AtMostMs = Self.bound(0.5, of: buckets, count: count)
        p99AtMostMs = Self.bound(0.99, of: buckets, count: count)
    }

    /// The smallest bound at or under which a share `q` of `count` observations lie (nearest rank).
    static func bound(_ q: Double, of buckets: [Bucket], count: Double) -> Double? {
        guard count > 0 else { return nil }
        let rank = (count * q).rounded(.up)
        return buckets.first { $0.count >= rank }?.leMs
    }
}

extension MetricsSnapshot {
    /// The messages published on `exchange` between `before` and this reading, from RabbitMQ's per-channel counters
    /// (`rabbitmq_detailed_channel_messages_published_total`, family `channel_exchange_metrics`). A channel opened in
    /// between counts from zero; one closed in between is lost with its counter.
    func messagesPublished(on exchange: String, since before: MetricsSnapshot) -> Double {
        let metric = "rabbitmq_detailed_channel_messages_published_total"
        let start = Dictionary(
            before.samples(named: metric).filter { $0.labels["exchange"] == exchange }.map { ($0.labels, $0.value) },
            uniquingKeysWith: +
        )
        return samples(named: metric).filter { $0.labels["exchange"] == exchange }.reduce(0) { $0 + $1.value - (start[$1.labels] ?? 0) }
    }
}
