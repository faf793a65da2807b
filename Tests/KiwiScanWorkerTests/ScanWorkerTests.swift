import Crypto
import Foundation
import KiwiDevelopment
import KiwiJPEG
import KiwiMessaging
import KiwiModels
import KiwiOpenAI
import KiwiScanMessages
import KiwiScanStore
import KiwiScans
import KiwiTestSupport
import KiwiTopology
import PostgresNIO
import ServiceLifecycle
import Testing

@testable import KiwiLLMStub
@testable import KiwiScanWorker

@Suite("Scan worker against RabbitMQ and the OpenAI stub", .timeLimit(.minutes(2)))
struct ScanWorkerTests {
    let photo = SyntheticJPEG.make(size: 16 * 1024, seed: 11)

    @Test("a photo becomes a ScanResponse that passes the shared validator, from one request built as specified")
    func answersAPhoto() async throws {
        let (result, received) = try await WorkerRig.run { rig in
            (try await rig.scan(photo), rig.stub.snapshot.recent)
        }
        guard case .ok(let response) = result else {
            Issue.record("expected a response, got \(result)")
            return
        }
        #expect(throws: Never.self) { try ScanResponseContract.validate(try KiwiJSON.encoder().encode(response)) }
        #expect(!response.recipes.isEmpty)
        let request = try #require(received.first?.parameters)
        #expect(received.count == 1)
        #expect(request.model == "gpt-4o" && request.detail == "high" && request.temperature == 0.3)
        #expect(request.maxCompletionTokens == 4096 && request.strictSchema)
        #expect(request.safetyIdentifier == testUserKey)
    }

    @Test("a photo with EXIF GPS, XMP, ICC and a comment reaches OpenAI without any metadata, its image data byte-identical")
    func stripsMetadata() async throws {
        let tagged = JPEGFixtures.withMetadata(photo)
        let (result, statistics) = try await WorkerRig.run { rig in (try await rig.scan(tagged), rig.stub.snapshot) }
        #expect(result.failureCode == nil)
        let request = try #require(statistics.recent.first)
        #expect(statistics.imagesWithMetadata == 0 && request.metadataSegments.isEmpty)
        let original = try JPEGImage(parsing: tagged)
        let scanData = SHA256.hash(data: original.bytes[original.scanStart..<original.end]).hexEncodedString
        #expect(request.scanDataSHA256 == scanData)
        #expect(request.imageBytes == tagged.count - (original.metadataSegments.map(\.range.count).reduce(0, +)))
    }

    /// How each fault of the stub ends, and how many HTTP attempts the worker makes (first + 2 retries, or first + repair).
    /// The two `nonStrict` faults are what only a model route without strict Structured Outputs writes.
    static let faultOutcomes: [(StubFault, ScanFailure.Code?, Int)] = [
        (.rateLimit, .llmUnavailable, 3), (.insufficientQuota, .llmUnavailable, 1), (.serverError, .llmUnavailable, 3),
        (.unavailable, .llmUnavailable, 3), (.connectionReset, .llmUnavailable, 3), (.overLength, .invalidModelResponse, 2),
        (.contentFilter, .invalidModelResponse, 2), (.refusal, .invalidModelResponse, 2), (.truncated, .invalidModelResponse, 2),
        (.noFood, nil, 1), (.nonStrictProse, .invalidModelResponse, 2), (.nonStrictOffSchema, .invalidModelResponse, 2),
    ]

    @Test("each persistent fault ends in its documented result after the documented number of attempts", arguments: faultOutcomes)
    func faultOutcome(_ fault: StubFault, _ code: ScanFailure.Code?, _ attempts: Int) async throws {
        let (result, requests) = try await WorkerRig.run(behaviour: StubBehaviour(fault: fault, retryAfterSeconds: 0.2)) { rig in
            (try await rig.scan(photo), rig.stub.snapshot.requests)
        }
        #expect(result.failureCode == code, "\(result)")
        #expect(requests == attempts)
    }

    @Test("an image without food is a valid result with empty lists")
    func noFoodIsEmpty() async throws {
        let result = try await WorkerRig.run(behaviour: StubBehaviour(fault: .noFood)) { rig in try await rig.scan(photo) }
        #expect(result == .ok(ScanResponse(ingredients: [], recipes: [])))
    }

