import AsyncHTTPClient
import Foundation
import KiwiBenchmarking
import KiwiConcurrency
import KiwiConfiguration
import KiwiDatabase
import KiwiDevelopment
import KiwiMessaging
import KiwiScanMessages
import KiwiScanStore
import KiwiScans
import KiwiTopology
import Logging
import NIOCore
import NIOHTTP1
import PostgresNIO
import ServiceLifecycle
import Synchronization

// kiwi-floor-bench: what each of Kiwi's processes costs when asked for no more than a scan asks of it, against what
// it cost in scenario A of the same run (A_REPORT, kiwi-loadtest's JSON: its rate is the floors' rate, and each
// process's CPU per scan is set beside its floor). PostgreSQL and RabbitMQ are asked through Kiwi's own clients but
// without Kiwi's work: trivial statements in place of a scan's, and a scan's messages with nobody doing anything with
// them. The gateway's floor is `kiwi-gateway-floor` (GATEWAY_FLOOR_URL, GATEWAY_FLOOR_PID) reading the same uploads A
// sent; the worker's is `kiwi-worker-floor` (WORKER_FLOOR_PID) taking the same photos from WORKER_FLOOR_QUEUE and
// sending A's model request with each to the stub (STUB_URL), whose count of requests says when the last is done.
// With B_REPORT (scenario B's JSON), the latency floor too: B's lanes each running a scan's commits and confirmed
// publishes one after the other, the model a 2 s sleep, as `kiwi-floor-bench` alone would, beside B's gateway-added
// latency. Every CPU figure is read from /proc, so run it against a stack nothing else is using. Prints tables;
// asserts nothing.

var environment = EnvironmentReader()
let databaseURL = environment.string("DATABASE_URL", default: LocalStack.databaseURL)
let amqpURL = environment.string("AMQP_URL", default: LocalStack.amqpURL)
/// A leg's length, in seconds.
let seconds = environment.value("FLOOR_SECONDS", default: 20, parse: positiveNumber)
let scenarioA = environment.required("A_REPORT", parse: ScenarioReport.init(path:))
let scenarioB = environment.value("B_REPORT", default: LatencyReport?.none) { try LatencyReport(path: $0) }
/// Scenario B's lanes, each waiting for its scan's answer before starting the next.
let latencyLanes = environment.int("B_LANES", default: 32, in: 1...256)
/// Scenario A's rate unless given: a process's CPU per message depends on the rate, since at a lower one each wake-up
/// serves fewer messages.
let givenScansPerSecond = environment.value("FLOOR_SCANS_PER_SECOND", default: Double?.none) { try positiveNumber($0) }
let postgresPID = environment.required("POSTGRES_PID", parse: processID)
let rabbitMQPID = environment.required("RABBITMQ_PID", parse: processID)
let gatewayFloorURL = environment.required("GATEWAY_FLOOR_URL")
let gatewayFloorPID = environment.required("GATEWAY_FLOOR_PID", parse: processID)
let workerFloorPID = environment.required("WORKER_FLOOR_PID", parse: processID)
let workerFloorQueue = environment.string("WORKER_FLOOR_QUEUE", default: "kiwi.floor-bench.worker-jobs")
let stubURL = environment.required("STUB_URL")
/// The uploads and photos of scenario A: `kiwi-loadtest`'s, 256 KiB, cycling through 8.
let photoSize = environment.int("FLOOR_PHOTO_BYTES", default: 256 * 1024, in: 1...2 * 1024 * 1024)

/// What `kiwi-loadtest --json` wrote about a scenario: its rate and each process's CPU.
struct ScenarioReport: Decodable {
    struct Process: Decodable {
        var name: String
        var cpuSeconds: Double
    }

    var scansFinishedInWindow: Int
    var durationSeconds: Double
    var processes: [Process]

