import Foundation
import KiwiDatabase
import KiwiMessaging
import KiwiModels
import KiwiScanMessages
import KiwiScanStore
import KiwiScans
import KiwiTestSupport
import PostgresNIO
import Testing

@testable import KiwiGateway

/// Crypto-shredding on the real ledger (docs/architecture.md, "Photos at rest: crypto-shredding"): a scan's photo key
/// is on its row while it is open, and nowhere once it ends, however it ends.
@Suite("Scan ledger: photo keys, PostgreSQL", .timeLimit(.minutes(2)))
struct PhotoKeyLedgerTests {
    /// Each way a scan ends.
    enum End: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case succeeded, failed, released, swept, cancelled, accountDeleted

        var testDescription: String { rawValue }
    }

    let photo: [UInt8] = [0xFF, 0xD8] + Array(repeating: 0x42, count: 512) + [0xFF, 0xD9]

    @Test("a finished scan's key is gone and its job can no longer be opened", arguments: End.allCases)
    func finishedScanKeyIsGone(_ end: End) async throws {
        let person = newQuotaKey()
        let user = UUID()
        let queued = newScan(person, user: user, deadline: end == .swept ? -60 : 90)
        let (message, keyBefore, claim, keyAfter, keysKept) = try await withMigratedDatabase { client in
            let rig = PostgresLedgerRig(client: client)
            let ledger = rig.ledger
            guard case .reserved(let scan) = try await ledger.reserve(queued, policy: QuotaPolicy(limit: 4)) else { throw CancellationError() }
            // Another person's open scan keeps its key: the database holds keys, only none of this scan.
            _ = try await ledger.reserve(newScan(newQuotaKey()), policy: QuotaPolicy(limit: 4))
            let job = ScanJob(scanID: scan.id, photos: [photo], deadline: queued.deadline, requestID: nil, userKey: "u")
            let message = try job.message(sealingWith: queued.photoKey)
            let keyBefore = try await Self.storedKey(of: scan.id, client)
            switch end {
            case .succeeded:
                _ = try await rig.start(scan.id)
                _ = try await rig.succeed(scan.id, result: ScanResponse(ingredients: [], recipes: []), usage: nil)
            case .failed:
                _ = try await rig.start(scan.id)
                _ = try await rig.fail(scan.id, ScanFailure(.invalidModelResponse, ""), usage: nil)
            case .released: _ = try await ledger.release(scan.id, code: .llmUnavailable)
            case .swept:
                _ = try await rig.start(scan.id)
                _ = try await ledger.failOverdue(grace: .zero)
            case .cancelled: _ = try await ledger.delete(scan.id, of: user, quotaKey: person)
            case .accountDeleted:
                _ = try await rig.start(scan.id)
                try await ledger.deleteScans(of: user, quotaKey: person, today: ScanLedgerTests.day)
            }
            return (message, keyBefore, try await rig.start(scan.id), try await Self.storedKey(of: scan.id, client), try await Self.keys(client))
        }
        #expect(keyBefore == queued.photoKey)
        #expect(claim == (end == .cancelled || end == .accountDeleted ? .missing : .finished(end == .succeeded ? .succeeded : .failed)))
        #expect(keyAfter == nil)
        #expect(keysKept.count == 1)
        for key in keysKept {
            #expect(throws: ScanJobDecodingError.self) { try ScanJob(message: message, key: key) }
        }
        // Without a key it does not open at all (its profile is sealed too), and its body holds no run of the photo.
        #expect(throws: ScanJobDecodingError.self) { try ScanJob(message: message, key: nil) }
        #expect(message.body.firstRange(of: photo[0..<64]) == nil)
    }

    @Test("the database refuses a final scan that keeps its photo key")
    func finalScanWithKeyIsRefused() async throws {
        await #expect(throws: PSQLError.self) {
            try await withMigratedDatabase { client in
                let queued = newScan(newQuotaKey())
                _ = try await PostgresLedgerRig(client: client).ledger.reserve(queued, policy: QuotaPolicy(limit: 4))
                try await client.execute("UPDATE scans SET state = 'failed', error_code = 'scan_timeout' WHERE id = \(queued.id)", logger: testLogger)
            }
        }
    }

    /// The key on scan `id`'s row; nil when there is none, or no row.
    static func storedKey(of id: UUID, _ client: PostgresClient) async throws -> PhotoKey? {
        let rows = try await client.query("SELECT photo_key FROM scans WHERE id = \(id)", logger: testLogger)
        for try await key in rows.decode(Data?.self) { return key.flatMap(PhotoKey.init) }
        return nil
    }

    /// Every key the database holds.
    static func keys(_ client: PostgresClient) async throws -> [PhotoKey] {
        let rows = try await client.query("SELECT photo_key FROM scans WHERE photo_key IS NOT NULL", logger: testLogger)
        var keys: [PhotoKey] = []
        for try await key in rows.decode(Data.self) { keys += [PhotoKey(key)].compactMap { $0 } }
        return keys
    }
}