    @Test("a stub that never answers ends in scan_timeout, recorded at the deadline rather than when the stub gives up")
    func slowIsTimeout() async throws {
        let (result, lateness) = try await WorkerRig.run(behaviour: StubBehaviour(fault: .slow)) { rig in
            let job = try await rig.reserve(photo, deadlineIn: .seconds(3))
            try await rig.submit(job)
            return (try await rig.outcome(of: job.scanID, within: WorkerRig.patience), try await rig.recordedAfterDeadline(job.scanID))
        }
        #expect(result.failureCode == .scanTimeout)
        // Recorded 250 ms before the deadline; the stub would hold the call for an hour. The slack is for a machine
        // whose two cores the whole suite shares: in its first minute every test waits tens of seconds (48 s, once).
        #expect(lateness < 120)
    }

    @Test(
        "a transient failure is retried, or an unusable answer repaired, and the scan succeeds",
        arguments: [StubFault.serverError, .rateLimit, .connectionReset, .overLength, .contentFilter, .refusal]
    )
    func recoversFromOneFailure(_ fault: StubFault) async throws {
        let (result, requests) = try await WorkerRig.run(behaviour: StubBehaviour(fault: fault, faultCount: 1, retryAfterSeconds: 0.2)) { rig in
            (try await rig.scan(photo), rig.stub.snapshot.requests)
        }
        #expect(result.failureCode == nil, "\(result)")
        #expect(requests == 2)
    }

    @Test("a retry-after past the deadline is not waited for: llm_unavailable is recorded well before the deadline")
    func retryAfterPastDeadline() async throws {
        let (result, lateness, requests) = try await WorkerRig.run(behaviour: StubBehaviour(fault: .rateLimit, retryAfterSeconds: 120)) { rig in
            let job = try await rig.reserve(photo, deadlineIn: WorkerRig.patience)
            try await rig.submit(job)
            let result = try await rig.outcome(of: job.scanID, within: WorkerRig.patience)
            return (result, try await rig.recordedAfterDeadline(job.scanID), rig.stub.snapshot.requests)
        }
        #expect(result.failureCode == .llmUnavailable)
        #expect(requests == 1)
        #expect(lateness < -30)  // not a wait for the deadline: seconds after the job, on a busy machine too
    }

    @Test("bytes that are not a well-formed JPEG are answered invalid_image without calling OpenAI")
    func invalidImage() async throws {
        let (result, requests) = try await WorkerRig.run { rig in
            (try await rig.scan([0xFF, 0xD8, 0xFF, 0xE0, 0x00]), rig.stub.snapshot.requests)
        }
        #expect(result.failureCode == .invalidImage)
        #expect(requests == 0)
    }

    @Test("a job whose deadline has passed fails its scan with scan_timeout: no OpenAI call, nothing left in any queue")
    func expiredJobFailsItsScan() async throws {
        let (result, requests, left, deadLettered) = try await WorkerRig.run(workers: 0) { rig in
            // The deadline passed while the job waited (no broker expiry, as when clocks disagree or a prefetch buffer held it).
            let job = try await rig.reserve(photo, deadlineIn: .seconds(-1))
            var message = try rig.message(of: job)
            message.properties.expiration = nil
            try await rig.publisher.publishJob(message, to: rig.queue)
            // Stopped gracefully, so the worker acknowledges the job it recorded before it exits.
            let group = ServiceGroup(configuration: .init(services: [try await rig.worker()], logger: testLogger))
            let running = Task { try await group.run() }
            let result = try await rig.outcome(of: job.scanID, within: WorkerRig.patience)
            await group.triggerGracefulShutdown()
            try await running.value
            let left = try await rig.messages(in: rig.queue)
            let deadLettered = try await rig.messages(in: KiwiTopology.deadLetterQueue(of: rig.queue))
            return (result, rig.stub.snapshot.requests, left, deadLettered)
        }
        #expect(result.failureCode == .scanTimeout)
        #expect(requests == 0)
        #expect(left == 0 && deadLettered == 0)
    }

    @Test("the worker announces the scan running, then each partial it shows, then its outcome, after recording each")
    func announcesEachStep() async throws {
        let (announced, partials) = try await WorkerRig.run { rig in
            let job = try await rig.reserve(photo)
            try await rig.submit(job)
            _ = try await rig.outcome(of: job.scanID, within: WorkerRig.patience)
            try await eventually { rig.announcements(of: job.scanID).last == .succeeded }
            return (rig.announcements(of: job.scanID), try await rig.partialCount(of: job.scanID))
        }
        #expect(partials > 0)
        #expect(announced == Array(repeating: .running, count: 1 + partials) + [.succeeded])
    }