    init(path: String) throws {
        self = try JSONDecoder().decode(Self.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
    }

    var scansPerSecond: Double { Double(scansFinishedInWindow) / durationSeconds }

    /// CPU ms per scan of the processes whose names start with `prefix` (the workers are `kiwi-scan-worker-N`).
    func cpuMillisecondsPerScan(_ prefix: String) -> Double {
        processes.filter { $0.name.hasPrefix(prefix) }.reduce(0) { $0 + $1.cpuSeconds } * 1000 / Double(max(1, scansFinishedInWindow))
    }
}

/// What `kiwi-loadtest --json` wrote about scenario B: the latency Kiwi added to the model's.
struct LatencyReport: Decodable {
    var gatewayAddedMs: LatencySummary

    init(path: String) throws {
        self = try JSONDecoder().decode(Self.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
    }
}

func positiveNumber(_ text: String) throws -> Double {
    guard let number = Double(text), number > 0 else { throw ConfigurationError.Reason("must be a number above 0") }
    return number
}

func processID(_ text: String) throws -> Int32 {
    guard let pid = Int32(text), pid > 0 else { throw ConfigurationError.Reason("must be the server's process id") }
    return pid
}

let logger: Logger = {
    var logger = Logger(label: "kiwi-floor-bench")
    logger.logLevel = .warning
    return logger
}()

/// CPU seconds the process tree `pid` spends while `body` runs, with what `body` returns.
func cpuSeconds<Value>(of pid: Int32, _ body: () async throws -> Value) async rethrows -> (Double, Value) {
    let before = ProcessUsage(pid: pid, includingChildren: true).cpuSeconds
    let value = try await body()
    return (ProcessUsage(pid: pid, includingChildren: true).cpuSeconds - before, value)
}

func format(_ value: Double, _ digits: Int) -> String { String(format: "%.\(digits)f", value) }

// MARK: - PostgreSQL

/// A statement of one `int8` binding that answers one `int8`.
protocol OneNumberStatement: PostgresPreparedStatement where Row == Int64 {
    var number: Int64 { get }
}

extension OneNumberStatement {
    func makeBindings() -> PostgresBindings {
        var bindings = PostgresBindings()
        bindings.append(number)
        return bindings
    }
}

/// A read that touches no table: what any statement costs (the protocol, a snapshot, the executor).
struct ReadStatement: OneNumberStatement {
    static let sql = "SELECT $1::int8"
    let number: Int64
}

/// A write of one row, committed on its own: what any statement that changes something costs (and its WAL flush).
struct WriteStatement: OneNumberStatement {
    static let sql = "UPDATE kiwi_floor_bench SET n = n + 1 WHERE id = $1 RETURNING n"
    let number: Int64
}

/// Runs the statements `statement(n)` gives from `lanes` lanes for `seconds`, each lane waiting for its answer before
/// the next; the number run.
func run<Statement: OneNumberStatement>(
    lanes: Int,
    on client: PostgresClient,
    _ statement: @escaping @Sendable (Int) -> Statement
) async throws -> Int {
    let end = ContinuousClock.now + .seconds(seconds)
    return try await withThrowingTaskGroup(of: Int.self) { group in
        for lane in 0..<lanes {
            group.addTask {
                var count = 0
                while ContinuousClock.now < end {
                    try await execute(statement(lane + lanes * count), on: client)
                    count += 1
                }
                return count
            }
        }
        return try await group.reduce(0, +)
    }
}

/// Runs `statement` and reads its row.
func execute(_ statement: some OneNumberStatement, on client: PostgresClient) async throws {
    for try await _ in try await client.execute(statement, logger: logger) {}
}

/// What `body` returns, run with the table ``WriteStatement`` updates made afresh with `rows` rows, and dropped after.
func withFloorTable<Result>(rows: Int, on client: PostgresClient, _ body: () async throws -> Result) async throws -> Result {
    try await client.execute("DROP TABLE IF EXISTS kiwi_floor_bench", logger: logger)
    try await client.execute("CREATE TABLE kiwi_floor_bench (id int8 PRIMARY KEY, n int8 NOT NULL)", logger: logger)
    try await client.execute("INSERT INTO kiwi_floor_bench SELECT g, 0 FROM generate_series(0, \(rows - 1)) AS g", logger: logger)
    let result = try await body()
    try await client.execute("DROP TABLE kiwi_floor_bench", logger: logger)
    return result
}

/// PostgreSQL's CPU ms per read and per write of 16 lanes, and how many of each it ran a second.
func postgresFloor(serverPID: Int32) async throws -> (read: Double, write: Double, readsPerSecond: Double, writesPerSecond: Double) {
    let client = PostgresClient(configuration: try PostgresClient.Configuration(url: databaseURL), backgroundLogger: logger)
    let (rows, lanes) = (10_000, 16)
    return try await whileRunning([client]) {
        try await withFloorTable(rows: rows, on: client) {
            let (readCPU, reads) = try await cpuSeconds(of: serverPID) {
                try await run(lanes: lanes, on: client) { ReadStatement(number: Int64($0)) }
            }
            let (writeCPU, writes) = try await cpuSeconds(of: serverPID) {
                try await run(lanes: lanes, on: client) { WriteStatement(number: Int64($0 % rows)) }
            }
            return (readCPU * 1000 / Double(reads), writeCPU * 1000 / Double(writes), Double(reads) / seconds, Double(writes) / seconds)
        }
    }
}

/// A scan's statements (docs/decisions.md, "A scan's round trips"): the gateway's usage, profile and final read,
/// and the three that write: the reservation, `running`, the outcome.
enum ScanStatements {
    static let reads = 3
    static let writes = 3
}

// MARK: - RabbitMQ

/// A scan's links to RabbitMQ as Kiwi has them, on queues and an exchange of the bench's own: the gateway's publisher
/// of jobs into a job queue declared as the real one (``KiwiTopology/scanJobs(queue:)``); the worker's consumer of it
/// (manual acknowledgements) and publisher of ``ScanEvent``s to an exchange that routes them to one gateway's queue
/// alone, as scan news reaches the gateway that started the scan; that gateway's consumer of its exclusive queue,
/// auto-acknowledged.
struct ScanMessageLinks {
    static let queue = "kiwi.floor-bench.jobs"
    static let exchange = "kiwi.floor-bench.events"
    static let eventsQueue = "kiwi.floor-bench.events.gateway"

