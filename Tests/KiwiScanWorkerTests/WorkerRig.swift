import Foundation
import KiwiDatabase
import KiwiDevelopment
import KiwiMessaging
import KiwiModels
import KiwiScanMessages
import KiwiScanStore
import KiwiScans
import KiwiServiceSupport
import KiwiTestSupport
import KiwiTopology
import Logging
import PostgresNIO
import ServiceLifecycle
import Testing

@testable import KiwiLLMStub
@testable import KiwiScanWorker

let testLogger: Logger = {
    var logger = Logger(label: "test.scan-worker")
    logger.logLevel = .error
    return logger
}()

/// A pseudonymous user key, as the gateway derives it.
let testUserKey = ScanJob.userKey(forUserID: "3f2504e0-4f89-41d3-9a0c-0305e82c3301")

/// A worker's configuration for a test: the test's database, the test broker, the test's stub, its own job queue
/// and connection name.
func workerConfiguration(
    database: PostgresClient.Configuration,
    stub: URL,
    queue: String,
    concurrency: Int,
    name: String = "kiwi-test-worker-\(UUID().uuidString.prefix(8))",
    environment: [String: String] = [:]
)
    throws -> ScanWorkerConfiguration
{
    var configuration = try ScanWorkerConfiguration(
        environment: [
            "DATABASE_URL": try testDatabaseURL(), "AMQP_URL": try testAMQPURL(), "OPENAI_API_KEY": "sk-test",
            "OPENAI_BASE_URL": stub.absoluteString, "WORKER_CONCURRENCY": "\(concurrency)", "OPENAI_TIMEOUT_SECONDS": "30",
            "SCAN_JOB_QUEUE": queue,
        ].merging(environment) { $1 }
    )
    configuration.database = database
    configuration.basics.port = 0
    configuration.amqp.connectionName = name
    return configuration
}

/// A worker (built by the same `buildApplication` as the executable) on a job queue of its own, with its own stub
/// and database, and what stands in for the gateway: scans reserved in the database, jobs published, and the scan
/// events the workers announce collected.
struct WorkerRig: Sendable {
    let stub: StubState
    let stubURL: URL
    let queue: String
    let database: PostgresClient.Configuration
    let postgres: PostgresClient
    let publisher: AMQPPublisher
    /// The gateway the rig stands in for, which its jobs name: the workers' news reaches the rig only if routed to it.
    let gateway: String
    private let announced: Locked<[ScanEvent]>
    /// Each reserved scan's photo key, as its row holds it.
    private let photoKeys = Locked<[UUID: PhotoKey]>([:])

    /// Runs the rig while `body` runs. `workers` in-process workers consume the queue (0 lets a test start its own),
    /// configured with `environment` over the rig's.
    static func run<Result: Sendable>(
        behaviour: StubBehaviour = StubBehaviour(),
        concurrency: Int = 4,
        workers: Int = 1,
        environment: [String: String] = [:],
        _ body: @Sendable (WorkerRig) async throws -> Result
    ) async throws -> Result {
        let database = try await migratedTestDatabase.value
        return try await withLLMStub(behaviour: behaviour) { stubURL, stub in
            try await withClient(database) { postgres in
                let queue = "kiwi.test.scan-jobs.\(UUID().uuidString.lowercased())"
                let settings = try AMQPSettings(url: try testAMQPURL(), connectionName: "kiwi-test-gateway-\(UUID().uuidString.prefix(8))")
                let publisher = AMQPPublisher(
                    settings: settings,
                    topology: KiwiTopology.scanJobs(queue: queue).merging(KiwiTopology.scanEvents),
                    logger: testLogger
                )
                let gateway = "test-\(UUID().uuidString.lowercased())"
                let events = AMQPConsumer.scanEvents(settings: settings, instance: gateway, logger: testLogger)
                var services: [any Service] = [publisher, events]
                for _ in 0..<workers {
                    services.append(
                        try await buildApplication(
                            configuration: try workerConfiguration(
                                database: database,
                                stub: stubURL,
                                queue: queue,
                                concurrency: concurrency,
                                environment: environment
                            ),
                            logger: testLogger
                        )
                    )
                }
                let announced = Locked<[ScanEvent]>([])
                return try await whileRunning(services) {
                    let collecting = Task {
                        for await delivery in events.deliveries {
                            if let event = ScanEvent(message: delivery.message) { announced.withLock { $0.append(event) } }
                        }
                    }
                    defer { collecting.cancel() }
                    await publisher.waitUntilConnected()
                    await events.waitUntilConnected()
                    let rig = WorkerRig(
                        stub: stub,
                        stubURL: stubURL,
                        queue: queue,
                        database: database,
                        postgres: postgres,
                        publisher: publisher,
                        gateway: gateway,
                        announced: announced
                    )
                    return try await body(rig)
                }
            }
        }
    }

    /// The test database (`make test`'s), migrated once for all the worker tests, and its nutrition table indexed once
    /// for every worker of this process (``FoodTableLoader`` keeps an index by its table's fingerprint): each scan is
    /// one of its own, so tests share the database without seeing each other, and a worker starts without building the
    /// index again while dozens of others start beside it.
    private static let migratedTestDatabase = Task {
        let database = try PostgresClient.Configuration(url: try testDatabaseURL())
        try await withClient(database) { client in
            _ = try await DatabaseMigrator().migrate(client, logger: testLogger)
            _ = try await FoodTableLoader(client: client).estimator(logger: testLogger)
        }
        return database
    }

