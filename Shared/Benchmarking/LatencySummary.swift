import KiwiConcurrency

/// Percentiles of a set of durations, in milliseconds, as benchmarks print them.
public struct LatencySummary: Sendable, Codable, Hashable {
    public var count: Int
    public var p50: Double
    public var p90: Double
    public var p99: Double
    public var max: Double

    /// Nearest-rank percentiles of `durations`; all zero when there are none.
    public init(_ durations: [Duration]) {
        let sorted = durations.map { $0.seconds * 1000 }.sorted()
        count = sorted.count
        func percentile(_ q: Double) -> Double {
            sorted.isEmpty ? 0 : sorted[Swift.min(sorted.count - 1, Swift.max(0, Int((Double(sorted.count) * q).rounded(.up)) - 1))]
        }
        p50 = percentile(0.5)
        p90 = percentile(0.9)
        p99 = percentile(0.99)
        max = sorted.last ?? 0
    }
}
