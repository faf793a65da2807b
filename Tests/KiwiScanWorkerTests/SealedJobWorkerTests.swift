import Foundation
import KiwiDatabase
import KiwiDevelopment
import KiwiMessaging
import KiwiModels
import KiwiScanMessages
import KiwiScans
import KiwiTestSupport
import KiwiTopology
import PostgresNIO
import Testing

@testable import KiwiLLMStub
@testable import KiwiScanWorker

/// A worker opens each job's photos with the key its scan's claim returns (docs/architecture.md, "Photos at rest:
/// crypto-shredding").
@Suite("Scan worker: sealed photos", .timeLimit(.minutes(2)))
struct SealedJobWorkerTests {
    let photo = SyntheticJPEG.make(size: 16 * 1024, seed: 12)

    @Test("a sealed job is answered, and its scan's key is gone with the outcome")
    func answersASealedJob() async throws {
        let (result, keptKeys) = try await WorkerRig.run { rig in
            let job = try await rig.reserve(photo)
            try await rig.submit(job)
            let result = try await rig.outcome(of: job.scanID, within: WorkerRig.patience)
            let rows = try await rig.postgres.query(
                "SELECT count(*) FROM scans WHERE id = \(job.scanID) AND photo_key IS NOT NULL",
                logger: testLogger
            )
            for try await count in rows.decode(Int.self) { return (result, count) }
            throw CancellationError()
        }
        #expect(result.failureCode == nil)
        #expect(keptKeys == 0)
    }

    @Test("a job whose photos do not open with its scan's key fails the scan llm_unavailable without calling OpenAI, and is not dead-lettered")
    func unopenedJobFailsItsScan() async throws {
        let (result, requests, deadLettered) = try await WorkerRig.run { rig in
            let job = try await rig.reserve(photo)
            try await rig.publisher.publishJob(try job.message(sealingWith: PhotoKey()), to: rig.queue)
            let result = try await rig.outcome(of: job.scanID, within: WorkerRig.patience)
            return (result, rig.stub.snapshot.requests, try await rig.messages(in: KiwiTopology.deadLetterQueue(of: rig.queue)))
        }
        #expect(result.failureCode == .llmUnavailable)
        #expect(requests == 0)
        #expect(deadLettered == 0)
    }

    @Test(
        "a job whose profile is missing or does not open fails the scan llm_unavailable without calling OpenAI: never answered unguarded",
        arguments: [nil, "bm90IGEgc2VhbGVkIHByb2ZpbGU="]
    )
    func unreadableProfileFailsItsScan(_ planted: String?) async throws {
        let (result, requests, deadLettered) = try await WorkerRig.run { rig in
            var job = try await rig.reserve(photo)
            job.profile = KitchenProfile(allergies: [.peanuts])
            var message = try rig.message(of: job)
            message.properties.headers[ScanJob.Header.profile] = planted
            try await rig.publisher.publish(message, routingKey: rig.queue)
            let result = try await rig.outcome(of: job.scanID, within: WorkerRig.patience)
            return (result, rig.stub.snapshot.requests, try await rig.messages(in: KiwiTopology.deadLetterQueue(of: rig.queue)))
        }
        #expect(result.failureCode == .llmUnavailable)
        #expect(requests == 0)
        #expect(deadLettered == 0)
    }

    @Test("a scan with no key (reserved by a gateway from before sealing) is answered from its photo in the clear")
    func scanWithoutKeyIsReadInTheClear() async throws {
        let result = try await WorkerRig.run { rig in
            let job = try await rig.reserve(photo)
            try await rig.postgres.execute("UPDATE scans SET photo_key = NULL WHERE id = \(job.scanID)", logger: testLogger)
            var message = try rig.message(of: job)
            message.body = photo
            message.properties.headers[ScanJob.Header.format] = nil
            message.properties.headers[ScanJob.Header.profile] = nil
            try await rig.publisher.publish(message, routingKey: rig.queue)
            return try await rig.outcome(of: job.scanID, within: WorkerRig.patience)
        }
        #expect(result.failureCode == nil)
    }
}
