import Foundation
import KiwiConcurrency
import KiwiModels
import KiwiScanJobs
import KiwiScans
import Synchronization

@testable import KiwiGateway

/// The scan ledger in memory, with the real one's rules: reservations are all-or-nothing per person, idempotency
/// keys are per user, and only open scans change state.
final class FakeScanLedger: ScanLedger {
    private struct Stored {
        var record: ScanRecord
        let quotaKey: Data
        let day: String
        var idempotencyKey: String?
    }

    private struct State {
        var scans: [UUID: Stored] = [:]
        /// Charges outside the ledger, by person and day.
        var carried: [String: Int] = [:]
        /// Model tokens spent, by person and day.
        var tokens: [String: Int] = [:]
        /// What everyone's scans cost, by day, in nano-dollars.
        var spend: [String: Int64] = [:]
        var failure: (any Error & Sendable)?
        var reads = 0
        var failedReads = 0
    }

    private let state = Mutex(State())

    /// Sets the charges `quotaKey` has on `day` besides its scans (as from a deleted account).
    func setCarried(_ count: Int, by quotaKey: Data, on day: String) {
        state.withLock { $0.carried[Self.key(quotaKey, day)] = count }
    }

    /// Sets the model tokens `quotaKey`'s scans spent on `day`, and what everyone's cost, as workers count them.
    func setSpent(tokens: Int, by quotaKey: Data, everyonesNanos: Int64 = 0, on day: String) {
        state.withLock { state in
            state.tokens[Self.key(quotaKey, day)] = tokens
            state.spend[day] = everyonesNanos
        }
    }

    /// Makes every call fail with `error` (nil: work again).
    func fail(with error: (any Error & Sendable)?) {
        state.withLock { $0.failure = error }
    }

    /// How many times a scan was read by id: a test waits on it to know a follower has looked.
    var reads: Int { state.withLock { $0.reads } }

    /// How many reads of a scan by id failed with the error set by ``fail(with:)``.
    var failedReads: Int { state.withLock { $0.failedReads } }

    /// Every scan, in no order.
    var records: [ScanRecord] { state.withLock { $0.scans.values.map(\.record) } }

    func usage(of quotaKey: Data, on day: String) async throws -> DailyUsage {
        try state.withLock { state in
            if let failure = state.failure { throw failure }
            return Self.usage(of: quotaKey, on: day, in: state)
        }
    }

    func reserve(_ scan: QueuedScan, policy: QuotaPolicy) async throws -> ScanReservation {
        try state.withLock { state in
            if let failure = state.failure { throw failure }
            if let key = scan.idempotencyKey,
                let earlier = state.scans.values.first(where: { $0.record.userID == scan.userID && $0.idempotencyKey == key })
            {
                return earlier.record.photoSHA256 == scan.photoSHA256 ? .replay(earlier.record) : .keyReused
            }
            if let refusal = policy.refusal(after: Self.usage(of: scan.quotaKey, on: scan.day, in: state)) { return .refused(refusal) }
            let record = ScanRecord(
                id: scan.id,
                userID: scan.userID,
                state: .queued,
                errorCode: nil,
                photoSHA256: scan.photoSHA256,
                deadline: scan.deadline,
                createdAt: Date(),
                result: nil
            )
            state.scans[scan.id] = Stored(record: record, quotaKey: scan.quotaKey, day: scan.day, idempotencyKey: scan.idempotencyKey)
            return .reserved(record)
        }
    }

    /// What a worker does when it takes a scan: an open scan becomes `running`. False for any other.
    func start(_ id: UUID) -> Bool {
        (try? transition(id) { ScanRecord(copying: $0, state: .running, errorCode: nil) }) ?? false
    }

    /// What a worker does with its answer: an open scan becomes final. False for any other.
    func finish(_ id: UUID, with result: ScanOutcome, modelTime: Duration?) -> Bool {
        (try? transition(id) { record in
            var final: ScanRecord
            switch result {
            case .ok(let response): final = ScanRecord(copying: record, state: .succeeded, errorCode: nil, result: response)
            case .error(let failure):
                final = ScanRecord(copying: record, state: .failed, errorCode: failure.code)
                final.errorMessage = failure.message
            }
            final.modelTime = modelTime
            return final
        }) ?? false
    }

    func fail(_ id: UUID, code: ScanFailure.Code) async throws -> Bool {
        try transition(id) { ScanRecord(copying: $0, state: .failed, errorCode: code) }
    }

    func release(_ id: UUID, code: ScanFailure.Code) async throws -> Bool {
        try state.withLock { state in
            if let failure = state.failure { throw failure }
            guard let stored = state.scans[id], stored.record.state == .queued else { return false }
            state.scans[id]?.record = ScanRecord(copying: stored.record, state: .failed, errorCode: code)
            state.scans[id]?.idempotencyKey = nil
            return true
        }
    }

