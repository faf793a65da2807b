import Foundation
import KiwiConcurrency
import KiwiModels
import KiwiScanStore
import KiwiScans
import Synchronization

@testable import KiwiGateway

/// The scan ledger in memory, with the real one's rules: reservations are all-or-nothing per person, idempotency
/// keys are per user, and only open scans change state. `ScanLedgerTests` runs the same cases against it and against
/// ``PostgresScanLedger``, so the two keep to one behaviour.
final class FakeScanLedger: ScanLedger {
    private struct Stored {
        var record: ScanRecord
        let quotaKey: Data
        let day: String
        var idempotencyKey: String?
        /// A refinement's chain: the photo scan at its start.
        var rootID: UUID?
        /// A free refinement, or a scan included in another's price: it counts against no allowance.
        var free = false
        /// Its photos' key, while it is open.
        var photoKey: PhotoKey?
        /// What its photos show, as reserved.
        var mode = ScanMode.fridge

        /// Whether it counts as one of the day's scans: not failed, and not free.
        var charged: Bool { record.state != .failed && !free }
    }

    /// A person's day, which charges outside the ledger and model tokens count under (`scan_usage`'s key).
    private struct PersonDay: Hashable {
        let quotaKey: Data
        let day: String
    }

    private struct State {
        var scans: [UUID: Stored] = [:]
        /// Charges outside the ledger (as from a deleted account).
        var carried: [PersonDay: Int] = [:]
        /// Model tokens spent.
        var tokens: [PersonDay: Int] = [:]
        /// What everyone's scans cost, by day, in nano-dollars.
        var spend: [String: Int64] = [:]
        var failure: (any Error & Sendable)?
        var reads = 0
        /// How many partials the reads by id handed out.
        var partialsRead = 0
        var failedReads = 0
        /// Each scan as it was last read by id.
        var lastRead: [UUID: ScanRecord] = [:]
    }

    private let state = Mutex(State())

    /// Whether scan `id` is `queued` or `running`.
    func isOpen(_ id: UUID) -> Bool {
        state.withLock { $0.scans[id]?.record.state.isOpen ?? false }
    }

    /// Sets the charges `quotaKey` has on `day` besides its scans (as from a deleted account).
    func setCarried(_ count: Int, by quotaKey: Data, on day: String) {
        state.withLock { $0.carried[PersonDay(quotaKey: quotaKey, day: day)] = count }
    }

    /// Sets the model tokens `quotaKey`'s scans spent on `day`, and what everyone's cost, as workers count them.
    func setSpent(tokens: Int, by quotaKey: Data, everyonesNanos: Int64 = 0, on day: String) {
        state.withLock { state in
            state.tokens[PersonDay(quotaKey: quotaKey, day: day)] = tokens
            state.spend[day] = everyonesNanos
        }
    }

    /// Makes every call fail with `error` (nil: work again).
    func fail(with error: (any Error & Sendable)?) {
        state.withLock { $0.failure = error }
    }

    /// How many times a scan was read by id: a test waits on it to know a follower has looked.
    var reads: Int { state.withLock { $0.reads } }

    /// How many partials the reads of scans by id handed out, in all.
    var partialsRead: Int { state.withLock { $0.partialsRead } }

