import Foundation
import KiwiTestSupport
import Testing

/// `deploy/local/instruction-budget.py check`, which `make test` runs on the counts it makes, on planted counts and
/// budgets: a regression of more than 5 % fails and is named, and a budget is raised only by a line saying why.
@Suite("The instruction budget check")
struct InstructionBudgetCheckTests {
    /// The check's exit status and what it printed, for `counts` against a budget file of `budget`.
    func check(_ counts: [String: Int], budget: String) async throws -> (status: Int32, output: String) {
        let folder = FileManager.default.temporaryDirectory.appending(path: "kiwi-budget-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (countsFile, budgetFile) = (folder.appending(path: "counts.json"), folder.appending(path: "instruction-budget.txt"))
        try JSONSerialization.data(withJSONObject: counts).write(to: countsFile)
        try Data(budget.utf8).write(to: budgetFile)
        let script = DeploymentFiles.root.appending(path: "deploy/local/instruction-budget.py").path
        return try await runProgram("/usr/bin/python3", [script, "check", countsFile.path, budgetFile.path], includingStandardError: true)
    }

    static let budget = """
        # workload  count  since  why
        gateway-blocking-scan  1000000  2026-11-29  first budget, the count of its day
        worker-streamed-answer  4000000  2026-11-29  first budget, the count of its day

        """

    @Test("counts within 5 % of their budgets pass, above or below")
    func withinBudgetPasses() async throws {
        let result = try await check(["gateway-blocking-scan": 1_049_000, "worker-streamed-answer": 3_900_000], budget: Self.budget)
        #expect(result.status == 0, "\(result.output)")
    }

    @Test("a planted regression of 6 % fails the check, naming the workload and how to raise its budget")
    func regressionFails() async throws {
        let result = try await check(["gateway-blocking-scan": 1_060_000, "worker-streamed-answer": 4_000_000], budget: Self.budget)
        #expect(result.status == 1)
        #expect(
            result.output.contains("gateway-blocking-scan: 1,060,000 instructions per request, 6.0% over its budget of 1,000,000"),
            "\(result.output)"
        )
        #expect(result.output.contains("raise the budget in the same commit with a line"), "\(result.output)")
        #expect(!result.output.contains("worker-streamed-answer: 4,000,000 instructions per request, "), "\(result.output)")
    }

    @Test("a later line raising a budget, saying why, is the budget")
    func raisedBudgetPasses() async throws {
        let raised = Self.budget + "gateway-blocking-scan  1100000  2026-12-02  households: each scan reads the household's profiles\n"
        let result = try await check(["gateway-blocking-scan": 1_090_000, "worker-streamed-answer": 4_000_000], budget: raised)
        #expect(result.status == 0, "\(result.output)")
    }

    @Test("a budget line that does not say why fails the check")
    func raiseWithoutWhyFails() async throws {
        let raised = Self.budget + "gateway-blocking-scan  1100000  2026-12-02\n"
        let result = try await check(["gateway-blocking-scan": 1_090_000, "worker-streamed-answer": 4_000_000], budget: raised)
        #expect(result.status == 1)
        #expect(result.output.contains("a budget line is `workload count yyyy-mm-dd why`"), "\(result.output)")
    }

    @Test("a workload counted without a budget, or budgeted without a count, fails the check")
    func unbudgetedWorkloadFails() async throws {
        let result = try await check(["gateway-blocking-scan": 1_000_000, "auth-sign-in": 500_000], budget: Self.budget)
        #expect(result.status == 1)
        #expect(result.output.contains("auth-sign-in: counted, but instruction-budget.txt has no budget for it"), "\(result.output)")
        #expect(result.output.contains("worker-streamed-answer: instruction-budget.txt budgets it, but no workload counts it"), "\(result.output)")
    }
}
