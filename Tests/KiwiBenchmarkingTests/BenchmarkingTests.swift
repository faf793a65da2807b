import Foundation
import KiwiBenchmarking
import Testing

@Suite("Benchmark figures")
struct BenchmarkingTests {
    @Test("latency percentiles are nearest-rank, in milliseconds")
    func nearestRankPercentiles() {
        let summary = LatencySummary((1...100).map { Duration.milliseconds($0) })
        #expect(summary.count == 100)
        #expect(summary.p50 == 50)
        #expect(summary.p90 == 90)
        #expect(summary.p99 == 99)
        #expect(summary.max == 100)
    }

    @Test("no latencies summarise as zeros, not a crash")
    func emptySummary() {
        let empty = LatencySummary([])
        #expect(empty.count == 0 && empty.p50 == 0 && empty.p99 == 0 && empty.max == 0)
    }

    @Test("a running process's CPU time grows with work, and its peak memory is reported")
    func ownProcessUsage() {
        let pid = getpid()
        let before = ProcessUsage(pid: pid)
        var sum = 0.0
        let deadline = ContinuousClock.now + .milliseconds(300)
        while ContinuousClock.now < deadline { sum += sin(sum + 1) }
        let after = ProcessUsage(pid: pid)
        #expect(after.cpuSeconds > before.cpuSeconds, "sum \(sum)")
        #expect(after.peakRSSBytes > 1 << 20)
    }

    @Test("a process's children's CPU time counts when asked, after they have exited too")
    func childrenCount() throws {
        let pid = getpid()
        let (ownBefore, treeBefore) = (ProcessUsage(pid: pid), ProcessUsage(pid: pid, includingChildren: true))
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/bin/sh")
        child.arguments = ["-c", "i=0; while [ $i -lt 300000 ]; do i=$((i + 1)); done"]
        try child.run()
        child.waitUntilExit()
        let (ownAfter, treeAfter) = (ProcessUsage(pid: pid), ProcessUsage(pid: pid, includingChildren: true))
        #expect(treeAfter.cpuSeconds - treeBefore.cpuSeconds > ownAfter.cpuSeconds - ownBefore.cpuSeconds + 0.05)
    }

    @Test("a process tree's CPU time never goes backwards while its children come and go")
    func treeReadingsAreConsistent() throws {
        // A shell that keeps starting busy children of about 0.1 s of CPU and reaping them, as a postmaster does its
        // backends. Idle children started first put many processes between its pid and the busy ones', as between a
        // postmaster's and its newest backends', so that reading the tree takes long enough for a child to be reaped
        // meanwhile: read without retries, most of the two seconds' reaps showed here as a reading that went backwards.
        let parent = Process()
        parent.executableURL = URL(fileURLWithPath: "/bin/sh")
        parent.arguments = [
            "-c", "for n in $(seq 300); do sleep 4 & done; while :; do sh -c 'i=0; while [ $i -lt 100000 ]; do i=$((i + 1)); done'; done",
        ]
        try parent.run()
        defer { parent.terminate() }
        // Two seconds of readings, and on until the tree has used a third of a second of CPU: on a machine busy with the
        // whole suite, two seconds can give the shell less than the tenth of a second the first expectation asks for.
        var readings: [Double] = []
        let (least, longest) = (ContinuousClock.now + .seconds(2), ContinuousClock.now + .seconds(30))
        while ContinuousClock.now < least || (readings.last ?? 0) < 0.3 && ContinuousClock.now < longest {
            readings.append(ProcessUsage(pid: parent.processIdentifier, includingChildren: true).cpuSeconds)
        }
        let backwards = zip(readings, readings.dropFirst()).filter { $1 < $0 }
        #expect(readings.last ?? 0 > 0.1)
        #expect(backwards.isEmpty, "\(backwards.count) of \(readings.count) readings went backwards")
    }

    @Test("a process that does not exist uses nothing")
    func missingProcess() {
        #expect(ProcessUsage(pid: Int32.max) == ProcessUsage(pid: Int32.max - 1))
        #expect(ProcessUsage(pid: Int32.max).cpuSeconds == 0)
    }

    @Test("processes are found by executable name")
    func findsProcessesByName() throws {
        let name = try String(contentsOfFile: "/proc/self/comm", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(ProcessUsage.processes(named: name).contains(getpid()))
    }
}