    /// Whether scan `id` was last read by id as it is now: a test waits on it to know a follower has seen every change
    /// made so far, however many a worker made in a row.
    func wasReadAsItIs(_ id: UUID) -> Bool {
        state.withLock { $0.lastRead[id] != nil && $0.lastRead[id] == $0.scans[id]?.record }
    }

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
            var rootID: UUID?
            var free = scan.free
            if let refinement = scan.refinement {
                guard let parent = state.scans[refinement.parentID], parent.record.userID == scan.userID else { return .noParent }
                guard parent.record.state == .succeeded, parent.record.result?.mode ?? .fridge == .fridge, !(parent.free && parent.rootID == nil)
                else {
                    return .notRefinable
                }
                let root = parent.rootID ?? refinement.parentID
                rootID = root
                free = state.scans.values.filter { $0.rootID == root && $0.free && $0.record.state != .failed }.count < policy.freeRefinements
            }
            if let refusal = policy.refusal(after: Self.usage(of: scan.quotaKey, on: scan.day, in: state), free: free) { return .refused(refusal) }
            let record = ScanRecord(
                id: scan.id,
                userID: scan.userID,
                state: .queued,
                errorCode: nil,
                photoSHA256: scan.photoSHA256,
                deadline: scan.deadline,
                createdAt: Date(),
                result: nil,
                parentID: scan.refinement?.parentID
            )
            state.scans[scan.id] = Stored(
                record: record,
                quotaKey: scan.quotaKey,
                day: scan.day,
                idempotencyKey: scan.idempotencyKey,
                rootID: rootID,
                free: free,
                photoKey: scan.photoKey,
                mode: scan.mode
            )
            return .reserved(record)
        }
    }

    /// What a worker does when it takes a scan (``ScanTransitionStore/start(_:)``): an open scan becomes `running`.
    func start(_ id: UUID) throws -> ScanClaim {
        try state.withLock { state in
            if let failure = state.failure { throw failure }
            guard let stored = state.scans[id] else { return .missing }
            guard stored.record.state.isOpen else { return .finished(stored.record.state) }
            state.scans[id]?.record = ScanRecord(copying: stored.record, state: .running, errorCode: nil)
            return .started(shown: StoredPartial.shown(stored.record.partials).map(\.partial), photoKey: stored.photoKey)
        }
    }

    /// What a worker does when it shows an element of its answer (``ScanTransitionStore/show(_:of:)``): a running scan
    /// holding fewer than its most partials stores one no larger than the largest. Its sequence number; nil for any other.
    func show(_ partial: ScanPartial, of id: UUID) throws -> Int? {
        let size = try KiwiJSON.encoder().encode(partial).count
        return try state.withLock { state in
            if let failure = state.failure { throw failure }
            guard let record = state.scans[id]?.record, record.state == .running, record.partialCount < ScanTransitionStore.mostPartials,
                size <= ScanTransitionStore.largestPartial
            else { return nil }
            let seq = record.partialCount + 1
            state.scans[id]?.record.partials.append(StoredPartial(seq: seq, partial: partial, acceptedAt: Date()))
            state.scans[id]?.record.partialCount = seq
            return seq
        }
    }

    /// What a worker does with its answer (``ScanTransitionStore/succeed(_:result:usage:)``). False when the scan was
    /// no longer open; the model's cost counts all the same.
    func succeed(_ id: UUID, result: ScanResponse, usage: ModelUsage?) throws -> Bool {
        try end(id, as: .succeeded, result: result, modelTime: usage?.modelTime, usage: usage)
    }

    /// What a worker does when the scan fails (``ScanTransitionStore/fail(_:_:usage:)``). False when the scan was no
    /// longer open; the model's cost counts all the same.
    func fail(_ id: UUID, _ reason: ScanFailure, usage: ModelUsage?) throws -> Bool {
        try end(id, as: .failed, reason: reason, modelTime: usage?.modelTime, usage: usage)
    }

    /// What a worker does with `outcome`, the model having taken `modelTime`: an open scan becomes final. False for
    /// any other.
    func finish(_ id: UUID, with outcome: ScanOutcome, modelTime: Duration?) throws -> Bool {
        switch outcome {
        case .ok(let response): try end(id, as: .succeeded, result: response, modelTime: modelTime, usage: nil)
        case .error(let reason): try end(id, as: .failed, reason: reason, modelTime: modelTime, usage: nil)
        }
    }

    func fail(_ id: UUID, code: ScanFailure.Code) async throws -> Bool {
        try end(id, as: .failed, reason: ScanFailure(code, ""), modelTime: nil, usage: nil)
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

    func scan(_ id: UUID, of userID: UUID, partialsAfter seen: Int) async throws -> ScanRecord? {
        try state.withLock { state in
            if let failure = state.failure {
                state.failedReads += 1
                throw failure
            }
            state.reads += 1
            state.lastRead[id] = state.scans[id]?.record
            guard var record = state.scans[id]?.record, record.userID == userID else { return nil }
            record.partials.removeAll { $0.seq <= seen }
            state.partialsRead += record.partials.count
            return record
        }
    }

    func scan(idempotencyKey key: String, of userID: UUID) async throws -> ScanRecord? {
        try state.withLock { state in
            if let failure = state.failure { throw failure }
            return state.scans.values.first { $0.record.userID == userID && $0.idempotencyKey == key }?.record
        }
    }

    func scans(of userID: UUID, modes: [ScanMode], after cursor: PageCursor?, limit: Int) async throws -> ScanPage {
        try state.withLock { state in
            if let failure = state.failure { throw failure }
            let own = state.scans.values.filter { $0.record.userID == userID && modes.contains($0.mode) }.map(\.record)
            let page = PageCursor.page(of: own, after: cursor, limit: limit, createdAt: \.createdAt, id: \.id)
            return ScanPage(scans: page.items, next: page.next)
        }
    }

    func correct(_ correction: ReceiptLineCorrection, ofLine lineID: UUID, inScan id: UUID, of userID: UUID) async throws -> ScanRecord? {
        try state.withLock { state in
            if let failure = state.failure { throw failure }
            guard let stored = state.scans[id], stored.record.userID == userID, stored.record.state == .succeeded,
                var result = stored.record.result, let receipt = result.receipt.flatMap({ correction.applied(to: $0, line: lineID) })
            else { return nil }
            result.receipt = receipt
            let record = ScanRecord(copying: stored.record, state: .succeeded, errorCode: nil, result: result)
            state.scans[id]?.record = record
            return record
        }
    }

    func delete(_ id: UUID, of userID: UUID, quotaKey: Data) async throws -> ScanDeletion {
        try state.withLock { state in
            if let failure = state.failure { throw failure }
            guard let stored = state.scans[id], stored.record.userID == userID else { return .notFound }
            switch stored.record.state {
            case .running: return .running
            case .succeeded where !stored.free: state.carried[PersonDay(quotaKey: stored.quotaKey, day: stored.day), default: 0] += 1
            case .succeeded: break
            case .queued, .failed: break
            }
            state.scans[id] = nil
            return stored.record.state == .queued ? .cancelled : .deleted
        }
    }

    func failOverdue(grace: Duration) async throws -> [UUID] {
        let overdue = state.withLock { state in
            state.scans.values.filter { $0.record.state.isOpen && $0.record.deadline < Date().addingTimeInterval(-grace.seconds) }.map(\.record.id)
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
            let charged = state.scans.values.filter { $0.record.userID == userID && $0.day == today && $0.charged }.count
            state.carried[PersonDay(quotaKey: quotaKey, day: today), default: 0] += charged
            state.scans = state.scans.filter { $0.value.record.userID != userID }
        }
    }

    func purge(olderThan retention: Duration, today: String) async throws -> Int {
        try state.withLock { state in
            if let failure = state.failure { throw failure }
            let cutoff = Date().addingTimeInterval(-retention.seconds)
            for (id, stored) in state.scans where stored.record.createdAt < cutoff {
                state.scans[id]?.record = Self.record(stored.record, createdAt: stored.record.createdAt, result: nil)
            }
            state.carried = state.carried.filter { $0.key.day >= today }
            state.tokens = state.tokens.filter { $0.key.day >= today }
            let purged = state.scans.filter { $0.value.record.createdAt < cutoff && $0.value.day < today }.map(\.key)
            for id in purged { state.scans[id] = nil }
            return purged.count
        }
    }

    /// Moves the creation time of scans `ids` to `date`, as if they had been reserved then.
    func setCreated(_ ids: [UUID], at date: Date) {
        state.withLock { state in
            for id in ids {
                if let stored = state.scans[id] {
                    state.scans[id]?.record = Self.record(stored.record, createdAt: date, result: stored.record.result)
                }
            }
        }
    }

    /// Ends an open scan as `final`, and counts what the model cost whatever becomes of it, as
    /// ``ScanTransitionStore`` does: everyone's spend of today (UTC), and the person's tokens of the scan's day.
    private func end(
        _ id: UUID,
        as final: ScanState,
        result: ScanResponse? = nil,
        reason: ScanFailure? = nil,
        modelTime: Duration?,
        usage: ModelUsage?
    ) throws -> Bool {
        try state.withLock { state in
            if let failure = state.failure { throw failure }
            if let usage, usage.tokens.total > 0 {
                state.spend[QuotaPolicy.utcDay(of: Date()), default: 0] += usage.costNanos
                if let stored = state.scans[id] {
                    state.tokens[PersonDay(quotaKey: stored.quotaKey, day: stored.day), default: 0] += usage.tokens.total
                }
            }
            guard let stored = state.scans[id], stored.record.state.isOpen else { return false }
            var ended = ScanRecord(copying: stored.record, state: final, errorCode: reason?.code, result: result)
            ended.errorMessage = reason?.message ?? ""
            ended.modelTime = modelTime
            ended.retryAfterSeconds = reason?.retryAfterSeconds
            state.scans[id]?.record = ended
            return true
        }
    }

    /// `record` created at `createdAt` with `result`, all else kept.
    private static func record(_ record: ScanRecord, createdAt: Date, result: ScanResponse?) -> ScanRecord {
        ScanRecord(
            id: record.id,
            userID: record.userID,
            state: record.state,
            errorCode: record.errorCode,
            errorMessage: record.errorMessage,
            photoSHA256: record.photoSHA256,
            deadline: record.deadline,
            createdAt: createdAt,
            result: result,
            modelTime: record.modelTime,
            retryAfterSeconds: record.retryAfterSeconds,
            partials: record.partials,
            partialCount: record.partialCount,
            parentID: record.parentID
        )
    }

    private static func usage(of quotaKey: Data, on day: String, in state: State) -> DailyUsage {
        let scans = state.scans.values.filter { $0.quotaKey == quotaKey && $0.day == day && $0.charged }.count
        let personDay = PersonDay(quotaKey: quotaKey, day: day)
        return DailyUsage(
            scans: scans + state.carried[personDay, default: 0],
            tokens: state.tokens[personDay, default: 0],
            everyonesSpendNanos: state.spend[day, default: 0]
        )
    }
}
