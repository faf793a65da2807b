import Foundation
import KiwiDatabase
import KiwiModels
import KiwiScans
import PostgresNIO
import Testing

@testable import KiwiGateway
@testable import KiwiScanStore

/// A streamed scan's partials on its record (docs/architecture.md, "Streamed scans"), each case against
/// ``FakeScanLedger`` and against ``ScanTransitionStore`` and ``PostgresScanLedger`` on PostgreSQL: stored in order while
/// the scan runs, bounded, dropped when it ends, and handed to a redelivered job's worker.
@Suite("Scan partials, fake and PostgreSQL", .timeLimit(.minutes(2)))
struct ScanPartialsLedgerTests {
    /// How a scan ends, by whom.
    enum Ending: String, CaseIterable, Sendable {
        case workerSucceeds, workerFails, gatewayFails, sweeperFails
    }

    /// A reserved scan a worker has started, due `deadline` seconds from now.
    func runningScan(_ ledger: any ScanLedger, _ rig: any LedgerRig, deadline: Double = 90) async throws -> ScanRecord {
        guard case .reserved(let scan) = try await ledger.reserve(newScan(newQuotaKey(), deadline: deadline), policy: QuotaPolicy(limit: 4)) else {
            throw CancellationError()
        }
        _ = try await rig.start(scan.id)
        return scan
    }

    @Test(
        "a running scan's partials are stored in order, numbered from 1, stamped on acceptance, and read with the scan",
        arguments: StoreKind.allCases
    )
    func appendOrder(_ kind: StoreKind) async throws {
        let partials = [shownIngredients("leeks", "Greek yoghurt"), shownRecipe(0, "Leek gratin"), shownRecipe(1, "Leek soup")]
        let before = Date()
        let (seqs, record) = try await withLedger(kind) { ledger, rig in
            let scan = try await runningScan(ledger, rig)
            var seqs: [Int?] = []
            for partial in partials { seqs.append(try await rig.show(partial, of: scan.id)) }
            return (seqs, try await ledger.scan(scan.id, of: scan.userID))
        }
        #expect(seqs == [1, 2, 3])
        #expect(record?.partials.map(\.partial) == partials)
        #expect(record?.partials.map(\.seq) == [1, 2, 3])
        #expect(record?.partialCount == 3)
        let acceptedAt = try #require(record?.partials.map(\.acceptedAt))
        #expect(acceptedAt.allSatisfy { $0 > before.addingTimeInterval(-1) && $0 < Date().addingTimeInterval(1) })
    }

    @Test("a reading after the first n partials gets only the rest, numbered as in a whole reading", arguments: StoreKind.allCases)
    func readAfterSeen(_ kind: StoreKind) async throws {
        let partials = [shownIngredients("leeks"), shownRecipe(0, "Leek gratin"), shownRecipe(1, "Leek soup")]
        let readings = try await withLedger(kind) { ledger, rig in
            let scan = try await runningScan(ledger, rig)
            for partial in partials { _ = try await rig.show(partial, of: scan.id) }
            var readings: [[StoredPartial]] = []
            for seen in 0...4 { readings.append(try await ledger.scan(scan.id, of: scan.userID, partialsAfter: seen)?.partials ?? []) }
            return readings
        }
        #expect(readings.map { $0.map(\.seq) } == [[1, 2, 3], [2, 3], [3], [], []])
        #expect(readings[1].map(\.partial) == Array(partials.dropFirst()))
    }

    @Test("a partial of a scan that is not running is refused: queued, final or gone", arguments: StoreKind.allCases)
    func refusedWhenNotRunning(_ kind: StoreKind) async throws {
        let (seqs, record) = try await withLedger(kind) { ledger, rig in
            guard case .reserved(let scan) = try await ledger.reserve(newScan(newQuotaKey()), policy: QuotaPolicy(limit: 4)) else {
                throw CancellationError()
            }
            var seqs = [try await rig.show(shownIngredients("leeks"), of: scan.id)]
            _ = try await rig.start(scan.id)
            _ = try await rig.succeed(scan.id, result: ScanResponse(ingredients: [], recipes: []), usage: nil)
            seqs += [try await rig.show(shownIngredients("leeks"), of: scan.id), try await rig.show(shownIngredients("leeks"), of: UUID())]
            return (seqs, try await ledger.scan(scan.id, of: scan.userID))
        }
        #expect(seqs == [nil, nil, nil])
        #expect(record?.partialCount == 0)
    }

