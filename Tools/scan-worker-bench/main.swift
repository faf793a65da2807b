import Foundation
import FoundationNetworking
import KiwiBenchmarking
import KiwiConcurrency
import KiwiConfiguration
import KiwiDatabase
import KiwiDevelopment
import KiwiJPEG
import KiwiMessaging
import KiwiScanMessages
import KiwiScanStore
import KiwiScans
import KiwiTopology
import Logging
import PostgresNIO
import Synchronization

// kiwi-scan-worker-bench: scan jobs per second through a real kiwi-scan-worker process, against kiwi-llm-stub at
// zero latency, for 256 KiB and 1 MiB photos at concurrency 16 and 64; the worker's CPU time per job and peak RSS
// come from /proc. Both programs are started from this program's own folder (build them with it). Each job's scan is
// reserved in PostgreSQL first, as the gateway does, and is done when the worker announces its outcome (the worker
// records it before). Asserts nothing.

let environment = ProcessInfo.processInfo.environment
let amqpURL = EnvironmentReader().string("AMQP_URL", default: LocalStack.amqpURL)
let databaseURL = EnvironmentReader().string("DATABASE_URL", default: LocalStack.databaseURL)
/// The user every bench scan belongs to; its scans are deleted after each row.
let benchUser = UUID()
let jobsPerRun = environment["BENCH_JOBS"].flatMap(Int.init) ?? 2000
let stubPort = 18089
let workerPort = 18082
let binaries = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
let logger: Logger = {
    var logger = Logger(label: "kiwi-scan-worker-bench")
    logger.logLevel = .warning
    return logger
}()

/// A child process of one of the Kiwi executables, stopped with SIGTERM. Unchecked Sendable: after `init` only
/// its process id is read, from any task.
final class Child: @unchecked Sendable {
    let process = Process()

    init(_ name: String, arguments: [String] = [], environment extra: [String: String] = [:]) throws {
        process.executableURL = binaries.appending(path: name)
        process.arguments = arguments
        process.environment = environment.merging(extra) { _, new in new }
        process.standardOutput = FileHandle.nullDevice
        try process.run()
    }

    /// Seconds of CPU (user + system) the process has used.
    var cpuSeconds: Double { ProcessUsage(pid: process.processIdentifier).cpuSeconds }

    /// The peak resident set size in MiB.
    var peakRSSMiB: Double { Double(ProcessUsage(pid: process.processIdentifier).peakRSSBytes) / 1_048_576 }

    func stop() {
        process.terminate()
        process.waitUntilExit()
    }
}

/// Waits until `GET http://127.0.0.1:PORT/health` answers 200.
func waitHealthy(port: Int) async throws {
    for _ in 0..<300 {
        if let (_, response) = try? await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(port)/health")!),
            (response as? HTTPURLResponse)?.statusCode == 200
        {
            return
        }
        try await sleep(for: .milliseconds(100))
    }
    throw CancellationError()
}

struct Row {
    var size: Int
    var concurrency: Int
    var jobs: Int
    var failures: Int
    var seconds: Double
    var cpuSeconds: Double
    var peakRSSMiB: Double
    var latencies: [Duration]
}

/// Waits for the workers' announcements of finished scans.
final class Outcomes: Sendable {
    private let waiting = Mutex<[UUID: CheckedContinuation<Bool, Never>]>([:])

    /// Whether scan `id` succeeded, once announced final; false after `timeout` without news.
    func wait(for id: UUID, timeout: Duration, after start: @escaping @Sendable () async throws -> Void) async -> Bool {
        let timer = Task {
            try await sleep(for: timeout)
            self.settle(id, succeeded: false)
        }
        defer { timer.cancel() }
        return await withCheckedContinuation { continuation in
            waiting.withLock { $0[id] = continuation }
            Task {
                do { try await start() } catch { self.settle(id, succeeded: false) }
            }
        }
    }

    func settle(_ id: UUID, succeeded: Bool) {
        waiting.withLock { $0.removeValue(forKey: id) }?.resume(returning: succeeded)
    }
}

