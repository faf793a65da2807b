import Foundation

/// The instruction budget's workloads (docs/operations.md, "The instruction budget"): XCTest cases that `make test`
/// runs once, and `deploy/local/instruction-budget.py` this many times under callgrind.
public enum InstructionWorkload {
    /// How many requests a workload makes (`KIWI_INSTRUCTION_REPEATS`); nil in an ordinary test run, which makes one.
    public static var repeats: Int? {
        ProcessInfo.processInfo.environment["KIWI_INSTRUCTION_REPEATS"].flatMap(Int.init)
    }

    /// Called once a workload is set up, just before its requests: callgrind zeroes its counts on entering it
    /// (`--zero-before`), so what setting up costs falls out of the count. Loading every language's lexicon is most
    /// of that (11 billion debug instructions), and its count varies by up to 140 million from run to run, as the
    /// runtime's metadata caches happen to fill; left in, it moved a gateway request's count by up to 17 %.
    @inline(never)
    public static func startCounting() {}
}
