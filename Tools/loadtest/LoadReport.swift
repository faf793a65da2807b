import Foundation
import KiwiBenchmarking
import KiwiConcurrency

/// The results of a load test, as a table for people and as JSON (`--json`).
struct LoadReport: Encodable {
    struct ErrorRow: Encodable {
        /// The HTTP status, or nil when no response came.
        var status: Int?
        var code: String
        var count: Int
    }

    struct ProcessRow: Encodable {
        var name: String
        var pid: Int32
        /// Whether it is one of Kiwi's own processes (a service, the broker, the database) rather than the stub.
        var kiwi: Bool
        /// CPU seconds (user + system, children included) used during the measured window.
        var cpuSeconds: Double
        /// The most memory the process has held resident since it started.
        var peakRSSMiB: Double
        /// Percent of one core used over a few seconds once the load was over (nil: not measured).
        var idleCPUPercent: Double?
    }

    var mode: String
    var durationSeconds: Double
    var warmupSeconds: Double
    var imageBytes: Int
    var gateways: [String]
    /// Users signed in for the test, and sign-ins that failed.
    var users: Int
    var signInFailures: Int
    /// Scan starts the gateway refused with `Retry-After` in the measured window (``ScanOutcome/refused``).
    var refused: Int
    /// Scans started in the measured window (and finished, in it or after).
    var scans: Int
    var succeeded: Int
    /// Scans finished within the measured window (however early they started), per second: all, and the successful ones.
    var scansPerSecond: Double
    var scansFinishedInWindow: Int
    var successfulScansPerSecond: Double
    /// Latency of every measured scan, in milliseconds.
    var latencyMs: LatencySummary
    /// Each successful scan's latency minus the model's own time (Server-Timing), in milliseconds.
    var gatewayAddedMs: LatencySummary
    var errors: [ErrorRow]
    /// Through the async API: when each successful scan's streamed events came.
    var streamed: StreamedTimes?
    /// The gateway-added delay per streamed event over the window, from the gateway's histogram (`--gateway-metrics`).
    var eventDelayMs: HistogramWindow?
    /// Messages published on the scan-event exchange over the window, and per scan finished in it (`--broker-metrics`).
    var eventMessages: Double?
    var eventMessagesPerScan: Double?
    /// How long the shopping-list changes sent in the window took to show on another member's stream (`--list-pairs`).
    var listChanges: ListChanges?
    var processes: [ProcessRow]
    /// CPU seconds of Kiwi's own processes over the window, all together.
    var kiwiCPUSeconds: Double
    /// Kiwi's own CPU milliseconds per scan finished in the window.
    var kiwiCPUMsPerScan: Double

    init(
        mode: String,
        durationSeconds: Double,
        warmupSeconds: Double,
        imageBytes: Int,
        gateways: [String],
        users: Int,
        signInFailures: Int,
        refused: Int,
        outcomes: [ScanOutcome],
        finishedInWindow: (all: Int, succeeded: Int),
        streamed: Bool = false,
        eventDelay: HistogramWindow? = nil,
        eventMessages: Double? = nil,
        listChanges: ListChanges? = nil,
        processes: [ProcessRow]
    ) {
        (self.mode, self.durationSeconds, self.warmupSeconds, self.imageBytes, self.gateways) = (
            mode, durationSeconds, warmupSeconds, imageBytes, gateways
        )
        (self.users, self.signInFailures, self.refused, self.processes) = (users, signInFailures, refused, processes)
        scans = outcomes.count
        succeeded = outcomes.filter(\.succeeded).count
        scansFinishedInWindow = finishedInWindow.all
        scansPerSecond = Double(finishedInWindow.all) / durationSeconds
        successfulScansPerSecond = Double(finishedInWindow.succeeded) / durationSeconds
        latencyMs = LatencySummary(outcomes.map(\.latency))
        gatewayAddedMs = LatencySummary(outcomes.compactMap { outcome in outcome.succeeded ? outcome.modelTime.map { outcome.latency - $0 } : nil })
        errors = Dictionary(grouping: outcomes.filter { !$0.succeeded }) { "\($0.status.map(String.init) ?? "none") \($0.code ?? "")" }
            .map { _, failures in ErrorRow(status: failures[0].status, code: failures[0].code ?? "unknown", count: failures.count) }
            .sorted { $0.count > $1.count }
        self.streamed = streamed ? StreamedTimes(outcomes.filter(\.succeeded)) : nil
        eventDelayMs = eventDelay
        self.eventMessages = eventMessages
        eventMessagesPerScan = eventMessages.flatMap { finishedInWindow.all > 0 ? $0 / Double(finishedInWindow.all) : nil }
        self.listChanges = listChanges
        kiwiCPUSeconds = processes.filter(\.kiwi).reduce(0) { $0 + $1.cpuSeconds }
        kiwiCPUMsPerScan = Self.msPerScan(kiwiCPUSeconds, finished: finishedInWindow.all)
    }

