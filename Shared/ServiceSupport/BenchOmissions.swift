import Foundation
import KiwiConfiguration
import KiwiMessaging

/// The features a benchmark leg leaves out of every scan, one at a time, so that each feature's cost is measured
/// against the same build with it (`KIWI_BENCH_WITHOUT`, comma-separated; docs/operations.md, "Where a scan's cost
/// goes"). Refused in production: each leaves out something the product promises.
public struct BenchOmissions: Sendable, Equatable, CustomStringConvertible {
    /// A feature a leg can leave out.
    public enum Feature: String, CaseIterable, Sendable {
        /// The worker stores and announces no recipe as it streams; the final answer is recorded as ever.
        case shows
        /// Recipes carry no allergen labels.
        case labels
        /// Recipes carry no nutrition estimate.
        case nutrition
        /// Jobs go through a classic queue held in memory, not a quorum queue written to disk.
        case quorum
    }

    public private(set) var features: Set<Feature>

    /// Every feature on: what every deployment runs.
    public static let none = BenchOmissions(features: [])

    public init(features: Set<Feature>) {
        self.features = features
    }

    public func omits(_ feature: Feature) -> Bool {
        features.contains(feature)
    }

    /// The kind of queue scan jobs go through (``KiwiTopology/scanJobs(queue:kind:)``).
    public var jobQueueKind: AMQPQueue.Kind {
        omits(.quorum) ? .classic : .quorum
    }

    public var description: String {
        features.isEmpty ? "none" : features.map(\.rawValue).sorted().joined(separator: ",")
    }
}

extension EnvironmentReader {
    /// `KIWI_BENCH_WITHOUT`, the features a benchmark leg leaves out (``BenchOmissions``): none unless set, and never
    /// in `environment` production.
    public mutating func benchOmissions(in environment: DeploymentEnvironment) -> BenchOmissions {
        let omissions = value("KIWI_BENCH_WITHOUT", default: BenchOmissions.none) { text in
            let names = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            let features = names.compactMap(BenchOmissions.Feature.init(rawValue:))
            guard features.count == names.count else {
                let known = BenchOmissions.Feature.allCases.map(\.rawValue).joined(separator: ", ")
                throw ConfigurationError.Reason("must list features among \(known), comma-separated")
            }
            return BenchOmissions(features: Set(features))
        }
        if omissions != .none, environment == .production {
            reject("KIWI_BENCH_WITHOUT", "leaves features out for a benchmark, which production never does; unset it")
            return .none
        }
        return omissions
    }
}
