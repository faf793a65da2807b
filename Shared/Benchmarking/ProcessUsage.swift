import Foundation

/// What a running process has used so far, read from Linux's `/proc`: CPU seconds (user + system) and its peak
/// resident set size. Benchmarks read it before and after a run; it is zero where `/proc` has no such process.
public struct ProcessUsage: Sendable, Hashable {
    public var cpuSeconds: Double
    /// `VmHWM`: the most memory the process has held resident since it started.
    public var peakRSSBytes: Int

    /// The usage of process `pid` now. `includingChildren`: its CPU time counts its descendants' too, living and
    /// exited (a PostgreSQL postmaster's backends, the Erlang VM's helpers); the peak memory stays its own.
    public init(pid: Int32, includingChildren: Bool = false) {
        cpuSeconds = includingChildren ? Self.treeCPUSeconds(root: pid) : Self.cpuSeconds(pid: pid)
        peakRSSBytes = Self.peakRSS(pid: pid)
    }

    /// Processes whose executable name (`/proc/PID/comm`, at most 15 characters) is `name`, by pid.
    public static func processes(named name: String) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(Int32.init).filter { pid in
            (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
                == String(name.prefix(15))
        }.sorted()
    }

    private static func cpuSeconds(pid: Int32) -> Double {
        guard let fields = statFields(pid: pid) else { return 0 }
        return seconds(ticks(fields[11...12]))  // utime and stime: fields 14 and 15 of proc_pid_stat(5)
    }

    /// The CPU time of `root` and every living descendant, each with its waited-for children's (cutime and cstime):
    /// a child that exits between two readings moves into its parent's share, so differences stay right. A child
    /// reaped while the tree is being read would count in neither share, or in both; such a reading is taken again,
    /// for as long as ``consistencyBudget`` allows: on a loaded machine a pass over `/proc` takes long enough for a
    /// busy parent's children to be reaped during many passes in a row. A benchmark reads a tree at its start and end.
    ///
    /// A pass reads `/proc` in pid order, and pids wrap (at 32,768 by default), so a child can be read before its
    /// parent. Reaped between the two, it counts in both shares and its parent's share shows no change afterwards:
    /// such a child must still be there once the pass is over.
    private static func treeCPUSeconds(root: Int32) -> Double {
        let giveUp = ContinuousClock.now + consistencyBudget
        var reading = treeReading(root: root)
        while ContinuousClock.now < giveUp, !isConsistent(reading) {
            reading = treeReading(root: root)
        }
        return seconds(reading.ticks)
    }

    /// Whether no child of the tree was reaped while `reading` was taken.
    private static func isConsistent(_ reading: TreeReading) -> Bool {
        reading.parents.allSatisfy { reapedChildrenTicks(pid: $0.key) == $0.value }
            && reading.readBeforeParent.allSatisfy { statFields(pid: $0) != nil }
    }

    /// How long a reading of a tree may be taken again until no child was reaped during it.
    static let consistencyBudget = Duration.seconds(2)

    /// One pass over `/proc`: the tree's CPU time in clock ticks, the reaped children's share of each process in it
    /// that has children, and the processes read before their parents, to check that no child was reaped meanwhile.
    private struct TreeReading {
        var ticks = 0
        var parents: [Int32: Int] = [:]
        var readBeforeParent: [Int32] = []
    }

    private static func treeReading(root: Int32) -> TreeReading {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        var children: [Int32: [Int32]] = [:]
        var stats: [Int32: (fields: [Substring], order: Int)] = [:]
        for pid in entries.compactMap(Int32.init) {
            guard let fields = statFields(pid: pid), let parent = Int32(fields[1]) else { continue }
            children[parent, default: []].append(pid)
            stats[pid] = (fields, stats.count)
        }
        var reading = TreeReading()
        var pending = [root]
        while let pid = pending.popLast() {
            guard let (fields, order) = stats[pid] else { continue }
            reading.ticks += ticks(fields[11...14])  // utime, stime, cutime, cstime
            if let own = children[pid] {
                reading.parents[pid] = ticks(fields[13...14])
                reading.readBeforeParent += own.filter { stats[$0].map { $0.order < order } ?? false }
                pending += own
            }
        }
        return reading
    }

    /// cutime and cstime: the CPU ticks of the children `pid` has waited for; nil when it is gone.
    private static func reapedChildrenTicks(pid: Int32) -> Int? {
        statFields(pid: pid).map { ticks($0[13...14]) }
    }

    /// The fields of `/proc/PID/stat` after the command name: state first, so field N of proc_pid_stat(5) is at N - 3.
    private static func statFields(pid: Int32) -> [Substring]? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let end = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: end)...].split(separator: " ")
        return fields.count > 14 ? fields : nil
    }

    private static func ticks(_ fields: ArraySlice<Substring>) -> Int {
        fields.reduce(0) { $0 + (Int($1) ?? 0) }
    }

    private static func seconds(_ ticks: Int) -> Double {
        Double(ticks) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    private static func peakRSS(pid: Int32) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
        else { return 0 }
        return kilobytes * 1024
    }
}
