import Foundation
import Synchronization

/// What the load has done so far, shared by every scan task and the progress display.
final class Recorder: Sendable {
    private struct State {
        var inFlight = 0
        var finished = 0
        var failed = 0
        var signInFailures = 0
        var refused = 0
        /// Scans refused once measuring began.
        var measuredRefusals = 0
        /// Scans started once measuring began, for the report.
        var measured: [ScanOutcome] = []
        /// Scans that finished inside the measured window, however early they started: the throughput.
        var finishedInWindow = 0
        var succeededInWindow = 0
    }

    private let state = Mutex(State())
    /// When measuring starts: scans started earlier warm the system up, and their latencies are not reported.
    let measuringFrom: ContinuousClock.Instant
    /// When measuring ends: no scan starts after it.
    let measuringUntil: ContinuousClock.Instant

    init(measuringFrom: ContinuousClock.Instant, until measuringUntil: ContinuousClock.Instant) {
        self.measuringFrom = measuringFrom
        self.measuringUntil = measuringUntil
    }

    func started() {
        state.withLock { $0.inFlight += 1 }
    }

    /// A scan that ended: finished, failed, or refused before it started (``ScanOutcome/refused``, which is counted
    /// apart from the scans).
    func finished(_ outcome: ScanOutcome) {
        state.withLock { state in
            state.inFlight -= 1
            if outcome.refused {
                state.refused += 1
                if outcome.started >= measuringFrom { state.measuredRefusals += 1 }
                return
            }
            state.finished += 1
            if !outcome.succeeded { state.failed += 1 }
            if outcome.started >= measuringFrom { state.measured.append(outcome) }
            let end = outcome.started + outcome.latency
            if end >= measuringFrom, end <= measuringUntil {
                state.finishedInWindow += 1
                if outcome.succeeded { state.succeededInWindow += 1 }
            }
        }
    }

    func signInFailed() {
        state.withLock { $0.signInFailures += 1 }
    }

    /// Scans in flight, finished, failed and refused so far (warm-up included), and failed sign-ins.
    var counts: (inFlight: Int, finished: Int, failed: Int, refused: Int, signInFailures: Int) {
        state.withLock { ($0.inFlight, $0.finished, $0.failed, $0.refused, $0.signInFailures) }
    }

    /// Scans refused since measuring began.
    var measuredRefusals: Int {
        state.withLock { $0.measuredRefusals }
    }

    /// Every scan started after warm-up, finished.
    var measured: [ScanOutcome] {
        state.withLock { $0.measured }
    }

    /// Scans, and successful scans, that finished inside the measured window.
    var finishedInWindow: (all: Int, succeeded: Int) {
        state.withLock { ($0.finishedInWindow, $0.succeededInWindow) }
    }
}
