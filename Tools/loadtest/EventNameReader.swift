/// Reads the names of server-sent events (their `event: NAME` lines) as an event stream's bytes arrive, in chunks cut
/// anywhere. Only the names are kept: the load generator times each event's arrival and reads nothing else, so that
/// following thousands of streams costs it little CPU (a `data:` line is skipped byte by byte, never copied).
struct EventNameReader {
    /// The current line's bytes so far, while it may still be an `event:` line.
    private var line: [UInt8] = []
    /// Whether the current line is known not to be an `event:` line (too long for one), so is skipped to its end.
    private var skipping = false

    private static let prefix = Array("event: ".utf8)
    /// Longer than any event's name line, so a longer line is data.
    private static let longestNameLine = 64

    /// The names of the events whose `event:` line ends in `chunk`, in order.
    mutating func names(in chunk: some Sequence<UInt8>) -> [String] {
        var names: [String] = []
        for byte in chunk {
            if byte == UInt8(ascii: "\n") {
                if !skipping, line.starts(with: Self.prefix) {
                    names.append(String(decoding: line.dropFirst(Self.prefix.count), as: UTF8.self))
                }
                line.removeAll(keepingCapacity: true)
                skipping = false
            } else if !skipping {
                line.append(byte)
                if line.count > Self.longestNameLine || (line.count <= Self.prefix.count && line.last != Self.prefix[line.count - 1]) {
                    skipping = true
                    line.removeAll(keepingCapacity: true)
                }
            }
        }
        return names
    }
}
