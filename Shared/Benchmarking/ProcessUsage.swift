import Foundation

/// What a running process has used so far, read from Linux's `/proc`: CPU seconds (user + system) and its peak
/// resident set size. Benchmarks read it before and after a run; it is zero where `/proc` has no such process.
public struct ProcessUsage: Sendable, Hashable {
    public var cpuSeconds: Double
    /// `VmHWM`: the most memory the process has held resident since it started.
    public var peakRSSBytes: Int

    /// The usage of process `pid` now.
    public init(pid: Int32) {
        cpuSeconds = Self.cpuSeconds(pid: pid)
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
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let end = stat.lastIndex(of: ")") else { return 0 }
        let fields = stat[stat.index(after: end)...].split(separator: " ")
        guard fields.count > 12 else { return 0 }
        let ticks = (Double(fields[11]) ?? 0) + (Double(fields[12]) ?? 0)  // utime and stime: fields 14 and 15 of stat(5)
        return ticks / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    private static func peakRSS(pid: Int32) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
        else { return 0 }
        return kilobytes * 1024
    }
}
