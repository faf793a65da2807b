import Foundation

/// The instruction budget's workloads (docs/operations.md, "The instruction budget"): XCTest cases that `make test`
/// runs once, and `deploy/local/instruction-budget.py` this many times under callgrind.
public enum InstructionWorkload {
    /// How many requests a workload makes (`KIWI_INSTRUCTION_REPEATS`); nil in an ordinary test run, which makes one.
    public static var repeats: Int? {
        ProcessInfo.processInfo.environment["KIWI_INSTRUCTION_REPEATS"].flatMap(Int.init)
    }
}