    let gateway: AMQPPublisher
    let worker: AMQPConsumer
    let announcer: AMQPPublisher
    let listener: AMQPConsumer

    init() throws {
        let jobs = KiwiTopology.scanJobs(queue: Self.queue)
        // The exclusive queue is declared only by the connection that consumes it; RabbitMQ refuses it to any other.
        let eventExchange = AMQPTopology(exchanges: [AMQPExchange(name: Self.exchange, kind: .fanout)])
        let eventQueue = AMQPTopology(
            exchanges: eventExchange.exchanges,
            queues: [AMQPQueue(name: Self.eventsQueue, durable: false, exclusive: true, autoDelete: true)],
            bindings: [AMQPBinding(queue: Self.eventsQueue, exchange: Self.exchange)]
        )
        func settings(_ role: String) throws -> AMQPSettings { try AMQPSettings(url: amqpURL, connectionName: "kiwi-floor-bench \(role)") }
        gateway = AMQPPublisher(settings: try settings("gateway"), topology: jobs, logger: logger)
        worker = AMQPConsumer(settings: try settings("worker"), queue: Self.queue, prefetch: 64, topology: jobs, logger: logger)
        announcer = AMQPPublisher(settings: try settings("worker events"), topology: eventExchange, logger: logger)
        listener = AMQPConsumer(
            settings: try settings("gateway events"),
            queue: Self.eventsQueue,
            prefetch: 0,
            autoAck: true,
            topology: eventQueue,
            logger: logger
        )
    }

    var services: [any Service] { [gateway, worker, announcer, listener] }

    func waitUntilConnected() async {
        for link in [gateway, announcer] { await link.waitUntilConnected() }
        for link in [worker, listener] { await link.waitUntilConnected() }
    }

    /// Publishes `event` as a worker announces it: confirmed before the worker goes on.
    func announce(_ event: ScanEvent) async throws {
        try await announcer.publish(event.message, exchange: Self.exchange, routingKey: "", mandatory: false)
    }