    /// How long a test waits for a scan that should succeed: far above what one takes (a second or two), so that a
    /// machine busy with the whole suite makes a test slower, not a failure. Tests of a deadline set their own.
    static let patience = Duration.seconds(60)

    /// Reserves a scan as the gateway does (a `queued` record) and returns its job, due `timeout` from now.
    func reserve(_ jpeg: [UInt8], deadlineIn timeout: Duration = patience) async throws -> ScanJob {
        let deadline = Date().addingTimeInterval(timeout.seconds)
        let scan = QueuedScan(
            userID: UUID(),
            quotaKey: Data(repeating: 7, count: 32),
            day: "2026-11-23",
            idempotencyKey: nil,
            photoSHA256: Data(repeating: 1, count: 32),
            deadline: deadline
        )
        try await ScanTransitionStore(client: postgres, logger: testLogger).insertQueued(scan)
        photoKeys.withLock { $0[scan.id] = scan.photoKey }
        return ScanJob(
            scanID: scan.id,
            photos: [jpeg],
            deadline: deadline,
            requestID: "req-\(UUID().uuidString.prefix(8))",
            userKey: testUserKey,
            gateway: gateway
        )
    }

    /// Publishes `job` to the rig's queue, as the gateway does.
    func submit(_ job: ScanJob) async throws {
        try await publisher.publishJob(try message(of: job), to: queue)
    }

    /// `job`'s message, its photos sealed under its scan's key, as the gateway sends it.
    func message(of job: ScanJob) throws -> AMQPMessage {
        try job.message(sealingWith: try #require(photoKeys.withLock { $0[job.scanID] }))
    }

    /// Reserves a scan, sends its job as the gateway does, and waits until a worker recorded its outcome.
    func scan(_ jpeg: [UInt8], deadlineIn timeout: Duration = patience) async throws -> ScanOutcome {
        let job = try await reserve(jpeg, deadlineIn: timeout)
        try await submit(job)
        return try await outcome(of: job.scanID, within: timeout + .seconds(5))
    }

    /// The scan's record: its state, and its result or failure.
    func record(of scanID: UUID) async throws -> (state: ScanState, result: ScanOutcome?) {
        let rows = try await postgres.query(
            "SELECT state, result::text, error_code, COALESCE(error_message, '') FROM scans WHERE id = \(scanID)",
            logger: testLogger
        )
        for try await (state, result, code, message) in rows.decode((String, String?, String?, String).self) {
            let state = try #require(ScanState(rawValue: state))
            switch state {
            case .queued, .running: return (state, nil)
            case .succeeded:
                return (state, .ok(try KiwiJSON.decoder().decode(ScanResponse.self, from: Data(try #require(result).utf8))))
            case .failed: return (state, .error(ScanFailure(try #require(code.flatMap(ScanFailure.Code.init(rawValue:))), message)))
            }
        }
        throw ScanMissing()
    }

    /// How many partials the scan's record stored in all (they are dropped once it is final; the count stays).
    func partialCount(of scanID: UUID) async throws -> Int {
        let rows = try await postgres.query("SELECT partial_count FROM scans WHERE id = \(scanID)", logger: testLogger)
        for try await count in rows.decode(Int.self) { return count }
        throw ScanMissing()
    }

    /// How many seconds after its deadline the scan's record last changed (negative: before it), by the database's clock.
    func recordedAfterDeadline(_ scanID: UUID) async throws -> Double {
        let rows = try await postgres.query(
            "SELECT extract(epoch FROM updated_at - deadline)::float8 FROM scans WHERE id = \(scanID)",
            logger: testLogger
        )
        for try await lateness in rows.decode(Double.self) { return lateness }
        throw ScanMissing()
    }

    /// Waits until the scan is final and returns its outcome.
    func outcome(of scanID: UUID, within timeout: Duration) async throws -> ScanOutcome {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let result = try await record(of: scanID).result { return result }
            try #require(ContinuousClock.now < deadline, "scan \(scanID) still open after \(timeout)")
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// The states announced for `scanID` so far, in order.
    func announcements(of scanID: UUID) -> [ScanState] {
        announced.withLock { $0.filter { $0.scanID == scanID }.map(\.state) }
    }

    /// How many messages `queue` holds, as the broker counts them (a passive declare): all of them once no worker runs,
    /// for the broker then holds none delivered and unacknowledged.
    func messages(in queue: String) async throws -> Int {
        try await publisher.readyMessageCount(of: queue)
    }

    /// A worker for this rig's queue, stub and database, for tests that start, stop or kill workers themselves.
    func worker(concurrency: Int = 4) async throws -> some Service {
        try await buildApplication(
            configuration: try workerConfiguration(database: database, stub: stubURL, queue: queue, concurrency: concurrency),
            logger: testLogger
        )
    }
}

/// The scan has no record.
struct ScanMissing: Error {}

extension ScanOutcome {
    /// The failure code, or nil for a success.
    var failureCode: ScanFailure.Code? {
        if case .error(let failure) = self { return failure.code }
        return nil
    }
}
