import Foundation
import KiwiModels
import KiwiScans
import Testing

@testable import KiwiGateway

/// How the ledger prices refinements (docs/architecture.md, "Refinements"), fake and PostgreSQL alike: the first
/// ``QuotaPolicy/freeRefinements`` of a photo scan's chain that are not `failed` are free, later ones count as scans.
@Suite("Scan ledger: refinements, fake and PostgreSQL", .timeLimit(.minutes(2)))
struct RefinementLedgerTests {
    static let policy = QuotaPolicy(limit: 4)

    /// A succeeded photo scan of `user`, whose quota key is `person`.
    func succeededScan(
        of person: Data,
        user: UUID,
        in ledger: any ScanLedger,
        _ rig: any LedgerRig,
        mode: ScanMode = .fridge
    ) async throws
        -> ScanRecord
    {
        guard case .reserved(let scan) = try await ledger.reserve(newScan(person, user: user), policy: Self.policy) else {
            throw CancellationError()
        }
        _ = try await rig.start(scan.id)
        _ = try await rig.succeed(scan.id, result: ScanResponse(ingredients: [], recipes: [], mode: mode), usage: nil)
        return scan
    }

    /// A refinement of `parent` by `user` with `names`.
    func refinement(of parent: UUID, _ person: Data, user: UUID, key: String? = nil, names: [String] = ["leeks"]) -> QueuedScan {
        let refinement = QueuedScan.Refinement(parentID: parent, ingredients: names)
        return QueuedScan(
            userID: user,
            quotaKey: person,
            day: ScanLedgerTests.day,
            idempotencyKey: key,
            photoSHA256: RefinementRequest.digest(of: refinement),
            deadline: Date().addingTimeInterval(90),
            refinement: refinement
        )
    }

    /// Reserves a refinement that must be granted, and ends it as `succeeded` (or `failed`).
    func refine(
        _ parent: UUID,
        _ person: Data,
        user: UUID,
        in ledger: any ScanLedger,
        _ rig: any LedgerRig,
        failing: Bool = false
    ) async throws
        -> ScanRecord
    {
        guard case .reserved(let scan) = try await ledger.reserve(refinement(of: parent, person, user: user), policy: Self.policy) else {
            throw CancellationError()
        }
        _ = try await rig.start(scan.id)
        if failing {
            _ = try await rig.fail(scan.id, ScanFailure(.invalidModelResponse, ""), usage: nil)
        } else {
            _ = try await rig.succeed(scan.id, result: ScanResponse(ingredients: [], recipes: []), usage: nil)
        }
        return scan
    }

    func used(_ person: Data, _ ledger: any ScanLedger) async throws -> Int {
        try await ledger.usage(of: person, on: ScanLedgerTests.day).scans
    }

    @Test("two refinements of a chain are free, the third counts, and each names its parent", arguments: StoreKind.allCases)
    func twoFreeThenCounted(_ kind: StoreKind) async throws {
        try await withLedger(kind) { ledger, rig in
            let (person, user) = (newQuotaKey(), UUID())
            let photo = try await succeededScan(of: person, user: user, in: ledger, rig)
            let first = try await refine(photo.id, person, user: user, in: ledger, rig)
            let second = try await refine(first.id, person, user: user, in: ledger, rig)
            #expect(try await used(person, ledger) == 1)
            _ = try await refine(photo.id, person, user: user, in: ledger, rig)
            #expect(try await used(person, ledger) == 2)
            #expect(first.parentID == photo.id)
            #expect(second.parentID == first.id)
            #expect(try await ledger.scan(photo.id, of: user)?.parentID == nil)
        }
    }

    @Test("a failed refinement is not counted and gives its free refinement back", arguments: StoreKind.allCases)
    func failedRefinementIsFree(_ kind: StoreKind) async throws {
        try await withLedger(kind) { ledger, rig in
            let (person, user) = (newQuotaKey(), UUID())
            let photo = try await succeededScan(of: person, user: user, in: ledger, rig)
            _ = try await refine(photo.id, person, user: user, in: ledger, rig, failing: true)
            _ = try await refine(photo.id, person, user: user, in: ledger, rig)
            _ = try await refine(photo.id, person, user: user, in: ledger, rig)
            #expect(try await used(person, ledger) == 1)
        }
    }

