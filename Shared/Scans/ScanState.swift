/// Where a scan is in its life (docs/architecture.md, "4. The quota strategy"). `queued` and `running` are open;
/// `succeeded` and `failed` are final, and a scan never leaves a final state. Every scan that is not `failed` counts
/// against its person's day.
public enum ScanState: String, Sendable, Hashable, Codable, CaseIterable {
    case queued, running, succeeded, failed

    /// Whether the scan can still change.
    public var isOpen: Bool { self == .queued || self == .running }

    /// The states a scan passes through to reach this one, this one included, in order: what a server-sent event
    /// stream reports, each with its position as the event's id.
    public var path: [ScanState] {
        switch self {
        case .queued: [.queued]
        case .running: [.queued, .running]
        case .succeeded: [.queued, .running, .succeeded]
        case .failed: [.queued, .running, .failed]
        }
    }
}

extension ScanOutcome {
    /// The state a scan with this outcome ends in.
    public var state: ScanState {
        switch self {
        case .ok: .succeeded
        case .error: .failed
        }
    }
}