    /// Scenario A's and B's photo.
    static let photo = SyntheticJPEG.make(size: 256 * 1024, seed: 1)

    /// A job of scan `scanID` as the gateway sends it: its photo sealed.
    static func job(of scanID: UUID) throws -> AMQPMessage {
        try ScanJob(
            scanID: scanID,
            photos: [photo],
            deadline: Date().addingTimeInterval(90),
            requestID: nil,
            userKey: "floor-bench"
        ).message(sealingWith: PhotoKey())
    }
}

/// A scan's messages at `rate` a second, as Kiwi builds them (``ScanMessageLinks``): the gateway's job, confirmed; the
/// worker takes each, announces two events (each confirmed before the next, as a worker does), and acknowledges the
/// job; the gateway receives the events. Returns the broker's CPU ms per scan and the scans.
func rabbitMQFloor(serverPID: Int32, rate: Double) async throws -> (perScan: Double, scans: Int) {
    let links = try ScanMessageLinks()
    let scans = Int(seconds * rate)
    let scanID = UUID()
    let job = try ScanMessageLinks.job(of: scanID)
    let events = [ScanEvent(scanID: scanID, state: .running), ScanEvent(scanID: scanID, state: .succeeded)]
    return try await whileRunning(links.services) {
        await links.waitUntilConnected()
        let (cpu, _) = try await cpuSeconds(of: serverPID) {
            try await withThrowingDiscardingTaskGroup { group in
                group.addTask {
                    try await withThrowingDiscardingTaskGroup { deliveries in
                        var taken = 0
                        for await delivery in links.worker.deliveries {
                            deliveries.addTask {
                                for event in events { try await links.announce(event) }
                                try await delivery.ack()
                            }
                            taken += 1
                            if taken == scans { break }
                        }
                    }
                }
                group.addTask {
                    var heard = 0
                    for await _ in links.listener.deliveries {
                        heard += 1
                        if heard == events.count * scans { break }
                    }
                }
                try await paced(scans, perSecond: rate) { _ in try await links.gateway.publish(job, routingKey: ScanMessageLinks.queue) }
            }
        }
        return (cpu * 1000 / Double(scans), scans)
    }
}

/// The lanes of ``latencyFloor(lanes:)`` waiting for their scans' final events.
final class WaitingLanes: Sendable {
    private let lanes = Mutex<[UUID: AsyncStream<Void>.Continuation]>([:])

    /// What ends once scan `scanID`'s final event has come; wait before publishing its job, so as not to miss it.
    func wait(for scanID: UUID) -> AsyncStream<Void> {
        let (answered, heard) = AsyncStream.makeStream(of: Void.self)
        lanes.withLock { $0[scanID] = heard }
        return answered
    }

