import Foundation
import KiwiModels
import KiwiScanJobs
import Synchronization

@testable import KiwiGateway

/// The scan workers, answering every photo with one programmed outcome and recording what they were sent.
final class FakeScanBackend: ScanBackend {
    /// What a scan ends with.
    enum Outcome: Sendable {
        case answer(ScanJobResult, modelTime: Duration?)
        case failure(any Error)
    }

    private struct State {
        var outcome: Outcome
        var photos: [[UInt8]] = []
        var requestIDs: [String] = []
    }

    private let state: Mutex<State>

    init(_ outcome: Outcome = .answer(.ok(ScanResponse(ingredients: [], recipes: [])), modelTime: nil)) {
        state = Mutex(State(outcome: outcome))
    }

    /// The photos received, in order.
    var photos: [[UInt8]] { state.withLock { $0.photos } }
    /// The request ids the scans carried.
    var requestIDs: [String] { state.withLock { $0.requestIDs } }

    func scan(_ jpeg: consuming [UInt8], userID: UUID, requestID: String) async throws -> (result: ScanJobResult, modelTime: Duration?) {
        let photo = jpeg
        let outcome = state.withLock { state in
            state.photos.append(photo)
            state.requestIDs.append(requestID)
            return state.outcome
        }
        switch outcome {
        case .answer(let result, let modelTime): return (result, modelTime)
        case .failure(let error): throw error
        }
    }
}
