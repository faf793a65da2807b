import Foundation
import Synchronization

/// Hands out TCP ports for the processes and servers tests start, so that no two can ever be given the same one.
///
/// The kernel's "any free port" (bind to port 0, close, reuse the number) can return the same number twice in a row
/// and can give it to an outgoing connection before the server binds it. So ports come from one allocator per test
/// process instead: from a range below Linux's ephemeral range (32768–60999, where outgoing connections get their
/// local ports), never the same one twice, and only when nothing listens on it now. Each test process starts at an
/// offset of its own in the range, so two runs on one machine rarely meet; if one does, the bind check catches it.
public final class PortAllocator: Sendable {
    /// The allocator every test in this process shares.
    public static let shared = PortAllocator(range: 20_000..<32_000, start: Int(getpid()))

    private let range: Range<Int>
    private let next: Mutex<Int>

    init(range: Range<Int>, start: Int) {
        self.range = range
        next = Mutex(range.lowerBound + start % range.count)
    }

    /// A port no earlier call returned and nothing listens on now, on 127.0.0.1.
    public func reserve() throws -> Int {
        for _ in 0..<range.count {
            let candidate = next.withLock { next in
                defer { next = next + 1 == range.upperBound ? range.lowerBound : next + 1 }
                return next
            }
            if Self.isFree(candidate) { return candidate }
        }
        throw Exhausted()
    }

    /// Whether 127.0.0.1:`port` can be bound now (without `SO_REUSEADDR`, so a lingering connection counts as taken).
    static func isFree(_ port: Int) -> Bool {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        return withLoopbackAddress(port: port) { bind(descriptor, $0, $1) == 0 }
    }

    struct Exhausted: Error {}
}

/// Calls `body` with the socket address 127.0.0.1:`port` and its length, for `bind` or `connect`.
public func withLoopbackAddress<Result>(port: Int, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Result) -> Result {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    return withUnsafePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
}

/// A port for a server a test starts: see ``PortAllocator``.
public func reservePort() throws -> Int {
    try PortAllocator.shared.reserve()
}