    @Test("the outcome is recorded with the model that answered, its route, tokens, cost, attempts and time, and counted in the day's spend")
    func recordsUsage() async throws {
        let (usage, tokens, cost, personTokens, everyonesSpend) = try await WorkerRig.run { rig in
            let job = try await rig.reserve(photo)
            try await rig.submit(job)
            _ = try await rig.outcome(of: job.scanID, within: WorkerRig.patience)
            let rows = try await rig.postgres.query(
                """
                SELECT model, route, attempts, model_ms, prompt_tokens, cached_prompt_tokens, completion_tokens, cost_nanousd,
                    (SELECT tokens FROM scan_usage WHERE scan_usage.quota_key = scans.quota_key AND scan_usage.scan_date = scans.scan_date),
                    (SELECT cost_nanousd FROM daily_model_spend WHERE spend_date = (now() AT TIME ZONE 'UTC')::date)
                FROM scans WHERE id = \(job.scanID)
                """,
                logger: testLogger
            )
            for try await row in rows.decode((String, String, Int, Int, Int, Int, Int, Int64, Int, Int64).self) {
                let (model, route, attempts, modelMs, prompt, cached, completion, cost, personTokens, everyonesSpend) = row
                let usage = [model, route, "\(attempts)", "\(modelMs >= 0)"]
                return (
                    usage, TokenUsage(promptTokens: prompt, cachedPromptTokens: cached, completionTokens: completion), cost, personTokens,
                    everyonesSpend
                )
            }
            throw CancellationError()
        }
        #expect(usage == ["gpt-4o-2024-08-06", "gpt-4o", "1", "true"])
        #expect(tokens.promptTokens > 0 && tokens.completionTokens > 0)
        #expect(cost == ModelPrices.openAI.price(of: "gpt-4o")?.cost(of: tokens))
        // The rig's scans all belong to one person, and other tests' scans share the day.
        #expect(personTokens >= tokens.total)
        #expect(everyonesSpend >= cost)
    }

    @Test("a job whose scan is already final is acknowledged without calling OpenAI, and the final state announced again")
    func finalScanIsNotAskedAgain() async throws {
        let (announced, requests) = try await WorkerRig.run { rig in
            let job = try await rig.reserve(photo)
            _ = try await ScanTransitionStore(client: rig.postgres, logger: testLogger).fail(job.scanID, ScanFailure(.scanTimeout, ""))
            try await rig.submit(job)
            try await eventually { !rig.announcements(of: job.scanID).isEmpty }
            return (rig.announcements(of: job.scanID), rig.stub.snapshot.requests)
        }
        #expect(announced == [.failed])
        #expect(requests == 0)
    }

    @Test("two workers answering one scan (a redelivered job) record one result: the first answer wins, the second changes nothing")
    func twoWorkersOneScan() async throws {
        let (result, state, requests, announced) = try await WorkerRig.run(behaviour: StubBehaviour(latencyMilliseconds: 1500), workers: 0) { rig in
            let workers = ServiceGroup(configuration: .init(services: [try await rig.worker(), try await rig.worker()], logger: testLogger))
            let running = Task { try await workers.run() }
            let job = try await rig.reserve(photo)
            // The same job twice, as after a redelivery whose first worker was still answering.
            try await rig.submit(job)
            try await rig.submit(job)
            let result = try await rig.outcome(of: job.scanID, within: WorkerRig.patience)
            try await eventually { rig.stub.snapshot.requests == 2 }
            // Stopped gracefully, a worker first finishes the jobs it holds: the second answer's write is done.
            await workers.triggerGracefulShutdown()
            try await running.value
            // The first answer's announcement comes back through the broker, later on a machine the whole suite keeps busy.
            try await eventually { rig.announcements(of: job.scanID).contains(.succeeded) }
            return (result, try await rig.record(of: job.scanID), rig.stub.snapshot.requests, rig.announcements(of: job.scanID))
        }
        #expect(result.failureCode == nil)
        #expect(state.state == .succeeded && state.result == result)
        #expect(requests == 2)
        #expect(announced.filter { $0 == .succeeded }.count == 1)
    }

