import Foundation
import Synchronization

@testable import KiwiGateway

/// Scans used per person and day, in memory, with the same all-or-nothing reservation as the real table.
final class FakeQuotaRepository: QuotaRepository {
    private struct State {
        var used: [QuotaReservation: Int] = [:]
        var refunds = 0
        var failure: (any Error & Sendable)?
    }

    private let state = Mutex(State())

    /// Sets how many scans `quotaKey` has used on `day`.
    func setUsed(_ count: Int, by quotaKey: Data, on day: String) {
        state.withLock { $0.used[QuotaReservation(quotaKey: quotaKey, day: day)] = count }
    }

    /// Makes every call fail with `error` (nil: work again).
    func fail(with error: (any Error & Sendable)?) {
        state.withLock { $0.failure = error }
    }

    /// How many reservations were given back.
    var refunds: Int { state.withLock { $0.refunds } }

    func used(by quotaKey: Data, on day: String) async throws -> Int {
        try state.withLock { state in
            if let failure = state.failure { throw failure }
            return state.used[QuotaReservation(quotaKey: quotaKey, day: day)] ?? 0
        }
    }

    func reserve(for quotaKey: Data, on day: String, limit: Int) async throws -> QuotaReservation? {
        try state.withLock { state in
            if let failure = state.failure { throw failure }
            let reservation = QuotaReservation(quotaKey: quotaKey, day: day)
            guard state.used[reservation, default: 0] < limit else { return nil }
            state.used[reservation, default: 0] += 1
            return reservation
        }
    }

    func refund(_ reservation: QuotaReservation) async throws {
        try state.withLock { state in
            if let failure = state.failure { throw failure }
            state.used[reservation] = max(0, state.used[reservation, default: 0] - 1)
            state.refunds += 1
        }
    }

    func purge(before day: String) async throws -> Int {
        try state.withLock { state in
            if let failure = state.failure { throw failure }
            let past = state.used.keys.filter { $0.day < day }
            for key in past { state.used[key] = nil }
            return past.count
        }
    }
}