    func answered(_ scanID: UUID) {
        lanes.withLock { $0.removeValue(forKey: scanID) }?.finish()
    }
}

/// The latency floor under scenario B: `lanes` lanes each running scans one after the other, a scan being its commits
/// and confirmed publishes in the order Kiwi's critical path has them, and nothing else. The gateway's reads before the
/// reservation, the reservation, the job confirmed; the worker's claim, its `running` event, the model (a 2 s sleep,
/// taken out of the figure as B takes out the model's `Server-Timing`), the outcome and its event; the gateway's final
/// read once the event arrives. The lanes start over 2 s and the scans of the first 5 s are not counted, as B ramps up
/// and warms up. Returns the time each counted scan took beyond the sleep.
func latencyFloor(lanes: Int) async throws -> LatencySummary {
    let model = Duration.seconds(2)
    let (rampUp, warmUp) = (Duration.seconds(2), Duration.seconds(5))
    let client = PostgresClient(configuration: try PostgresClient.Configuration(url: databaseURL), backgroundLogger: logger)
    let links = try ScanMessageLinks()
    let waiting = WaitingLanes()
    @Sendable func write(_ row: Int) async throws { try await execute(WriteStatement(number: Int64(row)), on: client) }
    @Sendable func read(_ row: Int) async throws { try await execute(ReadStatement(number: Int64(row)), on: client) }
    return try await whileRunning(links.services + [client]) {
        await links.waitUntilConnected()
        return try await withFloorTable(rows: lanes, on: client) {
            let start = ContinuousClock.now
            let (counted, end) = (start + warmUp, start + warmUp + .seconds(seconds))
            let latencies = try await withThrowingTaskGroup(of: [Duration].self) { group in
                group.addTask {
                    // The worker: each job claimed, announced, answered after the model's time, recorded and announced.
                    try await withThrowingDiscardingTaskGroup { jobs in
                        for await delivery in links.worker.deliveries {
                            jobs.addTask {
                                let scanID = try SealedScanJob(message: delivery.message).job.scanID
                                let row = Int(scanID.uuid.0) % lanes
                                try await write(row)
                                try await links.announce(ScanEvent(scanID: scanID, state: .running))
                                try await Task.sleep(for: model)
                                try await write(row)
                                try await links.announce(ScanEvent(scanID: scanID, state: .succeeded))
                                try await delivery.ack()
                            }
                        }
                    }
                    return []
                }
                group.addTask {
                    // The gateway's subscription: each final event wakes the lane waiting for its scan.
                    for await delivery in links.listener.deliveries {
                        guard let event = ScanEvent(message: delivery.message), !event.state.isOpen else { continue }
                        waiting.answered(event.scanID)
                    }
                    return []
                }
                return try await withThrowingTaskGroup(of: [Duration].self) { laneGroup in
                    for lane in 0..<lanes {
                        laneGroup.addTask {
                            var taken: [Duration] = []
                            try await Task.sleep(until: start + rampUp * lane / lanes)
                            while ContinuousClock.now < end {
                                let started = ContinuousClock.now
                                var scanID = UUID().uuid
                                scanID.0 = UInt8(lane)
                                let scan = UUID(uuid: scanID)
                                for _ in 1..<ScanStatements.reads { try await read(lane) }
                                try await write(lane)
                                let answered = waiting.wait(for: scan)
                                try await links.gateway.publish(try ScanMessageLinks.job(of: scan), routingKey: ScanMessageLinks.queue)
                                do {
                                    try await withDeadline(.now + .seconds(30)) { for await _ in answered {} }
                                } catch is DeadlineExceededError {
                                    throw FloorError(description: "a scan's final event did not come within 30 s (see RabbitMQ's log)")
                                }
                                try await read(lane)
                                if started >= counted { taken.append(ContinuousClock.now - started - model) }
                            }
                            return taken
                        }
                    }
                    let all = try await laneGroup.reduce(into: []) { $0 += $1 }
                    group.cancelAll()
                    return all
                }
            }
            return LatencySummary(latencies)
        }
    }
}

/// Runs `body(0)` … `body(count - 1)`, each started `1 / rate` s after the one before whether or not it has ended, as
/// an open-loop load does; returns when all have ended.
func paced(_ count: Int, perSecond rate: Double, _ body: @escaping @Sendable (Int) async throws -> Void) async throws {
    try await withThrowingDiscardingTaskGroup { group in
        let start = ContinuousClock.now
        for index in 0..<count {
            try await sleep(until: start + .seconds(Double(index) / rate))
            group.addTask { try await body(index) }
        }
    }
}

struct FloorError: Error, CustomStringConvertible {
    let description: String
}

/// An HTTP client with a connection for each of a scan load's lanes, as the load generator and the worker have.
func makeHTTPClient() -> HTTPClient {
    var configuration = HTTPClient.Configuration()
    configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 64
    return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
}

// MARK: - The gateway

/// The uploads of scenario A at `rate` a second to `kiwi-gateway-floor`, after a second of them unmeasured to open
/// the connections. Returns the floor's CPU ms per upload and the uploads.
func gatewayFloor(serverPID: Int32, url: String, rate: Double) async throws -> (perScan: Double, scans: Int) {
    let http = makeHTTPClient()
    let bodies = (0..<8).map { ByteBuffer(bytes: MultipartUpload.make(SyntheticJPEG.make(size: photoSize, seed: UInt64($0))).body) }
    let contentType = MultipartUpload.envelope().contentType
    @Sendable func upload(_ index: Int) async throws {
        var request = HTTPClientRequest(url: url + "/v1/scan")
        request.method = .POST
        request.headers.add(name: "Content-Type", value: contentType)
        request.body = .bytes(bodies[index % bodies.count])
        let response = try await http.execute(request, timeout: .seconds(30))
        guard response.status == .ok else { throw FloorError(description: "kiwi-gateway-floor answered \(response.status)") }
        _ = try await response.body.collect(upTo: 1 << 20)
    }
    do {
        try await paced(Int(rate), perSecond: rate, upload)
        let uploads = Int(seconds * rate)
        let (cpu, _) = try await cpuSeconds(of: serverPID) { try await paced(uploads, perSecond: rate, upload) }
        try await http.shutdown()
        return (cpu * 1000 / Double(uploads), uploads)
    } catch {
        try? await http.shutdown()
        throw error
    }
}

// MARK: - The worker

/// What the stub's `GET /admin/state` says that the bench needs: how many model requests it has had.
struct StubRequests: Decodable {
    var requests: Int
}

/// The photos of scenario A at `rate` a second, each published with a confirm as a message of its own into the queue
/// `kiwi-worker-floor` consumes, after a second of them unmeasured. The floor's work for a photo has ended when the
/// stub has had its request (and its acknowledgement follows at once). Returns the floor's CPU ms per photo and the
/// photos.
func workerFloor(serverPID: Int32, stub: String, rate: Double) async throws -> (perScan: Double, scans: Int) {
    let http = makeHTTPClient()
    let publisher = AMQPPublisher(
        settings: try AMQPSettings(url: amqpURL, connectionName: "kiwi-floor-bench worker jobs"),
        topology: KiwiTopology.scanJobs(queue: workerFloorQueue),
        logger: logger
    )
    let photos = (0..<8).map {
        AMQPMessage(body: SyntheticJPEG.make(size: photoSize, seed: UInt64($0)), properties: AMQPProperties(persistent: true))
    }
    @Sendable func requestsSeen() async throws -> Int {
        let response = try await http.execute(HTTPClientRequest(url: stub + "/admin/state"), timeout: .seconds(10))
        return try JSONDecoder().decode(StubRequests.self, from: Data(try await response.body.collect(upTo: 16 << 20).readableBytesView)).requests
    }
    /// Publishes `count` photos at the rate and waits until the floor has sent each to the stub.
    @Sendable func feed(_ count: Int) async throws {
        let target = try await requestsSeen() + count
        try await paced(count, perSecond: rate) { index in try await publisher.publish(photos[index % photos.count], routingKey: workerFloorQueue) }
        let deadline = ContinuousClock.now + .seconds(30)
        while try await requestsSeen() < target {
            guard ContinuousClock.now < deadline else { throw FloorError(description: "kiwi-worker-floor did not send every photo to the stub") }
            try await Task.sleep(for: .milliseconds(20))
        }
        try await Task.sleep(for: .milliseconds(200))
    }
    do {
        let result = try await whileRunning([publisher]) {
            await publisher.waitUntilConnected()
            try await feed(Int(rate))
            let scans = Int(seconds * rate)
            let (cpu, _) = try await cpuSeconds(of: serverPID) { try await feed(scans) }
            return (cpu * 1000 / Double(scans), scans)
        }
        try await http.shutdown()
        return result
    } catch {
        try? await http.shutdown()
        throw error
    }
}

// MARK: - The table

do {
    let (a, postgres, rabbitMQ, gatewayURL, gatewayPID, workerPID, stub) = try environment.finish(
        scenarioA,
        postgresPID,
        rabbitMQPID,
        gatewayFloorURL,
        gatewayFloorPID,
        workerFloorPID,
        stubURL
    )
    let rate = givenScansPerSecond ?? a.scansPerSecond
    print("kiwi-floor-bench: \(ProcessInfo.processInfo.activeProcessorCount) CPUs, \(format(seconds, 0)) s a leg at \(format(rate, 1)) scans/s")
    print("")
    let floor = try await postgresFloor(serverPID: postgres)
    let statements = Double(ScanStatements.reads) * floor.read + Double(ScanStatements.writes) * floor.write
    print("| PostgreSQL, 16 lanes, prepared | per second | CPU ms each |")
    print("|---|---|---|")
    print("| a read of nothing (`SELECT $1`) | \(format(floor.readsPerSecond, 0)) | \(format(floor.read, 3)) |")
    print("| a one-row `UPDATE`, committed | \(format(floor.writesPerSecond, 0)) | \(format(floor.write, 3)) |")
    print("| a scan's \(ScanStatements.reads) reads and \(ScanStatements.writes) writes | | \(format(statements, 3)) |")
    print("")
    let broker = try await rabbitMQFloor(serverPID: rabbitMQ, rate: rate)
    let gateway = try await gatewayFloor(serverPID: gatewayPID, url: gatewayURL, rate: rate)
    let worker = try await workerFloor(serverPID: workerPID, stub: stub, rate: rate)
    print("| a scan's part, nothing else, at A's rate | scans | CPU ms per scan |")
    print("|---|---|---|")
    print(
        "| RabbitMQ: 256 KiB job confirmed, delivered, acked; 2 events confirmed, fanned out, delivered | \(broker.scans) | \(format(broker.perScan, 3)) |"
    )
    print("| `kiwi-gateway-floor`: the upload read whole, a 4 KiB answer | \(gateway.scans) | \(format(gateway.perScan, 3)) |")
    print(
        "| `kiwi-worker-floor`: the photo delivered, base64 into A's model request, POSTed, answer read, acked | \(worker.scans) | \(format(worker.perScan, 3)) |"
    )
    print("")
    print("| process | scenario A, CPU ms per scan | its floor | A ÷ floor |")
    print("|---|---|---|---|")
    func row(_ name: String, _ measured: Double, _ floor: Double) {
        print("| \(name) | \(format(measured, 2)) | \(format(floor, 2)) | \(format(measured / floor, 2)) |")
    }
    row("kiwi-gateway", a.cpuMillisecondsPerScan("kiwi-gateway"), gateway.perScan)
    row("kiwi-scan-worker", a.cpuMillisecondsPerScan("kiwi-scan-worker"), worker.perScan)
    row("PostgreSQL", a.cpuMillisecondsPerScan("postgresql"), statements)
    row("RabbitMQ", a.cpuMillisecondsPerScan("rabbitmq"), broker.perScan)
    row(
        "PostgreSQL + RabbitMQ",
        a.cpuMillisecondsPerScan("postgresql") + a.cpuMillisecondsPerScan("rabbitmq"),
        statements + broker.perScan
    )
    print("| kiwi-auth | \(format(a.cpuMillisecondsPerScan("kiwi-auth"), 2)) | | |")
    print("")
    print("Scenario A: \(a.scansFinishedInWindow) scans in \(format(a.durationSeconds, 0)) s (\(format(a.scansPerSecond, 1)) scans/s).")
    if let b = scenarioB {
        let floor = try await latencyFloor(lanes: latencyLanes)
        let added = b.gatewayAddedMs
        print("")
        print("| latency added to a 2 s model, \(latencyLanes) lanes | scans | p50 ms | p99 ms |")
        print("|---|---|---|---|")
        print(
            "| Kiwi, scenario B (end to end less the model's `Server-Timing`) | \(added.count) | \(format(added.p50, 1)) | \(format(added.p99, 1)) |"
        )
        print(
            "| the floor: a scan's commits and confirmed publishes alone, in order | \(floor.count) | \(format(floor.p50, 1)) | \(format(floor.p99, 1)) |"
        )
        print("| B ÷ floor | | \(format(added.p50 / floor.p50, 2)) | \(format(added.p99 / floor.p99, 2)) |")
    }
} catch {
    FileHandle.standardError.write(Data("kiwi-floor-bench: \(error)\n".utf8))
    exit(1)
}
