import Foundation
import Synchronization

/// What the load has done so far, shared by every scan task and the progress display.
final class Recorder: Sendable {
    private struct State {
        var inFlight = 0
        var finished = 0
        var failed = 0
        var signInFailures = 0
        /// Scans started once measuring began, for the report.
        var measured: [ScanOutcome] = []
    }

    private let state = Mutex(State())
    /// When measuring starts: scans started earlier warm the system up and are not reported.
    let measuringFrom: ContinuousClock.Instant

    init(measuringFrom: ContinuousClock.Instant) {
        self.measuringFrom = measuringFrom
    }

    func started() {
        state.withLock { $0.inFlight += 1 }
    }

    func finished(_ outcome: ScanOutcome) {
        state.withLock { state in
            state.inFlight -= 1
            state.finished += 1
            if !outcome.succeeded { state.failed += 1 }
            if outcome.started >= measuringFrom { state.measured.append(outcome) }
        }
    }

    func signInFailed() {
        state.withLock { $0.signInFailures += 1 }
    }

    /// Scans in flight, finished and failed so far (warm-up included), and failed sign-ins.
    var counts: (inFlight: Int, finished: Int, failed: Int, signInFailures: Int) {
        state.withLock { ($0.inFlight, $0.finished, $0.failed, $0.signInFailures) }
    }

    /// Every scan started after warm-up, finished.
    var measured: [ScanOutcome] {
        state.withLock { $0.measured }
    }
}
