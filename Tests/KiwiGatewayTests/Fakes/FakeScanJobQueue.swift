import Foundation
import KiwiModels
import KiwiScanStore
import KiwiScans
import Synchronization

@testable import KiwiGateway

/// The job queue and the scan workers behind it: each job is answered at once as programmed, written on the fake
/// ledger as a worker writes it on the real one, and announced; or left for the test to answer.
final class FakeScanJobQueue: ScanJobQueue {
    /// What becomes of a job.
    enum Fate: Sendable {
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
        var fate: Fate
        var jobs: [ScanJob] = []
    }

    private let state: Mutex<State>
    private let ledger: FakeScanLedger
    private let hub: ScanEventHub

    init(_ fate: Fate, ledger: FakeScanLedger, hub: ScanEventHub) {
        state = Mutex(State(fate: fate))
        self.ledger = ledger
        self.hub = hub
    }

    /// The photos received, in order (every photo of every job).
    var photos: [[UInt8]] { state.withLock { $0.jobs.flatMap(\.photos) } }
    /// The modes of the jobs received, in order.
    var modes: [ScanMode] { state.withLock { $0.jobs.map(\.mode) } }
    /// The profiles the jobs carried.
    var profiles: [KitchenProfile?] { state.withLock { $0.jobs.map(\.profile) } }
    /// The tables the jobs carried.
    var tables: [[TableSeat]?] { state.withLock { $0.jobs.map(\.table) } }
    /// The request ids the jobs carried.
    var requestIDs: [String] { state.withLock { $0.jobs.compactMap(\.requestID) } }
    /// The ingredient names the jobs carried, in order: nil for a photo scan's.
    var ingredients: [[String]?] { state.withLock { $0.jobs.map(\.ingredients) } }
    /// The pantry items the jobs carried, in order: nil for any scan's but a pantry scan's.
    var pantries: [[OfferedPantryItem]?] { state.withLock { $0.jobs.map(\.pantry) } }
    /// The plans the jobs asked for, in order: nil for any scan's but a plan's.
    var plans: [PlanRequest?] { state.withLock { $0.jobs.map(\.plan) } }
    /// The planned meals whose recipes the jobs asked for, in order: nil for any scan's but a meal's.
    var meals: [MealRecipeRequest?] { state.withLock { $0.jobs.map(\.meal) } }
    /// The meals' replacements the jobs asked for, in order: nil for any scan's but a replacement's.
    var replacements: [MealReplacement?] { state.withLock { $0.jobs.map(\.replacement) } }
    /// Whether each job received, in order, shows its answer's elements as they stream.
    var showsPartials: [Bool] { state.withLock { $0.jobs.map(\.showsPartials) } }
    /// The scan ids of the jobs received, in order.
    var scanIDs: [UUID] { state.withLock { $0.jobs.map(\.scanID) } }

    /// What becomes of the jobs from now on.
    func set(_ fate: Fate) {
        state.withLock { $0.fate = fate }
    }

    func submit(_ job: consuming ScanJob, sealedWith key: PhotoKey) async throws {
        let job = copy job
        let fate = state.withLock { state in
            if case .refuse = state.fate { return state.fate }
            state.jobs.append(job)
            return state.fate
        }
        switch fate {
        case .answer(let result, let modelTime): answer(job.scanID, with: result, modelTime: modelTime)
        case .refuse(let error): throw error
        case .hold: break
        case .stall(let confirmation): for await _ in confirmation { break }
        }
    }

    /// A worker takes scan `id`: it is `running` now.
    func start(_ id: UUID) {
        if case .started? = try? ledger.start(id) { hub.wake(ScanEvent(scanID: id, state: .running)) }
    }

    /// A worker shows `partials` of scan `id`'s answer, announcing the scan running after each, as the real one does.
    func show(_ partials: [ScanPartial], of id: UUID) {
        for partial in partials where (try? ledger.show(partial, of: id)) != nil {
            hub.wake(ScanEvent(scanID: id, state: .running))
        }
    }

    /// A worker records `result` for scan `id`, as the real one does (only on an open scan).
    func answer(_ id: UUID, with result: ScanOutcome, modelTime: Duration? = nil) {
        if (try? ledger.finish(id, with: result, modelTime: modelTime)) == true { hub.wake(ScanEvent(scanID: id, state: result.state)) }
    }
}
