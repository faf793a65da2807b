import Foundation
import KiwiDevelopment
import KiwiMessaging
import KiwiScanJobs
import KiwiServiceSupport
import KiwiTestSupport
import Logging
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

/// A worker's configuration for a test: the test broker, the test's stub, its own job queue and connection name.
func workerConfiguration(
    stub: URL,
    queue: String,
    concurrency: Int,
    name: String = "kiwi-test-worker-\(UUID().uuidString.prefix(8))"
)
    throws -> ScanWorkerConfiguration
{
    var configuration = try ScanWorkerConfiguration(environment: [
        "AMQP_URL": try testAMQPURL(), "OPENAI_API_KEY": "sk-test", "OPENAI_BASE_URL": stub.absoluteString,
        "WORKER_CONCURRENCY": "\(concurrency)", "OPENAI_TIMEOUT_SECONDS": "30", "SCAN_JOB_QUEUE": queue,
    ])
    configuration.basics.port = 0
    configuration.amqp.connectionName = name
    return configuration
}

/// A worker (built by the same `buildApplication` as the executable) on a job queue of its own, with its own stub,
/// and a requester standing in for the gateway.
struct WorkerRig: Sendable {
    let stub: StubState
    let stubURL: URL
    let queue: String
    let requester: AMQPRequester

    /// Runs the rig while `body` runs. `workers` in-process workers consume the queue (0 lets a test start its own).
    static func run<Result: Sendable>(
        behaviour: StubBehaviour = StubBehaviour(),
        concurrency: Int = 4,
        workers: Int = 1,
        _ body: @Sendable (WorkerRig) async throws -> Result
    ) async throws -> Result {
        try await withLLMStub(behaviour: behaviour) { stubURL, stub in
            let queue = "kiwi.test.scan-jobs.\(UUID().uuidString.lowercased())"
            let settings = try AMQPSettings(url: try testAMQPURL(), connectionName: "kiwi-test-gateway-\(UUID().uuidString.prefix(8))")
            let requester = AMQPRequester(settings: settings, topology: KiwiTopology.scanJobs(queue: queue), logger: testLogger)
            var services: [any Service] = [requester]
            for _ in 0..<workers {
                services.append(
                    try await buildApplication(
                        configuration: try workerConfiguration(stub: stubURL, queue: queue, concurrency: concurrency),
                        logger: testLogger
                    )
                )
            }
            return try await whileRunning(services) {
                await requester.waitUntilConnected()
                return try await body(WorkerRig(stub: stub, stubURL: stubURL, queue: queue, requester: requester))
            }
        }
    }

    /// Sends a job as the gateway does and waits for its result.
    func scan(_ jpeg: [UInt8], deadlineIn timeout: Duration = .seconds(20)) async throws -> ScanJobResult {
        let deadline = Date().addingTimeInterval(timeout.seconds)
        let job = ScanJob(image: jpeg, deadline: deadline, requestID: "req-\(UUID().uuidString.prefix(8))", userKey: testUserKey)
        return try await ScanJobSender(requester: requester, jobQueue: queue).send(job, timeout: timeout + .seconds(2)).result
    }

    /// How many messages `queue` holds: consumed (and requeued) for `window`, with no worker running.
    func messages(in queue: String, window: Duration = .milliseconds(500)) async throws -> Int {
        let consumer = AMQPConsumer(
            settings: try AMQPSettings(url: try testAMQPURL(), connectionName: "kiwi-test-inspector"),
            queue: queue,
            prefetch: 100,
            logger: testLogger
        )
        return try await whileRunning([consumer]) {
            let seen = Locked(0)
            let counting = Task {
                for await delivery in consumer.deliveries {
                    seen.withLock { $0 += 1 }
                    try? await delivery.nack(requeue: true)
                }
            }
            try await Task.sleep(for: window)
            counting.cancel()
            return seen.withLock { $0 }
        }
    }

    /// A worker for this rig's queue and stub, for tests that start, stop or kill workers themselves.
    func worker(concurrency: Int = 4) async throws -> some Service {
        try await buildApplication(configuration: try workerConfiguration(stub: stubURL, queue: queue, concurrency: concurrency), logger: testLogger)
    }
}

extension ScanJobResult {
    /// The failure code, or nil for a success.
    var failureCode: ScanFailure.Code? {
        if case .error(let failure) = self { return failure.code }
        return nil
    }
}

/// Waits until `condition` holds, checking every 20 ms for at most `timeout`.
func eventually(timeout: Duration = .seconds(10), _ condition: () -> Bool) async throws {
    let deadline = ContinuousClock.now + timeout
    while !condition() {
        try #require(ContinuousClock.now < deadline, "condition not met within \(timeout)")
        try await Task.sleep(for: .milliseconds(20))
    }
}
