import Foundation
import KiwiConcurrency

/// The live one-line display on standard error: elapsed time, phase, scans finished per second over the last second,
/// scans in flight, finished and failed. On a terminal the line redraws in place; elsewhere (CI, a log) it is
/// printed every five seconds.
struct ProgressLine: Sendable {
    let recorder: Recorder
    let start: ContinuousClock.Instant
    let measuringFrom: ContinuousClock.Instant
    let stopAt: ContinuousClock.Instant

    func run() async {
        let interactive = isatty(STDERR_FILENO) == 1
        var previous = 0
        var tick = 0
        while !Task.isCancelled {
            try? await sleep(for: .seconds(1))
            tick += 1
            let counts = recorder.counts
            let now = ContinuousClock.now
            let phase = now < measuringFrom ? "warming up" : now < stopAt ? "measuring" : "draining"
            let line =
                String(
                    format: "%4ds  %-10@  %7.1f scans/s  in flight %5d  done %7d  failed %6d",
                    Int((now - start) / .seconds(1)),
                    phase,
                    Double(counts.finished - previous),
                    counts.inFlight,
                    counts.finished,
                    counts.failed
                ) + (counts.refused > 0 ? "  refused \(counts.refused)" : "")
                + (counts.signInFailures > 0 ? "  sign-in failures \(counts.signInFailures)" : "")
            previous = counts.finished
            if interactive {
                FileHandle.standardError.write(Data("\r\u{1B}[K\(line)".utf8))
            } else if tick % 5 == 0 {
                FileHandle.standardError.write(Data("\(line)\n".utf8))
            }
        }
        if interactive { FileHandle.standardError.write(Data("\n".utf8)) }
    }
}