    @Test("a free refinement is granted with the day's scans used up; a counted one is refused", arguments: StoreKind.allCases)
    func freeBeyondTheLimit(_ kind: StoreKind) async throws {
        try await withLedger(kind) { ledger, rig in
            let (person, user) = (newQuotaKey(), UUID())
            let photo = try await succeededScan(of: person, user: user, in: ledger, rig)
            for _ in 0..<3 { _ = try await ledger.reserve(newScan(person, user: user), policy: Self.policy) }
            _ = try await refine(photo.id, person, user: user, in: ledger, rig)
            _ = try await refine(photo.id, person, user: user, in: ledger, rig)
            let third = try await ledger.reserve(refinement(of: photo.id, person, user: user), policy: Self.policy)
            #expect(third == .refused(.scans))
        }
    }

    @Test("two refinements reserved at once for the last free refinement: one is free, the other counts", arguments: StoreKind.allCases)
    func concurrentLastFreeRefinement(_ kind: StoreKind) async throws {
        try await withLedger(kind) { ledger, rig in
            let (person, user) = (newQuotaKey(), UUID())
            let photo = try await succeededScan(of: person, user: user, in: ledger, rig)
            _ = try await refine(photo.id, person, user: user, in: ledger, rig)
            let outcomes = try await withThrowingTaskGroup(of: ScanReservation.self) { group in
                for names in [["leeks"], ["eggs"]] {
                    group.addTask { try await ledger.reserve(refinement(of: photo.id, person, user: user, names: names), policy: Self.policy) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(outcomes.allSatisfy { if case .reserved = $0 { true } else { false } })
            #expect(try await used(person, ledger) == 2)
        }
    }

    @Test("a refinement of another user's scan or of none is noParent", arguments: StoreKind.allCases)
    func noParent(_ kind: StoreKind) async throws {
        try await withLedger(kind) { ledger, rig in
            let (person, user) = (newQuotaKey(), UUID())
            let photo = try await succeededScan(of: person, user: user, in: ledger, rig)
            #expect(try await ledger.reserve(refinement(of: photo.id, person, user: UUID()), policy: Self.policy) == .noParent)
            #expect(try await ledger.reserve(refinement(of: UUID(), person, user: user), policy: Self.policy) == .noParent)
        }
    }

    @Test("a refinement of an open, a failed or a dish scan is notRefinable", arguments: StoreKind.allCases)
    func notRefinable(_ kind: StoreKind) async throws {
        try await withLedger(kind) { ledger, rig in
            let (person, user) = (newQuotaKey(), UUID())
            let scans = try await reserveScans(2, of: person, user: user, in: ledger)
            _ = try await rig.fail(scans[1].id, ScanFailure(.invalidModelResponse, ""), usage: nil)
            let dish = try await succeededScan(of: person, user: user, in: ledger, rig, mode: .dish)
            for parent in [scans[0].id, scans[1].id, dish.id] {
                #expect(try await ledger.reserve(refinement(of: parent, person, user: user), policy: Self.policy) == .notRefinable)
            }
        }
    }

    @Test("a refinement's key replays it; with other names the key is reused", arguments: StoreKind.allCases)
    func replay(_ kind: StoreKind) async throws {
        try await withLedger(kind) { ledger, rig in
            let (person, user) = (newQuotaKey(), UUID())
            let photo = try await succeededScan(of: person, user: user, in: ledger, rig)
            let first = try await ledger.reserve(refinement(of: photo.id, person, user: user, key: "k"), policy: Self.policy)
            guard case .reserved(let scan) = first else { throw CancellationError() }
            #expect(try await ledger.reserve(refinement(of: photo.id, person, user: user, key: "k"), policy: Self.policy) == .replay(scan))
            #expect(
                try await ledger.reserve(refinement(of: photo.id, person, user: user, key: "k", names: ["eggs"]), policy: Self.policy) == .keyReused
            )
        }
    }

    @Test("deleting a free refinement moves no charge, and deleting the account carries only counted scans", arguments: StoreKind.allCases)
    func deletionCarriesNoFreeRefinement(_ kind: StoreKind) async throws {
        try await withLedger(kind) { ledger, rig in
            let (person, user) = (newQuotaKey(), UUID())
            let photo = try await succeededScan(of: person, user: user, in: ledger, rig)
            let free = try await refine(photo.id, person, user: user, in: ledger, rig)
            _ = try await refine(photo.id, person, user: user, in: ledger, rig)
            #expect(try await ledger.delete(free.id, of: user, quotaKey: person) == .deleted)
            #expect(try await used(person, ledger) == 1)
            try await ledger.deleteScans(of: user, quotaKey: person, today: ScanLedgerTests.day)
            #expect(try await used(person, ledger) == 1)
        }
    }
}
