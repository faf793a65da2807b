import Foundation
import Synchronization

@testable import KiwiGateway

/// The subscription's bindings, counted: how many watches here asked for each scan's news, and how many gave it up.
final class CountingScanNewsRouting: ScanNewsRouting {
    private let counts = Mutex<(listens: [UUID: Int], stops: [UUID: Int])>(([:], [:]))

    func listens(to id: UUID) -> Int { counts.withLock { $0.listens[id, default: 0] } }
    func stops(of id: UUID) -> Int { counts.withLock { $0.stops[id, default: 0] } }

    func listen(to id: UUID) async {
        counts.withLock { $0.listens[id, default: 0] += 1 }
    }

    func stopListening(to id: UUID) {
        counts.withLock { $0.stops[id, default: 0] += 1 }
    }
}
