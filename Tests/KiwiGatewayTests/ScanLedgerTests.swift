import Foundation
import KiwiDatabase
import KiwiModels
import KiwiScanStore
import KiwiScans
import KiwiTestSupport
import PostgresNIO
import Testing

@testable import KiwiGateway

/// A scan ledger as a case drives it: the port itself, what a scan worker does to the scans, and what a test does
/// to them directly.
protocol LedgerRig: Sendable {
    var ledger: any ScanLedger { get }
    /// A worker takes the scan (``ScanTransitionStore/start(_:)``).
    func start(_ id: UUID) async throws -> ScanClaim
    /// A worker records the scan's answer (``ScanTransitionStore/succeed(_:result:usage:)``).
    func succeed(_ id: UUID, result: ScanResponse, usage: ModelUsage?) async throws -> Bool
    /// A worker fails the scan (``ScanTransitionStore/fail(_:_:usage:)``).
    func fail(_ id: UUID, _ reason: ScanFailure, usage: ModelUsage?) async throws -> Bool
    /// A worker shows an element of the scan's answer (``ScanTransitionStore/show(_:of:)``).
    func show(_ partial: ScanPartial, of id: UUID) async throws -> Int?
    /// Moves the creation time of scans `ids` to `date`, as if they had been reserved then.
    func setCreated(_ ids: [UUID], at date: Date) async throws
    /// How many scans of `userID` are kept, in any state.
    func storedScans(of userID: UUID) async throws -> Int
}

extension FakeScanLedger: LedgerRig {
    var ledger: any ScanLedger { self }

    func storedScans(of userID: UUID) -> Int {
        records.filter { $0.userID == userID }.count
    }
}

/// ``PostgresScanLedger`` and a worker's ``ScanTransitionStore`` on one database.
struct PostgresLedgerRig: LedgerRig {
    let client: PostgresClient

    // Generous: 1,000 reservations of one person queue on one lock on this 2-core machine.
    var ledger: any ScanLedger { PostgresScanLedger(client: client, logger: testLogger, timeout: .seconds(60)) }

    var transitions: ScanTransitionStore { ScanTransitionStore(client: client, logger: testLogger) }

    func start(_ id: UUID) async throws -> ScanClaim {
        try await transitions.start(id)
    }

    func succeed(_ id: UUID, result: ScanResponse, usage: ModelUsage?) async throws -> Bool {
        try await transitions.succeed(id, result: result, usage: usage)
    }

    func fail(_ id: UUID, _ reason: ScanFailure, usage: ModelUsage?) async throws -> Bool {
        try await transitions.fail(id, reason, usage: usage)
    }

    func show(_ partial: ScanPartial, of id: UUID) async throws -> Int? {
        try await transitions.show(partial, of: id)
    }

    func setCreated(_ ids: [UUID], at date: Date) async throws {
        try await client.execute("UPDATE scans SET created_at = \(date) WHERE id = ANY(\(ids))", logger: testLogger)
    }

    func storedScans(of userID: UUID) async throws -> Int {
        let rows = try await client.query("SELECT count(*) FROM scans WHERE user_id = \(userID)", logger: testLogger)
        for try await count in rows.decode(Int.self) { return count }
        return 0
    }
}

/// Runs `body` with a scan ledger of `kind` of its own.
func withLedger<Result: Sendable>(_ kind: StoreKind, _ body: @Sendable (any ScanLedger, any LedgerRig) async throws -> Result) async throws -> Result
{
    let rigs = PortImplementations<any LedgerRig>(fake: { FakeScanLedger() }, postgres: { PostgresLedgerRig(client: $0) })
    return try await rigs.with(kind) { rig in try await body(rig.ledger, rig) }
}

/// Reserves `count` scans of `person`, of `user`, each allowed.
func reserveScans(_ count: Int, of person: Data, user: UUID = UUID(), in ledger: any ScanLedger) async throws -> [ScanRecord] {
    var scans: [ScanRecord] = []
    for _ in 0..<count {
        guard case .reserved(let scan) = try await ledger.reserve(newScan(person, user: user), policy: QuotaPolicy(limit: count)) else {
            throw CancellationError()
        }
        scans.append(scan)
    }
    return scans
}

/// A person's quota key, as the auth service derives it (32 bytes).
func newQuotaKey() -> Data {
    Data((0..<32).map { _ in UInt8.random(in: 0...255) })
}

