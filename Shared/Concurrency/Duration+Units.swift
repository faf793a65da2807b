extension Duration {
    /// The duration in seconds, for `Date` arithmetic and rates.
    public var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }

    /// The duration in whole milliseconds, saturating instead of overflowing.
    public var milliseconds: Int64 {
        let (seconds, attoseconds) = components
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        if overflow { return seconds < 0 ? .min : .max }
        return whole.addingReportingOverflow(attoseconds / 1_000_000_000_000_000).partialValue
    }

    /// The duration in whole nanoseconds, saturating instead of overflowing.
    public var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return seconds < 0 ? .min : .max }
        return whole.addingReportingOverflow(attoseconds / 1_000_000_000).partialValue
    }

    /// A duration of `text` milliseconds, as HTTP and message headers carry them (`openai-processing-ms`): a
    /// decimal number from 0 to a day. Nil for anything else, so a broken header cannot overflow or go negative.
    public init?(milliseconds text: String) {
        guard let milliseconds = Double(text), milliseconds.isFinite, (0...86_400_000).contains(milliseconds) else { return nil }
        self = .milliseconds(milliseconds)
    }
}