    func scan(_ id: UUID, of userID: UUID) async throws -> ScanRecord? {
        try state.withLock { state in
            if let failure = state.failure {
                state.failedReads += 1
                throw failure
            }
            state.reads += 1
            return state.scans[id].flatMap { $0.record.userID == userID ? $0.record : nil }
        }
    }

    func scan(idempotencyKey key: String, of userID: UUID) async throws -> ScanRecord? {
        try state.withLock { state in
            if let failure = state.failure { throw failure }
            return state.scans.values.first { $0.record.userID == userID && $0.idempotencyKey == key }?.record
        }
    }

    func scans(of userID: UUID, after cursor: PageCursor?, limit: Int) async throws -> ScanPage {
        try state.withLock { state in
            if let failure = state.failure { throw failure }
            let newestFirst = state.scans.values.map(\.record).filter { $0.userID == userID }
                .sorted { ($0.createdAt, $0.id.uuidString) > ($1.createdAt, $1.id.uuidString) }
            let start = cursor.flatMap { cursor in newestFirst.firstIndex { $0.id == cursor.id }.map { $0 + 1 } } ?? 0
            let rest = newestFirst[start...]
            let page = Array(rest.prefix(limit))
            let next =
                rest.count > limit
                ? page.last.map { PageCursor(createdAtMicroseconds: Int64($0.createdAt.timeIntervalSince1970 * 1_000_000), id: $0.id) } : nil
            return ScanPage(scans: page, next: next)
        }
    }

    func delete(_ id: UUID, of userID: UUID, quotaKey: Data) async throws -> ScanDeletion {
        try state.withLock { state in
            if let failure = state.failure { throw failure }
            guard let stored = state.scans[id], stored.record.userID == userID else { return .notFound }
            switch stored.record.state {
            case .running: return .running
            case .succeeded: state.carried[Self.key(stored.quotaKey, stored.day), default: 0] += 1
            case .queued, .failed: break
            }
            state.scans[id] = nil
            return stored.record.state == .queued ? .cancelled : .deleted
        }
    }

    func failOverdue(grace: Duration) async throws -> [UUID] {
        let overdue = state.withLock { state in
            state.scans.values.filter { $0.record.outcome == nil && $0.record.deadline < Date().addingTimeInterval(-grace.seconds) }.map(\.record.id)
        }
        var failed: [UUID] = []
        for id in overdue where try await fail(id, code: .scanTimeout) { failed.append(id) }
        return failed
    }

    func countOpenByState() async throws -> [ScanState: Int] {
        state.withLock { state in
            Dictionary(grouping: state.scans.values.filter(\.record.state.isOpen), by: \.record.state).mapValues(\.count)
        }
    }

    func oldestQueued() async throws -> Date? {
        state.withLock { state in state.scans.values.filter { $0.record.state == .queued }.map(\.record.createdAt).min() }
    }

    func deleteScans(of userID: UUID, quotaKey: Data, today: String) async throws {
        try state.withLock { state in
            if let failure = state.failure { throw failure }
            let charged = state.scans.values.filter { $0.record.userID == userID && $0.day == today && $0.record.state != .failed }.count
            state.carried[Self.key(quotaKey, today), default: 0] += charged
            state.scans = state.scans.filter { $0.value.record.userID != userID }
        }
    }

    func purge(olderThan retention: Duration, today: String) async throws -> Int {
        try state.withLock { state in
            if let failure = state.failure { throw failure }
            let cutoff = Date().addingTimeInterval(-retention.seconds)
            let purged = state.scans.filter { $0.value.record.createdAt < cutoff && $0.value.day < today }.map(\.key)
            for id in purged { state.scans[id] = nil }
            return purged.count
        }
    }

    private func transition(_ id: UUID, to change: (ScanRecord) -> ScanRecord) throws -> Bool {
        try state.withLock { state in
            if let failure = state.failure { throw failure }
            guard let stored = state.scans[id], stored.record.outcome == nil else { return false }
            state.scans[id]?.record = change(stored.record)
            return true
        }
    }

    private static func usage(of quotaKey: Data, on day: String, in state: State) -> DailyUsage {
        let scans = state.scans.values.filter { $0.quotaKey == quotaKey && $0.day == day && $0.record.state != .failed }.count
        return DailyUsage(
            scans: scans + state.carried[key(quotaKey, day), default: 0],
            tokens: state.tokens[key(quotaKey, day), default: 0],
            everyonesSpendNanos: state.spend[day, default: 0]
        )
    }

    private static func key(_ quotaKey: Data, _ day: String) -> String { quotaKey.hexEncodedString + day }
}