    /// The report as Markdown tables.
    var table: String {
        func ms(_ value: Double) -> String { String(format: "%.1f", value) }
        var lines = [
            "kiwi-loadtest: \(mode), \(format(durationSeconds)) s measured after \(format(warmupSeconds)) s warm-up, \(imageBytes / 1024) KiB photos, "
                + "\(users) users, \(ProcessInfo.processInfo.activeProcessorCount) CPUs",
            "",
            "| scans/s | ok scans/s | scans | ok | failed | p50 ms | p90 ms | p99 ms | max ms |",
            "|---|---|---|---|---|---|---|---|---|",
            "| \(format(scansPerSecond)) | \(format(successfulScansPerSecond)) | \(scans) | \(succeeded) | \(scans - succeeded) | "
                + "\(ms(latencyMs.p50)) | \(ms(latencyMs.p90)) | \(ms(latencyMs.p99)) | \(ms(latencyMs.max)) |",
            "",
            "gateway-added latency (end to end minus the model's Server-Timing), \(gatewayAddedMs.count) scans:",
            "",
            "| p50 ms | p90 ms | p99 ms | max ms |",
            "|---|---|---|---|",
            "| \(ms(gatewayAddedMs.p50)) | \(ms(gatewayAddedMs.p90)) | \(ms(gatewayAddedMs.p99)) | \(ms(gatewayAddedMs.max)) |",
        ]
        if let streamed { lines += ["", streamed.table] }
        if let eventDelayMs, eventDelayMs.count > 0 {
            func bound(_ value: Double?) -> String { value.map { "≤ \(ms($0))" } ?? "above every bucket" }
            lines += [
                "",
                "gateway-added delay per streamed event (\(LoadTest.eventDelayMetric), from the worker's acceptance to the event's write; "
                    + "p50 and p99 as the bounds of their buckets), \(Int(eventDelayMs.count)) events in the window:",
                "",
                "| mean ms | p50 ms | p99 ms |",
                "|---|---|---|",
                "| \(eventDelayMs.meanMs.map(ms) ?? "—") | \(bound(eventDelayMs.p50AtMostMs)) | \(bound(eventDelayMs.p99AtMostMs)) |",
            ]
        }
        if let eventMessages {
            lines += [
                "",
                "scan-event exchange: \(Int(eventMessages)) messages published in the window, "
                    + "\(eventMessagesPerScan.map { String(format: "%.2f", $0) } ?? "—") per scan finished in it.",
            ]
        }
        if let listChanges {
            let delay = listChanges.delayMs
            lines += [
                "",
                "shopping-list changes sent in the window, from sending each to the first event on the other member's stream that shows it:",
                "",
                "| changes | not shown within \(Int(ListWatch.patience.components.seconds)) s | p50 ms | p90 ms | p99 ms | max ms |",
                "|---|---|---|---|---|---|",
                "| \(listChanges.changes) | \(listChanges.lost) | \(ms(delay.p50)) | \(ms(delay.p90)) | \(ms(delay.p99)) | \(ms(delay.max)) |",
            ]
        }
        if refused > 0 {
            lines += [
                "",
                "\(refused) scan starts refused with `Retry-After` in the window, not counted as scans; each lane waited as told, then tried again.",
            ]
        }
        if !errors.isEmpty || signInFailures > 0 {
            lines += ["", "| status | code | count |", "|---|---|---|"]
            lines += errors.map { "| \($0.status.map(String.init) ?? "—") | \($0.code) | \($0.count) |" }
            if signInFailures > 0 { lines.append("| — | sign-in failed | \(signInFailures) |") }
        }
        if !processes.isEmpty {
            func perScan(_ value: Double) -> String { String(format: "%.2f", value) }
            func idle(_ percent: Double?) -> String { percent.map { String(format: "%.2f", $0) } ?? "—" }
            lines += [
                "",
                "| process | pid | CPU s (window) | CPU ms per scan | peak RSS MiB | idle CPU % of a core |",
                "|---|---|---|---|---|---|",
            ]
            lines += processes.map { row in
                "| \(row.kiwi ? row.name : "(\(row.name), not Kiwi)") | \(row.pid) | \(format(row.cpuSeconds)) | "
                    + "\(perScan(Self.msPerScan(row.cpuSeconds, finished: scansFinishedInWindow))) | \(format(row.peakRSSMiB)) | \(idle(row.idleCPUPercent)) |"
            }
            lines.append("| **Kiwi's own, all together** | | \(format(kiwiCPUSeconds)) | **\(perScan(kiwiCPUMsPerScan))** | | |")
        }
        return lines.joined(separator: "\n")
    }

    /// The `--list-pairs` changes of the window: how many, how many never showed, and the delays of those that did,
    /// summarised and each (for a summary of several runs to pool).
    struct ListChanges: Encodable {
        var changes: Int
        var lost: Int
        var delayMs: LatencySummary
        var samplesMs: [Double]

        init(_ changes: [ListWatch.Change]) {
            let delays = changes.compactMap(\.delay)
            self.changes = changes.count
            lost = changes.count - delays.count
            delayMs = LatencySummary(delays)
            samplesMs = delays.map { ($0 / .microseconds(1)).rounded() / 1000 }
        }
    }

    private func format(_ value: Double) -> String { String(format: "%.1f", value) }

    private static func msPerScan(_ cpuSeconds: Double, finished: Int) -> Double { finished > 0 ? cpuSeconds * 1000 / Double(finished) : 0 }
}
