import Foundation
import KiwiModels
import KiwiScanJobs
import KiwiScans
import Synchronization

@testable import KiwiGateway

/// The broker and the scan workers behind it: each job is answered at once with one programmed outcome, written on
/// the fake ledger as a worker writes it on the real one, and announced; or left for the test to answer.
final class FakeScanBackend: ScanBackend {
    /// What happens to a job.
    enum Outcome: Sendable {
        /// A worker records this result (and the model's time) at once.
        case answer(ScanOutcome, modelTime: Duration?)
        /// The broker does not take the job.
        case refuse(any Error & Sendable)
        /// The job waits on the queue until the test answers it (``answer(_:with:)``).
        case hold
        /// The broker confirms the job only once `confirmation` yields; then it waits on the queue as with ``hold``.
        case stall(until: AsyncStream<Void>)
    }

    private struct State {
        var outcome: Outcome
        var jobs: [ScanJob] = []
        var announced: [ScanEvent] = []
    }

    private let state: Mutex<State>
    private let ledger: FakeScanLedger
    private let events: ScanEventHub

    init(_ outcome: Outcome, ledger: FakeScanLedger, events: ScanEventHub) {
        state = Mutex(State(outcome: outcome))
        self.ledger = ledger
        self.events = events
    }

    /// The photos received, in order (every photo of every job).
    var photos: [[UInt8]] { state.withLock { $0.jobs.flatMap(\.photos) } }
    /// The modes of the jobs received, in order.
    var modes: [ScanMode] { state.withLock { $0.jobs.map(\.mode) } }
    /// The profiles the jobs carried.
    var profiles: [KitchenProfile?] { state.withLock { $0.jobs.map(\.profile) } }
    /// The request ids the jobs carried.
    var requestIDs: [String] { state.withLock { $0.jobs.compactMap(\.requestID) } }
    /// The scan ids of the jobs received, in order.
    var scanIDs: [UUID] { state.withLock { $0.jobs.map(\.scanID) } }
    /// The events the gateway announced.
    var announced: [ScanEvent] { state.withLock { $0.announced } }

    /// What happens to the jobs from now on.
    func set(_ outcome: Outcome) {
        state.withLock { $0.outcome = outcome }
    }

    func submit(_ job: consuming ScanJob) async throws {
        let job = copy job
        let outcome = state.withLock { state in
            if case .refuse = state.outcome { return state.outcome }
            state.jobs.append(job)
            return state.outcome
        }
        switch outcome {
        case .answer(let result, let modelTime): answer(job.scanID, with: result, modelTime: modelTime)
        case .refuse(let error): throw error
        case .hold: break
        case .stall(let confirmation): for await _ in confirmation { break }
        }
    }

    func announce(_ event: ScanEvent) async {
        state.withLock { $0.announced.append(event) }
        events.announce(event)
    }

    /// A worker takes scan `id`: it is `running` now.
    func start(_ id: UUID) {
        if ledger.start(id) { events.announce(ScanEvent(scanID: id, state: .running)) }
    }

    /// A worker records `result` for scan `id`, as the real one does (only on an open scan).
    func answer(_ id: UUID, with result: ScanOutcome, modelTime: Duration? = nil) {
        if ledger.finish(id, with: result, modelTime: modelTime) { events.announce(ScanEvent(scanID: id, state: result.state)) }
    }
}
