/// The waits between tries of something out of reach for a while (a database restarting, failing over): short at
/// first, so that a blip costs little, then doubling up to a cap, so that an outage's end is noticed within the cap
/// without hammering the store meanwhile.
public struct Backoff: Sendable {
    private var next: Duration
    private let longest: Duration

    /// 100 ms doubling to 2 s: the store's usual blip is over within the first waits, and a restart within seconds.
    public init(first: Duration = .milliseconds(100), longest: Duration = .seconds(2)) {
        self.next = first
        self.longest = longest
    }

    /// The wait before the next try; each call doubles the one after it, up to the cap.
    public mutating func nextWait() -> Duration {
        defer { next = min(next * 2, longest) }
        return next
    }
}
