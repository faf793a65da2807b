import Foundation
import KiwiBenchmarking
import KiwiConcurrency
import KiwiConfiguration
import KiwiDatabase
import KiwiDevelopment
import KiwiMessaging
import KiwiScanJobs
import KiwiScans
import KiwiTopology
import Logging
import PostgresNIO

// kiwi-floor-bench: what PostgreSQL and RabbitMQ cost when asked for no more than a scan asks of them, through Kiwi's
// own clients but without Kiwi's work — trivial statements in place of a scan's, and a scan's messages with nobody
// doing anything with them. Kiwi's CPU per scan (`make bench`) cannot go below these figures without asking the two
// servers for less. Reads the servers' CPU from /proc (POSTGRES_PID, RABBITMQ_PID: `infra.sh pids`), so run it against
// a stack nothing else is using. Prints a table; asserts nothing.

var environment = EnvironmentReader()
let databaseURL = environment.string("DATABASE_URL", default: LocalStack.databaseURL)
let amqpURL = environment.string("AMQP_URL", default: LocalStack.amqpURL)
/// A leg's length, in seconds.
let seconds = environment.value("FLOOR_SECONDS", default: 20, parse: positiveNumber)
/// Scenario A's rate on the 2-core machine the figures were first taken on: a server's CPU per message depends on
/// the rate, since at a lower one each wake-up serves fewer messages.
let scansPerSecond = environment.value("FLOOR_SCANS_PER_SECOND", default: 220, parse: positiveNumber)
let postgresPID = environment.required("POSTGRES_PID", parse: processID)
let rabbitMQPID = environment.required("RABBITMQ_PID", parse: processID)

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
                    for try await _ in try await client.execute(statement(lane + lanes * count), logger: logger) {}
                    count += 1
                }
                return count
            }
        }
        return try await group.reduce(0, +)
    }
}

/// PostgreSQL's CPU ms per read and per write of 16 lanes, and how many of each it ran a second.
func postgresFloor(serverPID: Int32) async throws -> (read: Double, write: Double, readsPerSecond: Double, writesPerSecond: Double) {
    let client = PostgresClient(configuration: try PostgresClient.Configuration(url: databaseURL), backgroundLogger: logger)
    return try await whileRunning([client]) {
        let rows = 10_000
        try await client.execute("DROP TABLE IF EXISTS kiwi_floor_bench", logger: logger)
        try await client.execute("CREATE TABLE kiwi_floor_bench (id int8 PRIMARY KEY, n int8 NOT NULL)", logger: logger)
        try await client.execute("INSERT INTO kiwi_floor_bench SELECT g, 0 FROM generate_series(0, \(rows - 1)) AS g", logger: logger)
        let lanes = 16
        let (readCPU, reads) = try await cpuSeconds(of: serverPID) {
            try await run(lanes: lanes, on: client) { ReadStatement(number: Int64($0)) }
        }
        let (writeCPU, writes) = try await cpuSeconds(of: serverPID) {
            try await run(lanes: lanes, on: client) { WriteStatement(number: Int64($0 % rows)) }
        }
        try await client.execute("DROP TABLE kiwi_floor_bench", logger: logger)
        return (readCPU * 1000 / Double(reads), writeCPU * 1000 / Double(writes), Double(reads) / seconds, Double(writes) / seconds)
    }
}

/// A scan's statements (docs/decisions.md, "A scan's round trips"): the gateway's usage, profile and final read,
/// and the three that write: the reservation, `running`, the outcome.
enum ScanStatements {
    static let reads = 3
    static let writes = 3
}

// MARK: - RabbitMQ