    @Test("a message that is not a job goes to the dead-letter queue, not back to the job queue")
    func poisonIsDeadLettered() async throws {
        let dead = try await WorkerRig.run { rig in
            let publisher = AMQPPublisher(settings: try AMQPSettings(url: try testAMQPURL(), connectionName: "kiwi-test-poison"), logger: testLogger)
            let graveyard = AMQPConsumer(
                settings: try AMQPSettings(url: try testAMQPURL(), connectionName: "kiwi-test-graveyard"),
                queue: KiwiTopology.deadLetterQueue(of: rig.queue),
                prefetch: 1,
                logger: testLogger
            )
            return try await whileRunning([publisher, graveyard]) {
                await publisher.waitUntilConnected()
                try await publisher.publish(AMQPMessage(body: Array("not a job".utf8)), routingKey: rig.queue)
                var iterator = graveyard.deliveries.makeAsyncIterator()
                let delivery = await iterator.next()
                try await delivery?.ack()
                return delivery?.message.body
            }
        }
        #expect(dead == Array("not a job".utf8))
    }

    @Test("a worker killed mid-job leaves the job to be redelivered and answered by another worker")
    func killedWorkerJobIsRedelivered() async throws {
        let (result, requests) = try await WorkerRig.run(behaviour: StubBehaviour(fault: .slow, faultCount: 1), workers: 0) { rig in
            let doomed = try await rig.worker()
            let doomedRun = Task { try await whileRunning([doomed]) { try await Task.sleep(for: .seconds(3600)) } }
            // A deadline far enough away that the survivor takes the job in time on a machine the whole suite shares.
            let result = Task { try await rig.scan(photo, deadlineIn: WorkerRig.patience) }
            try await eventually { rig.stub.snapshot.requests == 1 }
            // Killed: its task ends without acknowledging, and its connections close under it.
            doomedRun.cancel()
            _ = await doomedRun.result
            let survivor = try await rig.worker()
            return try await whileRunning([survivor]) { (try await result.value, rig.stub.snapshot.requests) }
        }
        #expect(result.failureCode == nil, "\(result)")
        #expect(requests == 2)
    }

    // The latency is long enough that the last job reaches the stub before the first leaves it even when the whole
    // suite shares the two cores. How many were at the stub at once is the proof; how long they took is not, as the
    // suite's other tests share this process's two cooperative threads and can hold both for many seconds: the
    // model's answer and each job's deadline have minutes, so that a busy machine makes the test slower, not a failure.
    @Test("with stub latency 6 s and WORKER_CONCURRENCY 64, 64 jobs run side by side, not one after another")
    func jobsRunConcurrently() async throws {
        let (results, maxInFlight) = try await WorkerRig.run(
            behaviour: StubBehaviour(latencyMilliseconds: 6000),
            concurrency: 64,
            environment: ["OPENAI_TIMEOUT_SECONDS": "300"]
        ) { rig in
            let results = try await withThrowingTaskGroup(of: ScanOutcome.self) { group in
                for seed in 0..<64 {
                    group.addTask { try await rig.scan(SyntheticJPEG.make(size: 4096, seed: UInt64(seed)), deadlineIn: .seconds(300)) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            return (results, rig.stub.snapshot.maxInFlight)
        }
        #expect(results.allSatisfy { $0.failureCode == nil }, "\(results.compactMap(\.failureCode))")
        // Half of them at the stub at once at least: on a machine the whole suite shares, the last jobs can reach the
        // stub after the first have left it. One after another, at most one would be.
        #expect(maxInFlight >= 32, "at most \(maxInFlight) jobs at the stub at once")
    }

    @Test("on graceful shutdown a worker finishes the job in flight, records it, acknowledges, then stops")
    func gracefulShutdownFinishesInFlight() async throws {
        let (result, requests, left) = try await WorkerRig.run(behaviour: StubBehaviour(latencyMilliseconds: 1500), workers: 0) { rig in
            let worker = try await rig.worker()
            let group = ServiceGroup(configuration: .init(services: [worker], logger: testLogger))
            let running = Task { try await group.run() }
            let result = Task { try await rig.scan(photo) }
            try await eventually { rig.stub.snapshot.requests == 1 }
            await group.triggerGracefulShutdown()
            try await running.value
            // Stopped, the worker holds nothing: a job it had not acknowledged would be back in the queue.
            return (try await result.value, rig.stub.snapshot.requests, try await rig.messages(in: rig.queue))
        }
        #expect(result.failureCode == nil, "\(result)")
        #expect(requests == 1)
        #expect(left == 0, "the job was not acknowledged")
    }
}