    @Test("a scan stores at most 200 partials, and none over 32 KiB; the others are refused", arguments: StoreKind.allCases)
    func bounded(_ kind: StoreKind) async throws {
        let (seqs, oversized, count) = try await withLedger(kind) { ledger, rig in
            let scan = try await runningScan(ledger, rig)
            let huge = shownRecipe(0, "Leek gratin", steps: 3_000)
            let oversized = try await rig.show(huge, of: scan.id)
            var seqs: [Int?] = []
            for index in 0...ScanTransitionStore.mostPartials { seqs.append(try await rig.show(shownRecipe(index, "Leek soup"), of: scan.id)) }
            return (seqs, oversized, try await ledger.scan(scan.id, of: scan.userID)?.partialCount)
        }
        #expect(oversized == nil)
        #expect(seqs == (1...ScanTransitionStore.mostPartials).map { $0 } + [nil])
        #expect(count == ScanTransitionStore.mostPartials)
    }

    @Test("a scan's end drops its partials and keeps their count, whoever ends it", arguments: StoreKind.allCases, Ending.allCases)
    func clearedAtEnd(_ kind: StoreKind, _ ending: Ending) async throws {
        let record = try await withLedger(kind) { ledger, rig in
            let scan = try await runningScan(ledger, rig, deadline: ending == .sweeperFails ? -60 : 90)
            _ = try await rig.show(shownIngredients("leeks"), of: scan.id)
            _ = try await rig.show(shownRecipe(0, "Leek gratin"), of: scan.id)
            switch ending {
            case .workerSucceeds: _ = try await rig.succeed(scan.id, result: ScanResponse(ingredients: [], recipes: []), usage: nil)
            case .workerFails: _ = try await rig.fail(scan.id, ScanFailure(.invalidModelResponse, ""), usage: nil)
            case .gatewayFails: _ = try await ledger.fail(scan.id, code: .llmUnavailable)
            case .sweeperFails: _ = try await ledger.failOverdue(grace: .seconds(30))
            }
            return try await ledger.scan(scan.id, of: scan.userID)
        }
        #expect(record?.state.isOpen == false)
        #expect(record?.partials == [])
        #expect(record?.partialCount == 2)
    }

    @Test("a redelivered scan's claim hands its worker what the client shows: the partials after the last restart", arguments: StoreKind.allCases)
    func claimReturnsShown(_ kind: StoreKind) async throws {
        let (first, redelivered) = try await withLedger(kind) { ledger, rig in
            guard case .reserved(let scan) = try await ledger.reserve(newScan(newQuotaKey()), policy: QuotaPolicy(limit: 4)) else {
                throw CancellationError()
            }
            let first = try await rig.start(scan.id)
            for partial in [
                shownIngredients("cream"), shownRecipe(0, "Creamy leeks"), .restart, shownIngredients("yoghurt"), shownRecipe(0, "Leek raita"),
            ] {
                _ = try await rig.show(partial, of: scan.id)
            }
            return (first, try await rig.start(scan.id))
        }
        guard case .started(shown: [], _) = first, case .started(let shown, _) = redelivered else { throw CancellationError() }
        #expect(shown.map(\.kind) == ["ingredients", "recipe"])
        guard case .ingredients(let ingredients)? = shown.first, case .recipe(0, let recipe)? = shown.last else { throw CancellationError() }
        #expect(ingredients.map(\.name) == ["yoghurt"])
        #expect(recipe.name == "Leek raita")
    }

    @Test("a repeated Idempotency-Key finds the earlier scan with its partials", arguments: StoreKind.allCases)
    func replayHasPartials(_ kind: StoreKind) async throws {
        let replayed = try await withLedger(kind) { ledger, rig in
            let person = newQuotaKey()
            let user = UUID()
            guard case .reserved(let scan) = try await ledger.reserve(newScan(person, user: user, key: "k1"), policy: QuotaPolicy(limit: 4)) else {
                throw CancellationError()
            }
            _ = try await rig.start(scan.id)
            _ = try await rig.show(shownIngredients("leeks"), of: scan.id)
            guard case .replay(let earlier) = try await ledger.reserve(newScan(person, user: user, key: "k1"), policy: QuotaPolicy(limit: 4)) else {
                throw CancellationError()
            }
            return earlier
        }
        #expect(replayed.partials.map(\.seq) == [1])
        #expect(replayed.partialCount == 1)
    }