/// A scan of `quotaKey`'s user on `day`, due `deadline` seconds from now.
func newScan(
    _ quotaKey: Data,
    user: UUID = UUID(),
    day: String = ScanLedgerTests.day,
    key: String? = nil,
    photo: UInt8 = 1,
    deadline: Double = 90,
    mode: ScanMode = .fridge
)
    -> QueuedScan
{
    QueuedScan(
        userID: user,
        quotaKey: quotaKey,
        day: day,
        idempotencyKey: key,
        photoSHA256: Data(repeating: photo, count: 32),
        deadline: Date().addingTimeInterval(deadline),
        mode: mode
    )
}

/// Detected ingredients, as a worker shows them.
func shownIngredients(_ names: String...) -> ScanPartial {
    .ingredients(names.map { Ingredient(id: UUID(), name: $0, category: "vegetable", confidence: 0.9) })
}

/// Recipe `index` since the last restart, named `name`, as a worker shows it.
func shownRecipe(_ index: Int, _ name: String, steps: Int = 3) -> ScanPartial {
    .recipe(
        index: index,
        Recipe(
            id: UUID(),
            name: name,
            summary: "A quick \(name.lowercased()).",
            cookTimeMinutes: 15,
            difficulty: .easy,
            ingredients: [RecipeIngredient(id: UUID(), name: "leeks", isDetected: true, substitution: nil)],
            steps: (1...steps).map { "Step \($0)." },
            makeItFasterTip: nil,
            allergens: []
        )
    )
}

/// What a worker's model call cost.
func modelUsage(costNanos: Int64, modelTime: Duration) -> ModelUsage {
    ModelUsage(
        model: "gpt-4o-2024-08-06",
        route: "gpt-4o",
        tokens: TokenUsage(promptTokens: 900, completionTokens: 300),
        costNanos: costNanos,
        attempts: 1,
        modelTime: modelTime
    )
}

/// The scan ledger, each case against ``FakeScanLedger`` and against ``PostgresScanLedger``: reservations, the state
/// machine's compare-and-set, the sweeper, account deletion and retention.
@Suite("Scan ledger, fake and PostgreSQL", .timeLimit(.minutes(2)))
struct ScanLedgerTests {
    static let day = "2026-11-22"
    var day: String { Self.day }

    @Test("scans are reserved up to the limit, then refused", arguments: StoreKind.allCases)
    func reservesUpToLimit(_ kind: StoreKind) async throws {
        let (outcomes, used) = try await withLedger(kind) { ledger, _ in
            let person = newQuotaKey()
            var outcomes: [Bool] = []
            for _ in 0..<5 {
                if case .reserved = try await ledger.reserve(newScan(person), policy: QuotaPolicy(limit: 4)) {
                    outcomes.append(true)
                } else {
                    outcomes.append(false)
                }
            }
            return (outcomes, try await ledger.usage(of: person, on: day).scans)
        }
        #expect(outcomes == [true, true, true, true, false])
        #expect(used == 4)
    }

    @Test(
        "a scan included in another's price is granted with the day's scans used up, counts in none, and meets the token limit",
        arguments: StoreKind.allCases
    )
    func freeScanCountsInNoAllowance(_ kind: StoreKind) async throws {
        try await withLedger(kind) { ledger, rig in
            let (person, user) = (newQuotaKey(), UUID())
            let policy = QuotaPolicy(limit: 1, tokenLimit: 100)
            guard case .reserved = try await ledger.reserve(newScan(person, user: user), policy: policy) else { throw CancellationError() }
            let base = newScan(person, user: user, photo: 2)
            func free() -> QueuedScan {
                QueuedScan(
                    userID: user,
                    quotaKey: person,
                    day: base.day,
                    idempotencyKey: nil,
                    photoSHA256: base.photoSHA256,
                    deadline: base.deadline,
                    free: true
                )
            }
            guard case .reserved(let meal) = try await ledger.reserve(free(), policy: policy) else {
                Issue.record("a free scan was refused with the allowance spent")
                return
            }
            #expect(try await ledger.reserve(newScan(person, user: user), policy: policy) == .refused(.scans))
            _ = try await rig.start(meal.id)
            let usage = ModelUsage(
                model: "gpt-4o",
                route: "openai",
                tokens: TokenUsage(promptTokens: 90, completionTokens: 20),
                costNanos: 1_000,
                attempts: 1,
                modelTime: .milliseconds(5)
            )
            _ = try await rig.succeed(meal.id, result: ScanResponse(ingredients: [], recipes: []), usage: usage)
            #expect(try await ledger.usage(of: person, on: ScanLedgerTests.day).scans == 1)
            let refinement = QueuedScan.Refinement(parentID: meal.id, ingredients: ["rice"])
            let refining = QueuedScan(
                userID: user,
                quotaKey: person,
                day: base.day,
                idempotencyKey: nil,
                photoSHA256: RefinementRequest.digest(of: refinement),
                deadline: base.deadline,
                refinement: refinement
            )
            #expect(try await ledger.reserve(refining, policy: QuotaPolicy(limit: 4)) == .notRefinable, "no free refinements of a free scan")
            #expect(try await ledger.reserve(free(), policy: policy) == .refused(.tokens))
        }
    }

