import ArgumentParser
import AsyncHTTPClient
import Foundation
import KiwiAppleSignIn
import KiwiBenchmarking
import KiwiConcurrency
import KiwiDevelopment
import KiwiModels
import NIOCore

/// `kiwi-loadtest`: scans through a gateway at a given concurrency or arrival rate, then a report.
@main
struct LoadTest: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kiwi-loadtest",
        abstract: "Drive scans through a Kiwi gateway; report throughput, latency, errors, and each service's CPU and memory.",
        discussion: """
            Users sign in with development identity tokens, signed with the key `kiwi dev-keys` made (the auth service \
            must trust it: KIWI_ENV=development and APPLE_JWKS_FILE, as `make run` sets), each for as many scans as its \
            daily quota allows; successive scans take turns over --people users, so that the scans in flight are many \
            people's, as in real life. Give --concurrency (closed loop: each finished scan starts the next; after an error \
            with Retry-After a lane waits as a client should, and longer after each refusal in a row) or --rate (open \
            loop: scans start on schedule, however many are in flight). The gateway-added latency is each successful \
            scan's latency minus the model's time, which the gateway reports in its Server-Timing header.
            """
    )

    @Option(
        name: .customLong("gateway"),
        help: "A gateway's base URL; repeat it to spread the scans over several gateways, each scan's event stream through the next."
    )
    var gateways: [String] = ["http://127.0.0.1:8080"]
    @Option(help: "Scans in flight at once (closed loop).") var concurrency: Int?
    @Option(help: "Scans started per second (open loop).") var rate: Double?
    @Option(help: "Seconds of measured load.") var duration = 60.0
    @Option(help: "Seconds of load before measuring starts; scans started then are not reported.") var warmup = 0.0
    @Option(help: "Seconds over which the closed loop's scans start, evenly (within the warm-up, to measure steady state).") var rampUp = 0.0
    @Option(help: "People scanning at once: successive scans take turns over this many users. Default: --concurrency, or 64 with --rate.")
    var people: Int?
    @Option(help: "Bytes of each generated JPEG photo.") var imageSize = 256 * 1024
    @Option(help: "The folder of the development Apple key (kiwi dev-keys --key-directory).") var keyDirectory = ".run/dev-apple"
    @Option(help: "The identity tokens' audience: one of the auth service's APPLE_CLIENT_ID values.") var audience = "app.kiwi.ios"
    @Option(
        name: .customLong("process"),
        help: "A process of Kiwi's own to report, as NAME=PID (its children included); repeat it. Default: every Kiwi service found in /proc."
    )
    var processes: [String] = []
    @Option(name: .customLong("outside"), help: "A process to report but not count as Kiwi's own (the OpenAI stub), as NAME=PID; repeat it.")
    var outsideProcesses: [String] = []
    @Option(help: "Seconds after the last scan ends to look whether the processes are idle (their CPU over the next 5 s); 0 skips it.")
    var idleAfter = 10.0
    @Option(help: "Seconds one scan may take before it counts as failed (client_timeout).") var requestTimeout = 150
    @Flag(help: "Scan through the async API (POST /v1/scans, then the scan's event stream) instead of POST /v1/scan.")
    var async = false
    @Flag(
        help: """
            Refine instead of scanning photos (with --async): each scan is a refinement, with its ingredients' names, \
            of one of the people's photo scans, made before the load starts and not measured.
            """
    )
    var refinements = false
    @Flag(help: "Ask for meal plans of a week's dinners (POST /v1/plans, then its scan's event stream) instead of scanning photos.")
    var plans = false
    @Flag(help: "Scan receipts (mode=receipt, then the scan's event stream) instead of fridge photos: report when the first line came.")
    var receipts = false
    @Option(
        help: """
            The gateway's metrics URL: report the delay it added to each streamed event over the window \
            (its kiwi_scan_event_delay_seconds histogram, read at the window's start and end).
            """
    )
    var gatewayMetrics: String?
    @Option(
        help: """
            RabbitMQ's detailed metrics URL (…/metrics/detailed?family=channel_exchange_metrics): report the messages \
            published on --event-exchange over the window, per scan.
            """
    )
    var brokerMetrics: String?
    @Option(help: "The exchange whose messages --broker-metrics counts: the scan events'.") var eventExchange = "kiwi.scans.news"
    @Option(
        help: """
            Seat each scanning person at a household of this many members, the others signed in to join it, with the \
            same allergies between them at every size (HouseholdSeating): a scan is then checked for all of them.
            """
    )
    var householdSize: Int?
    @Option(
        help: """
            Households of two changing their shopping list beside the scans, one member through the first gateway, \
            the other following the list's event stream through the last: report how long each change took to show.
            """
    )
    var listPairs = 0
    @Option(help: "Register this many phones of each person (PUT /v1/devices/{token}), for a notifier to tell of each scan's end.")
    var phones = 0
    @Option(help: "The app the --phones are registered for: the apns-topic of their notifications.") var phoneBundleId = "app.kiwi.ios"
    @Option(help: "Seconds between one --list-pairs pair's changes (an add, then its deletion).") var listInterval = 1.0
    @Option(help: "Also write the results to this file as JSON.") var json: String?

    func validate() throws {
        guard (concurrency == nil) != (rate == nil) else { throw ValidationError("Give exactly one of --concurrency and --rate.") }
        if let concurrency, !(1...20_000).contains(concurrency) { throw ValidationError("--concurrency must be from 1 to 20000.") }
        if let rate, !(rate > 0 && rate <= 10_000) { throw ValidationError("--rate must be above 0 and at most 10000 per second.") }
        if let people, !(1...20_000).contains(people) { throw ValidationError("--people must be from 1 to 20000.") }
        guard duration > 0, warmup >= 0, rampUp >= 0 else {
            throw ValidationError("--duration must be positive; --warmup and --ramp-up not negative.")
        }
        guard (1024...(2 << 20)).contains(imageSize) else {
            throw ValidationError("--image-size must be from 1024 to 2097152 bytes (the API's limit).")
        }
        guard idleAfter >= 0 else { throw ValidationError("--idle-after must not be negative.") }
        guard async || !refinements else { throw ValidationError("--refinements follows scans through the async API: give --async too.") }
        guard [plans, refinements, receipts].filter({ $0 }).count <= 1 else {
            throw ValidationError("Give at most one of --plans, --refinements and --receipts.")
        }
        if let householdSize, !(1...Household.capacity).contains(householdSize) {
            throw ValidationError("--household-size must be from 1 to \(Household.capacity), a household's most members.")
        }
        guard (0...10).contains(phones) else { throw ValidationError("--phones must be from 0 to 10, a person's most devices.") }
        guard (0...1000).contains(listPairs), listInterval > 0 else {
            throw ValidationError("--list-pairs must be from 0 to 1000, and --list-interval positive.")
        }
        _ = try reportedProcesses()
    }

    func run() async throws {
        guard let key = try DevelopmentAppleKey.local(in: keyDirectory) else {
            throw ValidationError("There is no development key in \(keyDirectory); create it with `kiwi dev-keys` (make run does).")
        }
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = concurrency ?? Int(min(10_000, (rate ?? 1) * 200))
        configuration.timeout.connect = .seconds(10)
        let http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        do {
            let report = try await load(http: http, key: key)
            try await http.shutdown()
            print(report.table)
            if let json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
                try encoder.encode(report).write(to: URL(fileURLWithPath: json))
            }
        } catch {
            try? await http.shutdown()
            throw error
        }
    }

    private func load(http: HTTPClient, key: DevelopmentAppleKey) async throws -> LoadReport {
        let people = self.people ?? concurrency ?? 64
        FileHandle.standardError.write(Data("signing \(people) people in\n".utf8))
        let api = GatewayAPI(gateway: gateways[0], client: http, key: key, audience: audience)
        let users = UserPool(
            api: api,
            seating: householdSize.map(HouseholdSeating.init(size:)),
            phones: phones > 0 ? PhoneRegistration(count: phones, bundleID: phoneBundleId) : nil,
            people: people
        )
        try await users.prepare()
        let lists = ListWatch(api: api, streams: gateways[gateways.count - 1], interval: .milliseconds(listInterval * 1000))
        var pairs: [ListWatch.Pair] = []
        for index in 0..<listPairs { pairs.append(try await lists.pair(index)) }
        let scans = ScanClient(
            gateways: gateways,
            client: http,
            imageSize: imageSize,
            timeout: .seconds(Int64(requestTimeout)),
            async: async || plans || receipts,
            plans: plans,
            receipts: receipts
        )
        let parents = refinements ? try await refinableScans(people: people, users: users, scans: scans) : []
        let watched = try reportedProcesses()

        let start = ContinuousClock.now
        let measuringFrom = start + .milliseconds(warmup * 1000)
        let stopAt = measuringFrom + .milliseconds(duration * 1000)
        let recorder = Recorder(measuringFrom: measuringFrom, until: stopAt)
        await users.end(at: stopAt)
        let progress = Task { await ProgressLine(recorder: recorder, start: start, measuringFrom: measuringFrom, stopAt: stopAt).run() }
        // CPU and the metrics are counted over the measured window; the snapshots are taken on schedule while the load runs.
        @Sendable func readings() -> [ProcessUsage] { watched.map { ProcessUsage(pid: $0.pid, includingChildren: true) } }
        let (gatewayMetrics, brokerMetrics) = (self.gatewayMetrics, self.brokerMetrics)
        @Sendable func reading() async -> WindowReading {
            let processes = readings()
            var reading = WindowReading(processes: processes)
            if let gatewayMetrics { reading.gateway = await MetricsSnapshot.read(gatewayMetrics, client: http) }
            if let brokerMetrics { reading.broker = await MetricsSnapshot.read(brokerMetrics, client: http) }
            return reading
        }
        let listChanges = Task { [pairs] in
            await withTaskGroup(of: [ListWatch.Change].self) { group in
                for (tag, pair) in pairs.enumerated() {
                    group.addTask { await lists.run(pair, tag: tag, measuringFrom: measuringFrom, until: stopAt) }
                }
                return await group.reduce(into: []) { $0 += $1 }
            }
        }
        let usage = Task { () -> (before: WindowReading, after: WindowReading) in
            try? await sleep(until: measuringFrom)
            let before = await reading()
            try? await sleep(until: stopAt)
            return (before, await reading())
        }

        /// One scan as `person` (by default the next turn's user), recorded with the token it used; nil when no user
        /// could be signed in for it.
        @Sendable func scanOnce(_ index: Int, as person: String? = nil) async -> (outcome: ScanOutcome, token: String)? {
            if !parents.isEmpty {
                let parent = parents[index % parents.count]
                recorder.started()
                let outcome = await scans.refine(parent)
                recorder.finished(outcome)
                return (outcome, parent.token)
            }
            let token: String
            do {
                if let person { token = person } else { token = try await users.token() }
            } catch {
                recorder.signInFailed()
                try? await sleep(for: .milliseconds(200))
                return nil
            }
            recorder.started()
            let outcome = await scans.scan(token: token, index: index)
            recorder.finished(outcome)
            return (outcome, token)
        }

        if let concurrency {
            let rampUp = self.rampUp
            await withDiscardingTaskGroup { group in
                for lane in 0..<concurrency {
                    group.addTask {
                        try? await sleep(until: start + .milliseconds(rampUp * 1000 * Double(lane) / Double(concurrency)))
                        var index = lane
                        // A refused person tries again (a refusal takes none of their scans); others take turns.
                        var refused: (token: String, times: Int)?
                        while ContinuousClock.now < stopAt {
                            let scan = await scanOnce(index, as: refused?.token)
                            index += concurrency
                            refused = scan.flatMap { $0.outcome.refused ? ($0.token, (refused?.times ?? 0) + 1) : nil }
                            if let wait = scan?.outcome.retryAfter {
                                let backoff = Self.backoff(after: wait, refusals: refused?.times ?? 0)
                                try? await sleep(until: min(.now + backoff, stopAt))
                            }
                        }
                    }
                }
            }
        } else if let rate {
            await withDiscardingTaskGroup { group in
                var index = 0
                var next = start
                while next < stopAt {
                    try? await sleep(until: next)
                    let current = index
                    group.addTask { _ = await scanOnce(current) }
                    index += 1
                    next += .milliseconds(1000 / rate)
                }
            }
        }
        progress.cancel()
        await progress.value
        let changes = await listChanges.value
        let (before, after) = await usage.value
        // Idle means idle: once the load is over, a service should stop using the CPU (no timers left ticking).
        var idle: [Double?] = watched.map { _ in nil }
        if idleAfter > 0 {
            FileHandle.standardError.write(
                Data("load over; idle CPU is read \(format(idleAfter)) s from now, for \(format(Self.idleWindow)) s\n".utf8)
            )
            try? await sleep(for: .milliseconds(idleAfter * 1000))
            let idleBefore = readings()
            try? await sleep(for: .milliseconds(Self.idleWindow * 1000))
            idle = zip(idleBefore, readings()).map { 100 * ($1.cpuSeconds - $0.cpuSeconds) / Self.idleWindow }
        }
        let eventDelay = before.gateway.flatMap { start in
            after.gateway.map { HistogramWindow(Self.eventDelayMetric, from: start, to: $0) }
        }
        let eventMessages = before.broker.flatMap { start in after.broker?.messagesPublished(on: eventExchange, since: start) }
        return LoadReport(
            mode: (concurrency.map { "concurrency \($0)" } ?? "rate \(rate ?? 0)/s") + (async ? ", async API" : "") + (plans ? ", meal plans" : "")
                + (receipts ? ", receipts" : "")
                + (refinements ? ", refinements of \(parents.count) photo scans" : "")
                + (householdSize.map { ", households of \($0)" } ?? "") + (listPairs > 0 ? ", \(listPairs) shopping-list pairs" : ""),
            durationSeconds: duration,
            warmupSeconds: warmup,
            imageBytes: imageSize,
            gateways: gateways,
            users: await users.users,
            signInFailures: recorder.counts.signInFailures,
            refused: recorder.measuredRefusals,
            outcomes: recorder.measured,
            finishedInWindow: recorder.finishedInWindow,
            streamed: async || plans || receipts,
            eventDelay: eventDelay,
            eventMessages: eventMessages,
            listChanges: listPairs > 0 ? LoadReport.ListChanges(changes) : nil,
            processes: watched.indices.map { index in
                LoadReport.ProcessRow(
                    name: watched[index].name,
                    pid: watched[index].pid,
                    kiwi: watched[index].kiwi,
                    cpuSeconds: after.processes[index].cpuSeconds - before.processes[index].cpuSeconds,
                    peakRSSMiB: Double(after.processes[index].peakRSSBytes) / 1_048_576,
                    idleCPUPercent: idle[index]
                )
            }
        )
    }

    /// One succeeded photo scan per person, for `--refinements` to refine: made before the load, 32 at a time.
    private func refinableScans(people: Int, users: UserPool, scans: ScanClient) async throws -> [RefinableScan] {
        FileHandle.standardError.write(Data("scanning a photo for each of the \(people) people, to refine\n".utf8))
        var parents: [RefinableScan] = []
        for batch in stride(from: 0, to: people, by: 32) {
            var tokens: [String] = []
            for _ in batch..<min(people, batch + 32) { tokens.append(try await users.token()) }
            parents += await withTaskGroup(of: RefinableScan?.self) { group in
                for (offset, token) in tokens.enumerated() { group.addTask { await scans.refinable(token: token, index: batch + offset) } }
                var found: [RefinableScan] = []
                for await parent in group { parent.map { found.append($0) } }
                return found
            }
        }
        guard !parents.isEmpty else { throw ValidationError("No photo scan succeeded, so there is nothing to refine.") }
        return parents
    }

    /// How long a lane waits after the gateway said `Retry-After: wait`, as a client should (docs/errors.md): no sooner
    /// than asked, longer after each of `refusals` refusals in a row (doubling from 1 s up to 32 s), and spread over
    /// up to twice that, so that lanes refused together do not all come back together.
    static func backoff(after wait: Duration, refusals: Int) -> Duration {
        let doubling = refusals > 0 ? refusalWaits.wait(afterRetries: refusals - 1) : .zero
        return max(wait, doubling) * Double.random(in: 1...2)
    }

    /// The waits that grow with each refusal in a row.
    private static let refusalWaits = RetrySchedule.doubling(from: .seconds(1), upTo: .seconds(32))

    /// What is read at the start and the end of the measured window.
    private struct WindowReading: Sendable {
        var processes: [ProcessUsage]
        var gateway: MetricsSnapshot?
        var broker: MetricsSnapshot?
    }

    /// The gateway's histogram of the delay from a worker's acceptance of a streamed element to the event's write.
    static let eventDelayMetric = "kiwi_scan_event_delay_seconds"

    /// How long the idle reading lasts, in seconds.
    static let idleWindow = 5.0

    /// The processes to report: as given with --process and --outside, or every Kiwi service running on this machine
    /// (and the OpenAI stub, as outside).
    private func reportedProcesses() throws -> [(name: String, pid: Int32, kiwi: Bool)] {
        func parse(_ text: String, kiwi: Bool) throws -> (name: String, pid: Int32, kiwi: Bool) {
            let parts = text.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, let pid = Int32(parts[1]) else { throw ValidationError("--process and --outside take NAME=PID, not \(text).") }
            return (String(parts[0]), pid, kiwi)
        }
        guard processes.isEmpty && outsideProcesses.isEmpty else {
            return try processes.map { try parse($0, kiwi: true) } + outsideProcesses.map { try parse($0, kiwi: false) }
        }
        return ["kiwi-gateway", "kiwi-auth", "kiwi-scan-worker", "kiwi-llm-stub"].flatMap { name in
            let pids = ProcessUsage.processes(named: name)
            return pids.enumerated().map { index, pid in (pids.count > 1 ? "\(name) #\(index + 1)" : name, pid, name != "kiwi-llm-stub") }
        }
    }

    private func format(_ value: Double) -> String { String(format: "%.0f", value) }
}