    /// Scan partials on PostgreSQL alone: a running scan and its rig, on a migrated database of its own.
    func withRunningScan<Result: Sendable>(
        _ body: @Sendable (PostgresLedgerRig, ScanRecord) async throws -> Result
    ) async throws -> Result {
        try await withMigratedDatabase { client in
            let rig = PostgresLedgerRig(client: client)
            return try await body(rig, try await runningScan(rig.ledger, rig))
        }
    }

    @Test("a show that commits while the scan's end waits for the scan's row leaves no partial behind")
    func showRacingEndLeavesNone() async throws {
        let left = try await withRunningScan { rig, scan in
            try await rig.client.withConnection { showing in
                // A worker's show stores a partial in a transaction held open: it holds the scan's row.
                try await showing.query("BEGIN", logger: testLogger)
                let show = ShowPartialStatement(id: scan.id, json: #"{"kind":"restart"}"#, most: ScanTransitionStore.mostPartials)
                var positions: [Int] = []
                for try await position in try await showing.execute(show, logger: testLogger) { positions.append(position) }
                #expect(positions == [1])
                async let ended = rig.succeed(scan.id, result: ScanResponse(ingredients: [], recipes: []), usage: nil)
                try await waitUntilAStatementWaitsForALock(rig.client)
                try await showing.query("COMMIT", logger: testLogger)
                #expect(try await ended)
            }
            let rows = try await rig.client.query("SELECT count(*) FROM scan_partials", logger: testLogger)
            for try await count in rows.decode(Int.self) { return count }
            return -1
        }
        #expect(left == 0)
    }

    /// Returns once a statement on this database waits for a lock another transaction holds.
    func waitUntilAStatementWaitsForALock(_ client: PostgresClient) async throws {
        while true {
            let rows = try await client.query(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
                logger: testLogger
            )
            for try await waiting in rows.decode(Int.self) where waiting > 0 { return }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    @Test("a scan's large partials and its result are stored compressed with LZ4")
    func storedWithLZ4() async throws {
        let methods = try await withRunningScan { rig, scan in
            let large = shownRecipe(0, "Leek gratin", steps: 300)
            _ = try await rig.show(large, of: scan.id)
            let compressed = try await rig.client.query(
                "SELECT pg_column_compression(entry) FROM scan_partials WHERE scan_id = \(scan.id)",
                logger: testLogger
            )
            var methods: [String?] = []
            for try await method in compressed.decode(String?.self) { methods.append(method) }
            guard case .recipe(_, let recipe) = large else { throw CancellationError() }
            _ = try await rig.succeed(scan.id, result: ScanResponse(ingredients: [], recipes: [recipe]), usage: nil)
            let result = try await rig.client.query("SELECT pg_column_compression(result) FROM scans WHERE id = \(scan.id)", logger: testLogger)
            for try await method in result.decode(String?.self) { methods.append(method) }
            return methods
        }
        #expect(methods == ["lz4", "lz4"])
    }

    @Test("an open scan's partials that a worker of the previous release appended to its column are read with it")
    func previousReleaseColumnRead() async throws {
        let (record, claim) = try await withRunningScan { rig, scan in
            try await rig.client.execute(
                """
                UPDATE scans SET partial_count = 1, partials = '[{"kind": "ingredients", "ingredients": [], "at": 0}]'
                WHERE id = \(scan.id)
                """,
                logger: testLogger
            )
            return (try await rig.ledger.scan(scan.id, of: scan.userID), try await rig.start(scan.id))
        }
        #expect(record?.partials.map(\.partial) == [.ingredients([])])
        #expect(record?.partials.map(\.seq) == [1])
        guard case .started(let shown, _) = claim else { throw CancellationError() }
        #expect(shown == [.ingredients([])])
    }

    @Test("partials a worker of the previous release appended to the column are read after the first n as the table's are")
    func previousReleaseColumnReadAfterSeen() async throws {
        let partials = try await withRunningScan { rig, scan in
            try await rig.client.execute(
                """
                UPDATE scans SET partial_count = 2, partials = '[{"kind": "ingredients", "ingredients": [], "at": 0},
                    {"kind": "restart", "at": 0}]'
                WHERE id = \(scan.id)
                """,
                logger: testLogger
            )
            return try await rig.ledger.scan(scan.id, of: scan.userID, partialsAfter: 1)?.partials
        }
        #expect(partials?.map(\.seq) == [2])
        #expect(partials?.map(\.partial) == [.restart])
    }
}