/// One worker process at `concurrency`, fed `jobsPerRun` jobs of `size` bytes with twice its concurrency in flight,
/// so its prefetch is always full.
func run(size: Int, concurrency: Int, postgres: PostgresClient) async throws -> Row {
    let queue = "kiwi.bench.scan-jobs.\(UUID().uuidString.lowercased())"
    let worker = try Child(
        "kiwi-scan-worker",
        environment: [
            "DATABASE_URL": databaseURL, "AMQP_URL": amqpURL, "OPENAI_API_KEY": "sk-bench", "OPENAI_BASE_URL": "http://127.0.0.1:\(stubPort)/v1",
            "WORKER_CONCURRENCY": "\(concurrency)", "SCAN_JOB_QUEUE": queue, "PORT": "\(workerPort)", "METRICS_PORT": "\(workerPort + 1)",
            "LOG_LEVEL": "warning",
        ]
    )
    defer { worker.stop() }
    try await waitHealthy(port: workerPort)
    let settings = try AMQPSettings(url: amqpURL, connectionName: "kiwi-scan-worker-bench")
    let publisher = AMQPPublisher(settings: settings, topology: KiwiTopology.scanJobs(queue: queue).merging(KiwiTopology.scanEvents), logger: logger)
    // The gateway the bench stands in for, which its jobs name, as a real gateway's do.
    let gateway = "bench-\(UUID().uuidString.lowercased())"
    let events = AMQPConsumer.scanEvents(settings: settings, instance: gateway, logger: logger)
    let outcomes = Outcomes()
    let photos = (0..<16).map { SyntheticJPEG.make(size: size, seed: UInt64($0)) }
    return try await whileRunning([publisher, events]) {
        await publisher.waitUntilConnected()
        await events.waitUntilConnected()
        let listening = Task {
            for await delivery in events.deliveries {
                guard let event = ScanEvent(message: delivery.message), !event.state.isOpen else { continue }
                outcomes.settle(event.scanID, succeeded: event.state == .succeeded)
            }
        }
        defer { listening.cancel() }
        @Sendable func scan(_ index: Int) async -> (Bool, Duration) {
            let started = ContinuousClock.now
            let deadline = Date().addingTimeInterval(120)
            let reserved = QueuedScan(
                userID: benchUser,
                quotaKey: Data(repeating: 0xBE, count: 32),
                day: "2026-01-01",
                idempotencyKey: nil,
                photoSHA256: Data(repeating: 0, count: 32),
                deadline: deadline
            )
            let ok = await outcomes.wait(for: reserved.id, timeout: .seconds(120)) {
                try await ScanTransitionStore(client: postgres, logger: logger).insertQueued(reserved)
                let job = ScanJob(
                    scanID: reserved.id,
                    photos: [photos[index % photos.count]],
                    deadline: deadline,
                    requestID: nil,
                    userKey: "bench",
                    gateway: gateway
                )
                try await publisher.publishJob(job.message(sealingWith: reserved.photoKey), to: queue)
            }
            return (ok, ContinuousClock.now - started)
        }
        for index in 0..<concurrency { _ = await scan(index) }  // warm up: connections, caches
        let cpuBefore = worker.cpuSeconds
        let started = ContinuousClock.now
        let results = await withTaskGroup(of: (Bool, Duration).self) { group in
            var next = 0
            var results: [(Bool, Duration)] = []
            for _ in 0..<min(2 * concurrency, jobsPerRun) {
                let index = next
                group.addTask { await scan(index) }
                next += 1
            }
            for await result in group {
                results.append(result)
                if next < jobsPerRun {
                    let index = next
                    group.addTask { await scan(index) }
                    next += 1
                }
            }
            return results
        }
        let seconds = (ContinuousClock.now - started) / .seconds(1)
        try await postgres.execute("DELETE FROM scans WHERE user_id = \(benchUser)", logger: logger)
        return Row(
            size: size,
            concurrency: concurrency,
            jobs: results.count,
            failures: results.filter { !$0.0 }.count,
            seconds: seconds,
            cpuSeconds: worker.cpuSeconds - cpuBefore,
            peakRSSMiB: worker.peakRSSMiB,
            latencies: results.map(\.1)
        )
    }
}

func format(_ value: Double, _ digits: Int = 1) -> String { String(format: "%.\(digits)f", value) }

let stub = try Child("kiwi-llm-stub", arguments: ["--port", "\(stubPort)", "--time-to-first-token-ms", "0", "--tokens-per-second", "0"])
defer { stub.stop() }
try await waitHealthy(port: stubPort)
let postgres = PostgresClient(configuration: try PostgresClient.Configuration(url: databaseURL), backgroundLogger: logger)
let postgresRun = Task { await postgres.run() }
defer { postgresRun.cancel() }
_ = try await DatabaseMigrator().migrate(postgres, logger: logger)
print("kiwi-scan-worker-bench: \(jobsPerRun) jobs per row, stub latency 0, \(ProcessInfo.processInfo.activeProcessorCount) CPUs")
print("| photo | concurrency | jobs/s | failures | p50 ms | p99 ms | worker CPU ms/job | worker peak RSS MiB | stub CPU ms/job |")
print("|---|---|---|---|---|---|---|---|---|")
for size in [256 * 1024, 1024 * 1024] {
    for concurrency in [16, 64] {
        let stubBefore = stub.cpuSeconds
        let row = try await run(size: size, concurrency: concurrency, postgres: postgres)
        let stubCPU = stub.cpuSeconds - stubBefore
        let latency = LatencySummary(row.latencies)
        print(
            "| \(size / 1024) KiB | \(concurrency) | \(format(Double(row.jobs) / row.seconds)) | \(row.failures) | \(format(latency.p50)) | \(format(latency.p99)) | "
                + "\(format(row.cpuSeconds * 1000 / Double(row.jobs), 2)) | \(format(row.peakRSSMiB)) | \(format(stubCPU * 1000 / Double(row.jobs + concurrency), 2)) |"
        )
    }
}