/// A scan's messages at `scansPerSecond`, as Kiwi builds them, on queues and an exchange of the bench's own: the
/// gateway's job (``ScanJob`` with a 256 KiB photo, confirmed) into a job queue declared as the real one
/// (``KiwiTopology/scanJobs(queue:)``); a worker takes each with a manual acknowledgement, announces two
/// ``ScanEvent``s to a fan-out exchange (each confirmed before the next, as a worker does) and acknowledges the job; a
/// gateway receives the events from its exclusive queue, auto-acknowledged. Returns the broker's CPU ms per scan and
/// the scans.
func rabbitMQFloor(serverPID: Int32) async throws -> (perScan: Double, scans: Int) {
    let queue = "kiwi.floor-bench.jobs"
    let exchange = "kiwi.floor-bench.events"
    let eventsQueue = "kiwi.floor-bench.events.gateway"
    let jobs = KiwiTopology.scanJobs(queue: queue)
    // The exclusive queue is declared only by the connection that consumes it; RabbitMQ refuses it to any other.
    let eventExchange = AMQPTopology(exchanges: [AMQPExchange(name: exchange, kind: .fanout)])
    let eventQueue = AMQPTopology(
        exchanges: eventExchange.exchanges,
        queues: [AMQPQueue(name: eventsQueue, durable: false, exclusive: true, autoDelete: true)],
        bindings: [AMQPBinding(queue: eventsQueue, exchange: exchange)]
    )
    func settings(_ role: String) throws -> AMQPSettings { try AMQPSettings(url: amqpURL, connectionName: "kiwi-floor-bench \(role)") }
    let gateway = AMQPPublisher(settings: try settings("gateway"), topology: jobs, logger: logger)
    let worker = AMQPConsumer(settings: try settings("worker"), queue: queue, prefetch: 64, topology: jobs, logger: logger)
    let announcer = AMQPPublisher(settings: try settings("worker events"), topology: eventExchange, logger: logger)
    let listener = AMQPConsumer(
        settings: try settings("gateway events"),
        queue: eventsQueue,
        prefetch: 0,
        autoAck: true,
        topology: eventQueue,
        logger: logger
    )
    let scans = Int(seconds * scansPerSecond)
    let scanID = UUID()
    let job = try ScanJob(
        scanID: scanID,
        photos: [SyntheticJPEG.make(size: 256 * 1024, seed: 1)],
        deadline: Date().addingTimeInterval(90),
        requestID: nil,
        userKey: "floor-bench"
    ).message(sealingWith: PhotoKey())
    let events = [ScanEvent(scanID: scanID, state: .running).message, ScanEvent(scanID: scanID, state: .succeeded).message]
    return try await whileRunning([gateway, worker, announcer, listener]) {
        for link in [gateway, announcer] { await link.waitUntilConnected() }
        for link in [worker, listener] { await link.waitUntilConnected() }
        let (cpu, _) = try await cpuSeconds(of: serverPID) {
            try await withThrowingDiscardingTaskGroup { group in
                group.addTask {
                    try await withThrowingDiscardingTaskGroup { deliveries in
                        var taken = 0
                        for await delivery in worker.deliveries {
                            deliveries.addTask {
                                for event in events { try await announcer.publish(event, exchange: exchange, routingKey: "", mandatory: false) }
                                try await delivery.ack()
                            }
                            taken += 1
                            if taken == scans { break }
                        }
                    }
                }
                group.addTask {
                    var heard = 0
                    for await _ in listener.deliveries {
                        heard += 1
                        if heard == events.count * scans { break }
                    }
                }
                let start = ContinuousClock.now
                for index in 0..<scans {
                    try await sleep(until: start + .seconds(Double(index) / scansPerSecond))
                    group.addTask { try await gateway.publish(job, routingKey: queue) }
                }
            }
        }
        return (cpu * 1000 / Double(scans), scans)
    }
}

// MARK: - The table

do {
    let (postgres, rabbitMQ) = try environment.finish(postgresPID, rabbitMQPID)
    print("kiwi-floor-bench: \(ProcessInfo.processInfo.activeProcessorCount) CPUs, \(format(seconds, 0)) s a leg; the servers' own CPU")
    print("")
    let floor = try await postgresFloor(serverPID: postgres)
    let perScan = Double(ScanStatements.reads) * floor.read + Double(ScanStatements.writes) * floor.write
    print("| PostgreSQL, 16 lanes, prepared | per second | CPU ms each |")
    print("|---|---|---|")
    print("| a read of nothing (`SELECT $1`) | \(format(floor.readsPerSecond, 0)) | \(format(floor.read, 3)) |")
    print("| a one-row `UPDATE`, committed | \(format(floor.writesPerSecond, 0)) | \(format(floor.write, 3)) |")
    print("| a scan's \(ScanStatements.reads) reads and \(ScanStatements.writes) writes | | \(format(perScan, 3)) |")
    print("")
    let broker = try await rabbitMQFloor(serverPID: rabbitMQ)
    print("| RabbitMQ, a scan's messages | scans | scans/s | CPU ms per scan |")
    print("|---|---|---|---|")
    print(
        "| 256 KiB job confirmed, delivered, acked; 2 events confirmed, fanned out, delivered | \(broker.scans) | \(format(scansPerSecond, 0)) | \(format(broker.perScan, 3)) |"
    )
} catch {
    FileHandle.standardError.write(Data("kiwi-floor-bench: \(error)\n".utf8))
    exit(1)
}