    @Test("1,000 simultaneous reservations of one person grant exactly the limit", arguments: StoreKind.allCases)
    func concurrentReservations(_ kind: StoreKind) async throws {
        let (granted, used) = try await withLedger(kind) { ledger, _ in
            let person = newQuotaKey()
            let user = UUID()
            let granted = try await withThrowingTaskGroup(of: Bool.self) { group in
                for _ in 0..<1000 {
                    group.addTask {
                        if case .reserved = try await ledger.reserve(newScan(person, user: user), policy: QuotaPolicy(limit: 4)) { return true }
                        return false
                    }
                }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            return (granted, try await ledger.usage(of: person, on: day).scans)
        }
        #expect(granted == 4)
        #expect(used == 4)
    }

    @Test("a failed scan is refunded once: failing it again, or a worker's late answer, changes nothing", arguments: StoreKind.allCases)
    func failIsFinal(_ kind: StoreKind) async throws {
        let (changes, used, state) = try await withLedger(kind) { ledger, rig in
            let person = newQuotaKey()
            guard case .reserved(let scan) = try await ledger.reserve(newScan(person), policy: QuotaPolicy(limit: 4)) else {
                throw CancellationError()
            }
            let changes = [
                try await ledger.fail(scan.id, code: .llmUnavailable), try await ledger.fail(scan.id, code: .scanTimeout),
                try await rig.succeed(scan.id, result: ScanResponse(ingredients: [], recipes: []), usage: nil),
            ]
            let record = try await ledger.scan(scan.id, of: scan.userID)
            return (changes, try await ledger.usage(of: person, on: day).scans, record.map { "\($0.state) \($0.errorCode?.rawValue ?? "")" })
        }
        #expect(changes == [true, false, false])
        #expect(used == 0)
        #expect(state == "failed llm_unavailable")
    }

    @Test(
        "a succeeded scan keeps its result, model time and charge: a second worker's answer or a failure changes nothing",
        arguments: StoreKind.allCases
    )
    func succeedIsFinal(_ kind: StoreKind) async throws {
        let answer = ScanResponse(ingredients: [], recipes: [])
        let usage = modelUsage(costNanos: 5_250_000, modelTime: .milliseconds(2500))
        let (changes, used, record) = try await withLedger(kind) { ledger, rig in
            let person = newQuotaKey()
            guard case .reserved(let scan) = try await ledger.reserve(newScan(person), policy: QuotaPolicy(limit: 4)) else {
                throw CancellationError()
            }
            let changes = [
                try await rig.succeed(scan.id, result: answer, usage: usage), try await rig.succeed(scan.id, result: answer, usage: usage),
                try await ledger.fail(scan.id, code: .scanTimeout),
            ]
            return (changes, try await ledger.usage(of: person, on: day).scans, try await ledger.scan(scan.id, of: scan.userID))
        }
        #expect(changes == [true, false, false])
        #expect(used == 1)
        #expect(record?.state == .succeeded)
        #expect(record?.result == answer)
        #expect(record?.modelTime == .milliseconds(2500))
    }

    @Test("a worker's failure keeps its sentence for the client and when trying again may help", arguments: StoreKind.allCases)
    func workerFailureKeepsItsWords(_ kind: StoreKind) async throws {
        let record = try await withLedger(kind) { ledger, rig in
            guard case .reserved(let scan) = try await ledger.reserve(newScan(newQuotaKey()), policy: QuotaPolicy(limit: 4)) else {
                throw CancellationError()
            }
            _ = try await rig.fail(scan.id, ScanFailure(.llmUnavailable, "The model is busy.", retryAfterSeconds: 30), usage: nil)
            return try await ledger.scan(scan.id, of: scan.userID)
        }
        #expect(record?.errorCode == .llmUnavailable)
        #expect(record?.errorMessage == "The model is busy.")
        #expect(record?.retryAfterSeconds == 30)
    }

    @Test("a reservation is refused once the person's tokens or everyone's spend of the day reach their caps", arguments: StoreKind.allCases)
    func refusesPastTokenAndSpendCaps(_ kind: StoreKind) async throws {
        let today = QuotaPolicy.utcDay(of: Date())
        let (tokens, budget, below) = try await withLedger(kind) { ledger, rig in
            let person = newQuotaKey()
            guard case .reserved(let scan) = try await ledger.reserve(newScan(person, day: today), policy: QuotaPolicy(limit: 4)) else {
                throw CancellationError()
            }
            _ = try await rig.succeed(
                scan.id,
                result: ScanResponse(ingredients: [], recipes: []),
                usage: modelUsage(costNanos: 1_000, modelTime: .zero)
            )
            let tokens = try await ledger.reserve(newScan(person, day: today), policy: QuotaPolicy(limit: 4, tokenLimit: 1_200))
            let budget = try await ledger.reserve(newScan(newQuotaKey(), day: today), policy: QuotaPolicy(limit: 4, dailyBudgetNanos: 1_000))
            let below = try await ledger.reserve(
                newScan(person, day: today),
                policy: QuotaPolicy(limit: 4, tokenLimit: 1_201, dailyBudgetNanos: 1_001)
            )
            return (tokens, budget, below)
        }
        #expect(tokens == .refused(.tokens))
        #expect(budget == .refused(.budget))
        if case .reserved = below {} else { Issue.record("below both caps: \(below)") }
    }

    @Test(
        "what the model cost counts even when the scan had ended: tokens on the person's scan day, the cost on everyone's day",
        arguments: StoreKind.allCases
    )
    func modelCostCounts(_ kind: StoreKind) async throws {
        let usage = modelUsage(costNanos: 1_000, modelTime: .milliseconds(100))
        let today = QuotaPolicy.utcDay(of: Date())
        let (tokens, spend) = try await withLedger(kind) { ledger, rig in
            let person = newQuotaKey()
            guard case .reserved(let scan) = try await ledger.reserve(newScan(person), policy: QuotaPolicy(limit: 4)) else {
                throw CancellationError()
            }
            _ = try await rig.succeed(scan.id, result: ScanResponse(ingredients: [], recipes: []), usage: usage)
            _ = try await rig.fail(scan.id, ScanFailure(.llmUnavailable, ""), usage: usage)
            _ = try await rig.succeed(UUID(), result: ScanResponse(ingredients: [], recipes: []), usage: usage)
            return (try await ledger.usage(of: person, on: day).tokens, try await ledger.usage(of: newQuotaKey(), on: today).everyonesSpendNanos)
        }
        #expect(tokens == 2 * 1_200)
        #expect(spend == 3 * 1_000)
    }

    @Test("the same idempotency key and photo find the earlier scan without a second charge; another photo is refused", arguments: StoreKind.allCases)
    func idempotencyKeys(_ kind: StoreKind) async throws {
        let (first, again, otherPhoto, otherUser, used) = try await withLedger(kind) { ledger, _ in
            let person = newQuotaKey()
            let user = UUID()
            let first = try await ledger.reserve(newScan(person, user: user, key: "k-1"), policy: QuotaPolicy(limit: 4))
            let again = try await ledger.reserve(newScan(person, user: user, key: "k-1"), policy: QuotaPolicy(limit: 4))
            let otherPhoto = try await ledger.reserve(newScan(person, user: user, key: "k-1", photo: 2), policy: QuotaPolicy(limit: 4))
            let otherUser = try await ledger.reserve(newScan(newQuotaKey(), key: "k-1"), policy: QuotaPolicy(limit: 4))
            return (first, again, otherPhoto, otherUser, try await ledger.usage(of: person, on: day).scans)
        }
        guard case .reserved(let scan) = first else {
            Issue.record("first: \(first)")
            return
        }
        #expect(again == .replay(scan))
        #expect(otherPhoto == .keyReused)
        if case .reserved = otherUser {} else { Issue.record("keys are per user: \(otherUser)") }
        #expect(used == 1)
    }

    @Test("a scan is found by its idempotency key for its own user only, and not once released", arguments: StoreKind.allCases)
    func findsByIdempotencyKey(_ kind: StoreKind) async throws {
        let (own, others, released) = try await withLedger(kind) { ledger, _ in
            let user = UUID()
            guard case .reserved(let scan) = try await ledger.reserve(newScan(newQuotaKey(), user: user, key: "k-1"), policy: QuotaPolicy(limit: 4))
            else { throw CancellationError() }
            let own = try await ledger.scan(idempotencyKey: "k-1", of: user)
            let others = try await ledger.scan(idempotencyKey: "k-1", of: UUID())
            _ = try await ledger.release(scan.id, code: .llmUnavailable)
            return (own == scan, others, try await ledger.scan(idempotencyKey: "k-1", of: user))
        }
        #expect(own)
        #expect(others == nil)
        #expect(released == nil)
    }

    @Test("another user's scan is not found", arguments: StoreKind.allCases)
    func scansArePerUser(_ kind: StoreKind) async throws {
        let found = try await withLedger(kind) { ledger, _ in
            guard case .reserved(let scan) = try await ledger.reserve(newScan(newQuotaKey()), policy: QuotaPolicy(limit: 4)) else {
                throw CancellationError()
            }
            return [try await ledger.scan(scan.id, of: scan.userID) != nil, try await ledger.scan(scan.id, of: UUID()) != nil]
        }
        #expect(found == [true, false])
    }

    @Test("the sweeper fails open scans past their deadline and grace with scan_timeout, and no others", arguments: StoreKind.allCases)
    func sweeper(_ kind: StoreKind) async throws {
        let (failed, states, used) = try await withLedger(kind) { ledger, rig in
            let person = newQuotaKey()
            let user = UUID()
            var ids: [UUID] = []
            for deadline in [-60.0, -60, -10, 90] {
                let scan = newScan(person, user: user, deadline: deadline)
                guard case .reserved(let reserved) = try await ledger.reserve(scan, policy: QuotaPolicy(limit: 4)) else { throw CancellationError() }
                ids.append(reserved.id)
            }
            _ = try await rig.succeed(ids[1], result: ScanResponse(ingredients: [], recipes: []), usage: nil)
            let failed = try await ledger.failOverdue(grace: .seconds(30))
            var states: [String] = []
            for id in ids {
                let record = try await ledger.scan(id, of: user)
                states.append(record.map { "\($0.state)\($0.errorCode.map { " \($0.rawValue)" } ?? "")" } ?? "gone")
            }
            return (failed == [ids[0]], states, try await ledger.usage(of: person, on: day).scans)
        }
        #expect(failed)
        #expect(states == ["failed scan_timeout", "succeeded", "queued", "queued"])
        #expect(used == 3)
    }

    @Test("deleting a user's scans removes every row and keeps the day's charges with the person", arguments: StoreKind.allCases)
    func deletion(_ kind: StoreKind) async throws {
        let (rows, used) = try await withLedger(kind) { ledger, rig in
            let person = newQuotaKey()
            let user = UUID()
            for _ in 0..<2 { _ = try await ledger.reserve(newScan(person, user: user), policy: QuotaPolicy(limit: 4)) }
            guard case .reserved(let failed) = try await ledger.reserve(newScan(person, user: user), policy: QuotaPolicy(limit: 4)) else {
                throw CancellationError()
            }
            _ = try await ledger.fail(failed.id, code: .llmUnavailable)
            try await ledger.deleteScans(of: user, quotaKey: person, today: day)
            return (try await rig.storedScans(of: user), try await ledger.usage(of: person, on: day).scans)
        }
        #expect(rows == 0)
        #expect(used == 2)
    }

    @Test("the purge deletes scans past their retention whose day has ended, and past days' charges, and nothing else", arguments: StoreKind.allCases)
    func purge(_ kind: StoreKind) async throws {
        let (purged, remaining) = try await withLedger(kind) { ledger, rig in
            let person = newQuotaKey()
            var ids: [UUID] = []
            for day in ["2026-11-20", "2026-11-21", self.day] {
                guard case .reserved(let scan) = try await ledger.reserve(newScan(person, day: day), policy: QuotaPolicy(limit: 4)) else {
                    throw CancellationError()
                }
                ids.append(scan.id)
            }
            try await rig.setCreated(ids, at: Date().addingTimeInterval(-2 * 24 * 3600))
            _ = try await ledger.reserve(newScan(person, day: "2026-11-21"), policy: QuotaPolicy(limit: 4))
            let purged = try await ledger.purge(olderThan: .seconds(24 * 3600), today: self.day)
            return (purged, [try await ledger.usage(of: person, on: "2026-11-21").scans, try await ledger.usage(of: person, on: self.day).scans])
        }
        #expect(purged == 2)
        #expect(remaining == [1, 1])
    }

    @Test(
        "the purge clears the result of a scan past its retention whose day has not ended, and forgets a deleted success's past charge",
        arguments: StoreKind.allCases
    )
    func purgeClearsResultsAndPastCharges(_ kind: StoreKind) async throws {
        let answer = ScanResponse(ingredients: [], recipes: [])
        let (kept, pastCharges) = try await withLedger(kind) { ledger, rig in
            let person = newQuotaKey()
            let user = UUID()
            var scans: [ScanRecord] = []
            for day in ["2026-11-21", self.day] {
                guard case .reserved(let scan) = try await ledger.reserve(newScan(person, user: user, day: day), policy: QuotaPolicy(limit: 4)) else {
                    throw CancellationError()
                }
                _ = try await rig.succeed(scan.id, result: answer, usage: nil)
                scans.append(scan)
            }
            _ = try await ledger.delete(scans[0].id, of: user, quotaKey: person)
            try await rig.setCreated([scans[1].id], at: Date().addingTimeInterval(-2 * 24 * 3600))
            _ = try await ledger.purge(olderThan: .seconds(24 * 3600), today: self.day)
            return (try await ledger.scan(scans[1].id, of: user), try await ledger.usage(of: person, on: "2026-11-21").scans)
        }
        #expect(kept?.state == .succeeded)
        #expect(kept?.result == nil)
        #expect(pastCharges == 0)
    }

    @Test(
        "a worker starts an open scan (again after a redelivery) with its photo key, but not a final or a missing one",
        arguments: StoreKind.allCases
    )
    func workerStart(_ kind: StoreKind) async throws {
        let queued = newScan(newQuotaKey())
        let starts = try await withLedger(kind) { ledger, rig in
            guard case .reserved(let scan) = try await ledger.reserve(queued, policy: QuotaPolicy(limit: 4)) else {
                throw CancellationError()
            }
            var starts = [try await rig.start(scan.id), try await rig.start(scan.id)]
            _ = try await rig.fail(scan.id, ScanFailure(.invalidImage, "not a JPEG"), usage: nil)
            starts += [try await rig.start(scan.id), try await rig.start(UUID())]
            return starts
        }
        let started = ScanClaim.started(shown: [], photoKey: queued.photoKey)
        #expect(starts == [started, started, .finished(.failed), .missing])
    }

    @Test("pages of a user's scans come newest first, with no scan skipped or repeated, and no other user's", arguments: StoreKind.allCases)
    func pages(_ kind: StoreKind) async throws {
        let (pages, created) = try await withLedger(kind) { ledger, rig in
            let user = UUID()
            var created: [UUID] = []
            for _ in 0..<5 {
                guard case .reserved(let scan) = try await ledger.reserve(newScan(newQuotaKey(), user: user), policy: QuotaPolicy(limit: 4)) else {
                    throw CancellationError()
                }
                created.append(scan.id)
            }
            _ = try await ledger.reserve(newScan(newQuotaKey()), policy: QuotaPolicy(limit: 4))
            // Two scans in the same microsecond: the id decides their order.
            try await rig.setCreated([created[3], created[4]], at: try #require(ISO8601DateFormatter().date(from: "2026-11-22T12:00:00Z")))
            var pages: [[UUID]] = []
            var cursor: PageCursor?
            repeat {
                let page = try await ledger.scans(of: user, modes: ScanMode.listedByDefault, after: cursor, limit: 2)
                pages.append(page.scans.map(\.id))
                cursor = page.next
            } while cursor != nil
            return (pages, created)
        }
        let sameMoment = [created[3], created[4]].sorted { $0.uuidString > $1.uuidString }
        #expect(pages.map(\.count) == [2, 2, 1])
        #expect(pages.flatMap { $0 } == [created[2], created[1], created[0]] + sameMoment)
    }

    @Test("a receipt scan is listed only to those who ask for receipts; fridge and dish scans by default", arguments: StoreKind.allCases)
    func listsByMode(_ kind: StoreKind) async throws {
        let (byDefault, receipts, dishes, created) = try await withLedger(kind) { ledger, _ in
            let user = UUID()
            let person = newQuotaKey()
            var created: [UUID] = []
            for mode in [ScanMode.fridge, .receipt, .dish] {
                let queued = newScan(person, user: user, mode: mode)
                guard case .reserved(let scan) = try await ledger.reserve(queued, policy: QuotaPolicy(limit: 3)) else { throw CancellationError() }
                created.append(scan.id)
            }
            func listed(_ modes: [ScanMode]) async throws -> Set<UUID> {
                Set(try await ledger.scans(of: user, modes: modes, after: nil, limit: 10).scans.map(\.id))
            }
            return (try await listed(ScanMode.listedByDefault), try await listed([.receipt]), try await listed([.dish]), created)
        }
        #expect(byDefault == [created[0], created[2]])
        #expect(receipts == [created[1]])
        #expect(dishes == [created[2]])
    }

    @Test(
        "a receipt's food line corrected is kept in the scan's result; another user's scan or a line that is not food is nil",
        arguments: StoreKind.allCases
    )
    func receiptLineCorrection(_ kind: StoreKind) async throws {
        let milk = ReceiptLine(id: UUID(), text: "MILK 1L", kind: .food, name: "milk", quantity: 1, unit: .l, unitPrice: 1.19, total: 1.19)
        let bag = ReceiptLine(id: UUID(), text: "BAG", kind: .other, total: 0.2)
        let receipt = ReceiptAnswer(storeName: nil, date: nil, time: nil, currency: "EUR", lines: [milk, bag], total: 1.39)
        let (corrected, refused, stored) = try await withLedger(kind) { ledger, rig in
            let user = UUID()
            let scan = try await reserveScans(1, of: newQuotaKey(), user: user, in: ledger)[0]
            _ = try await rig.succeed(scan.id, result: ScanResponse(ingredients: [], recipes: [], mode: .receipt, receipt: receipt), usage: nil)
            let correction = ReceiptLineCorrection(name: "whole milk", quantity: 2)
            let corrected = try await ledger.correct(correction, ofLine: milk.id, inScan: scan.id, of: user)
            let refused = [
                try await ledger.correct(correction, ofLine: milk.id, inScan: scan.id, of: UUID()),
                try await ledger.correct(correction, ofLine: bag.id, inScan: scan.id, of: user),
            ]
            return (corrected, refused, try await ledger.scan(scan.id, of: user))
        }
        let line = corrected?.result?.receipt?.lines.first
        #expect(line?.name == "whole milk" && line?.quantity == 2 && line?.unit == .l && line?.text == "MILK 1L")
        #expect(refused == [nil, nil])
        #expect(stored?.result == corrected?.result)
    }

    @Test("the page after a scan deleted since goes on after where that scan was", arguments: StoreKind.allCases)
    func pageAfterDeletedScan(_ kind: StoreKind) async throws {
        let (second, created) = try await withLedger(kind) { ledger, _ in
            let person = newQuotaKey()
            let user = UUID()
            let created = try await reserveScans(4, of: person, user: user, in: ledger).map(\.id)
            let first = try await ledger.scans(of: user, modes: ScanMode.listedByDefault, after: nil, limit: 2)
            _ = try await ledger.delete(created[2], of: user, quotaKey: person)
            return (try await ledger.scans(of: user, modes: ScanMode.listedByDefault, after: first.next, limit: 2).scans.map(\.id), created)
        }
        #expect(second == [created[1], created[0]])
    }

    @Test(
        "deleting one scan: a queued one is cancelled and refunded, a running one refused, a succeeded one gone but charged",
        arguments: StoreKind.allCases
    )
    func deleteOne(_ kind: StoreKind) async throws {
        let (outcomes, used, remaining) = try await withLedger(kind) { ledger, rig in
            let person = newQuotaKey()
            let user = UUID()
            let scans = try await reserveScans(3, of: person, user: user, in: ledger)
            _ = try await rig.start(scans[1].id)
            _ = try await rig.succeed(scans[2].id, result: ScanResponse(ingredients: [], recipes: []), usage: nil)
            var outcomes: [ScanDeletion] = []
            for scan in scans { outcomes.append(try await ledger.delete(scan.id, of: user, quotaKey: person)) }
            outcomes.append(try await ledger.delete(scans[1].id, of: UUID(), quotaKey: person))
            let remaining = try await ledger.scans(of: user, modes: ScanMode.listedByDefault, after: nil, limit: 10).scans.map(\.id)
            return (outcomes, try await ledger.usage(of: person, on: day).scans, remaining == [scans[1].id])
        }
        #expect(outcomes == [.cancelled, .running, .deleted, .notFound])
        #expect(used == 2)
        #expect(remaining)
    }

    @Test(
        "releasing a scan whose job never left fails it while queued, refunds it and frees its key; a started scan is untouched",
        arguments: StoreKind.allCases
    )
    func release(_ kind: StoreKind) async throws {
        let (released, used, retried) = try await withLedger(kind) { ledger, rig in
            let person = newQuotaKey()
            let user = UUID()
            var scans: [ScanRecord] = []
            for key in ["never-sent", "running"] {
                guard case .reserved(let scan) = try await ledger.reserve(newScan(person, user: user, key: key), policy: QuotaPolicy(limit: 4))
                else { throw CancellationError() }
                scans.append(scan)
            }
            _ = try await rig.start(scans[1].id)
            let released = [
                try await ledger.release(scans[0].id, code: .llmUnavailable), try await ledger.release(scans[1].id, code: .llmUnavailable),
            ]
            let used = try await ledger.usage(of: person, on: day).scans
            guard case .reserved = try await ledger.reserve(newScan(person, user: user, key: "never-sent"), policy: QuotaPolicy(limit: 4)) else {
                return (released, used, false)
            }
            return (released, used, true)
        }
        #expect(released == [true, false])
        #expect(used == 1)
        #expect(retried, "the same key starts a new scan")
    }

    @Test("the gauges count the open scans by state, not the final ones, and find the oldest queued one", arguments: StoreKind.allCases)
    func gauges(_ kind: StoreKind) async throws {
        let (counts, oldest) = try await withLedger(kind) { ledger, rig in
            let person = newQuotaKey()
            let ids = try await reserveScans(4, of: person, in: ledger).map(\.id)
            _ = try await rig.start(ids[0])
            _ = try await ledger.fail(ids[3], code: .llmUnavailable)
            try await rig.setCreated([ids[1]], at: try #require(ISO8601DateFormatter().date(from: "2026-11-22T08:00:00Z")))
            return (try await ledger.countOpenByState(), try await ledger.oldestQueued())
        }
        #expect(counts == [.running: 1, .queued: 2])
        #expect(oldest == ISO8601DateFormatter().date(from: "2026-11-22T08:00:00Z"))
    }
}

/// How ``PostgresScanLedger``'s tables hold everyone's spend, which the fake has no counterpart of.
@Suite("Scan ledger's spend in PostgreSQL", .timeLimit(.minutes(2)))
struct ScanLedgerSpendTests {
    @Test("everyone's spend of the day adds up every scan's cost over the day's parts, and what an earlier release's worker counted")
    func everyonesSpendAddsUp() async throws {
        let usage = modelUsage(costNanos: 1_000, modelTime: .milliseconds(100))
        let (spend, parts) = try await withMigratedDatabase { client in
            let rig = PostgresLedgerRig(client: client)
            let ledger = rig.ledger
            let today = try await client.query("SELECT (now() AT TIME ZONE 'UTC')::date::text").decode(String.self).first { _ in true } ?? ""
            for _ in 0..<20 {
                guard case .reserved(let scan) = try await ledger.reserve(newScan(newQuotaKey(), day: today), policy: QuotaPolicy(limit: 4)) else {
                    throw CancellationError()
                }
                _ = try await rig.succeed(scan.id, result: ScanResponse(ingredients: [], recipes: []), usage: usage)
            }
            // A worker from before the parts adds to the day's single row.
            try await client.execute(
                "INSERT INTO model_spend (spend_date, cost_nanousd, tokens) VALUES (\(today)::date, 5000, 10)",
                logger: testLogger
            )
            let parts = try await client.query("SELECT count(*) FROM model_spend_parts WHERE spend_date = \(today)::date")
                .decode(Int.self).first { _ in true }
            return (try await ledger.usage(of: newQuotaKey(), on: today).everyonesSpendNanos, parts ?? 0)
        }
        #expect(spend == 20 * 1_000 + 5_000)
        #expect(parts > 1)
    }
}
