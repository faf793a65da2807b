import Foundation
import KiwiDatabase
import KiwiDevelopment
import KiwiInternalAPI
import KiwiTestSupport
import NIOHTTP1
import PostgresNIO
import Testing

/// The load of a partition drill and its checker, in the vocabulary of Jepsen: the client starts scans as a mobile app
/// does (an `Idempotency-Key` each, retried on another gateway when one fails), and the checker then judges every
/// scan it started from the database the services share.
struct DrillClient: Sendable {
    /// The gateways the app's requests go to, in turn, as through a load balancer.
    let gateways: [URL]
    /// How long the app waits for one answer before it tries again.
    var requestTimeout: Duration = .seconds(10)

    /// What became of one scan the client started.
    struct Outcome: Sendable {
        var key: String
        var token: String
        /// When the client first sent it.
        var sentAt: ContinuousClock.Instant
        var scanID: String?
        var status: String?
        /// When the client saw it final (succeeded or failed); nil when it never did.
        var finishedAt: ContinuousClock.Instant?
        /// When a gateway last took it (`POST /v1/scans` answered 200 or 202).
        var acceptedAt: ContinuousClock.Instant?
        /// Each `POST /v1/scans` the client sent for it: when, and how long until its answer (or until the client gave
        /// the request up).
        var starts: [(sentAt: ContinuousClock.Instant, took: Duration)] = []

        /// Whether the client saw it answered.
        var succeeded: Bool { status == "succeeded" }

        /// Whether the scan lived wholly outside `window`: sent after healing, or seen final before the fault.
        func isOutside(_ window: FaultWindow) -> Bool {
            sentAt >= window.healed || finishedAt.map { $0 < window.applied } == true
        }
    }

    /// Starts a scan with `key` through `POST /v1/scans`, retrying with the same key (on the next gateway) while no
    /// gateway takes it, then reads it until it is final or `deadline` passes.
    func scan(_ photo: [UInt8], key: String, token: String, until deadline: ContinuousClock.Instant) async -> Outcome {
        var outcome = Outcome(key: key, token: token, sentAt: .now)
        let upload = MultipartUpload.make(photo)
        var attempt = Int.random(in: 0..<gateways.count)
        while ContinuousClock.now < deadline {
            let gateway = gateways[attempt % gateways.count].absoluteString
            attempt += 1
            do {
                if outcome.scanID == nil {
                    let sentAt = ContinuousClock.now
                    let started: SystemRig.Exchange
                    do {
                        defer { outcome.starts.append((sentAt, .now - sentAt)) }
                        started = try await SystemRig.exchange(
                            .POST,
                            gateway + "/v1/scans",
                            token: token,
                            contentType: upload.contentType,
                            body: upload.body,
                            headers: [("Idempotency-Key", key)],
                            timeout: requestTimeout
                        )
                    }
                    guard [200, 202].contains(started.status) else {
                        try await Task.sleep(for: .milliseconds(500))
                        continue
                    }
                    outcome.scanID = try started.json()["id"] as? String
                    outcome.acceptedAt = .now
                }
                let read = try await SystemRig.exchange(.GET, gateway + "/v1/scans/\(outcome.scanID ?? "")", token: token, timeout: requestTimeout)
                if read.status == 404 {
                    // Gone: the app starts it again with its key.
                    outcome.scanID = nil
                    continue
                }
                let status = try read.json()["status"] as? String
                outcome.status = status
                if status == "succeeded" || status == "failed" {
                    outcome.finishedAt = .now
                    return outcome
                }
            } catch {
                // A dropped connection or an answer too slow: the app tries again with the same key.
            }
            try? await Task.sleep(for: .milliseconds(250))
        }
        return outcome
    }

    /// When a drill's fault was applied and healed.
    struct FaultWindow: Sendable {
        var applied: ContinuousClock.Instant
        var healed: ContinuousClock.Instant
    }

    /// Starts `count` scans, one every `spacing`, as the people behind `tokens` in turn, each pursued until `deadline`;
    /// `apply` runs `faultAfter` from the start and `heal` `lasting` after it. Returns the checker's verdict on every
    /// scan, judged from the test database, and the fault's window.
    func run(
        scans count: Int,
        spacing: Duration,
        tokens: [String],
        until deadline: ContinuousClock.Instant,
        faultAfter: Duration,
        lasting: Duration,
        apply: @escaping @Sendable () async throws -> Void,
        heal: @escaping @Sendable () async throws -> Void
    ) async throws -> (verdict: DrillVerdict, window: FaultWindow) {
        let window = Locked<FaultWindow?>(nil)
        let outcomes = try await withThrowingTaskGroup(of: Outcome?.self) { group in
            group.addTask {
                try await Task.sleep(for: faultAfter)
                let applied = ContinuousClock.now
                try await apply()
                try await Task.sleep(for: lasting)
                try await heal()
                window.withLock { $0 = FaultWindow(applied: applied, healed: .now) }
                return nil
            }
            for index in 0..<count {
                let token = tokens[index % tokens.count]
                let photo = SyntheticJPEG.make(size: 8 * 1024, seed: 300 + UInt64(index))
                group.addTask {
                    try await Task.sleep(for: spacing * index)
                    return await scan(photo, key: "drill-\(index)", token: token, until: deadline)
                }
            }
            return try await group.reduce(into: [Outcome]()) { if let outcome = $1 { $0.append(outcome) } }
        }
        let faultWindow = try #require(window.withLock { $0 })
        let verdict = try await DrillVerdict(
            outcomes: outcomes,
            tokens: tokens,
            charged: try await charges(of: tokens),
            window: faultWindow,
            databaseURL: try testDatabaseURL()
        )
        return (verdict, faultWindow)
    }

    /// Scans used today by the person behind each token, as `GET /v1/quota` reports them (`limit - remaining`).
    func charges(of tokens: [String]) async throws -> Int {
        var charged = 0
        for token in tokens {
            let quota = try await SystemRig.exchange(.GET, gateways[0].absoluteString + "/v1/quota", token: token).json()
            charged += ((quota["limit"] as? Int) ?? 0) - ((quota["remaining"] as? Int) ?? 0)
        }
        return charged
    }
}

/// A checker's judgement of every scan a drill's client started.
struct DrillVerdict: Sendable, CustomStringConvertible {
    /// The least share of the scans that lived wholly outside the fault window that the client must see answered: a
    /// fault may cost the scans it touched, not the others.
    static let leastAnsweredShareOutsideFault = 0.95
    /// How soon after healing the client must see a scan succeed (docs/operations.md, "Partition drills"): the slowest
    /// honest recovery, nothing answering during the fault. A request begun in it gives up after 10 s, the retry follows
    /// 0.5 s later, the stub's slowest answer takes 3 s, the client reads the scan again within 0.25 s: 13.75 s, rounded
    /// up. A RabbitMQ reconnection fits inside it (10 s handshake timeout, backoff from 100 ms); slower would mean
    /// waiting on the heartbeat (~20 s) or a deadline (30 s).
    static let firstSuccessAfterHealingBound = Duration.seconds(15)

    var started = 0
    /// Scans answered.
    var succeeded = 0
    /// Scans the client saw fail (refunded).
    var failed = 0
    var charged = 0
    /// Keys of scans charged whose result is not retrievable and whose charge was not refunded.
    var lost: [String] = []
    /// Keys with two scans, or `charged - succeeded` when more was charged than answered.
    var duplicated: [String] = []
    /// Results, for the drill's users, of scans that no key of the client started. (A scan whose job never left its
    /// gateway fails and gives its key up for the retry: such a failure, keyless, is expected.)
    var unexpected: [UUID] = []
    /// Keys the client never saw final: neither a result nor a failure before its deadline.
    var unfinished: [String] = []
    /// From healing to the first scan the client saw succeed.
    var firstSuccessAfterHealing: Duration?
    /// The availability gap: the longest time in which no scan started successfully, between the gateways' taking of
    /// two scans that then succeeded, one after the other (about the load's spacing when nothing is wrong).
    var availabilityGap: Duration?
    /// The slowest answer to a `POST /v1/scans` sent during the fault, the client's request timeout when one went
    /// unanswered: how fast a scan that cannot start is refused.
    var slowestStartDuringFault: Duration?
    /// Scans that lived wholly outside the fault window (``DrillClient/Outcome/isOutside(_:)``).
    var outsideFault = 0
    /// Those of them the client saw answered.
    var answeredOutsideFault = 0

    /// Judges `outcomes`, sent around the fault's `window`, against the scans of the people behind `tokens` in the
    /// database at `databaseURL`; `charged` is what their quotas say they used.
    init(
        outcomes: [DrillClient.Outcome],
        tokens: [String],
        charged: Int,
        window: DrillClient.FaultWindow,
        databaseURL: String
    ) async throws {
        let rows: [(id: UUID, key: String?, state: String, hasResult: Bool)] = try await withClient(
            try PostgresClient.Configuration(url: databaseURL)
        ) { client in
            var rows: [(id: UUID, key: String?, state: String, hasResult: Bool)] = []
            for token in tokens {
                let query = try await client.query(
                    """
                    SELECT s.id, s.idempotency_key, s.state, s.result IS NOT NULL FROM scans s
                    JOIN sessions ON sessions.user_id = s.user_id WHERE sessions.token_hash = \(SessionTokenDigest.sha256(token))
                    """
                )
                for try await (id, key, state, hasResult) in query.decode((UUID, String?, String, Bool).self) {
                    rows.append((id, key, state, hasResult))
                }
            }
            return rows
        }
        let byKey = Dictionary(grouping: rows, by: { $0.key ?? "" })
        let keys = Set(outcomes.map(\.key))
        started = outcomes.count
        succeeded = rows.filter { $0.state == "succeeded" }.count
        failed = outcomes.filter { $0.status == "failed" }.count
        self.charged = charged
        for outcome in outcomes {
            let scans = byKey[outcome.key] ?? []
            let answered = scans.contains { $0.state == "succeeded" && $0.hasResult }
            let refunded = !scans.isEmpty && scans.allSatisfy { $0.state == "failed" }
            if !answered && !refunded && !scans.isEmpty { lost.append(outcome.key) }
            if scans.count > 1 { duplicated.append(outcome.key) }
            if outcome.finishedAt == nil { unfinished.append(outcome.key) }
        }
        if charged > succeeded { duplicated.append("\(charged - succeeded) charges more than answers") }
        unexpected = rows.filter { $0.state != "failed" && !keys.contains($0.key ?? "") }.map(\.id)
        firstSuccessAfterHealing = outcomes.filter(\.succeeded).compactMap(\.finishedAt).filter { $0 >= window.healed }.min()
            .map { $0 - window.healed }
        let taken = outcomes.filter(\.succeeded).compactMap(\.acceptedAt).sorted()
        availabilityGap = zip(taken, taken.dropFirst()).map { $1 - $0 }.max()
        slowestStartDuringFault = outcomes.flatMap(\.starts).filter { $0.sentAt >= window.applied && $0.sentAt < window.healed }.map(\.took).max()
        let outside = outcomes.filter { $0.isOutside(window) }
        outsideFault = outside.count
        answeredOutsideFault = outside.filter(\.succeeded).count
    }

    /// What fails a drill: anything lost, duplicated or unexpected, a scan never final, charges that differ from
    /// answers, too few scans answered outside the fault (or none outside it to judge), or no success soon after
    /// healing. Empty when the drill passed.
    var problems: [String] {
        var problems: [String] = []
        if !lost.isEmpty { problems.append("lost: \(lost)") }
        if !duplicated.isEmpty { problems.append("duplicated: \(duplicated)") }
        if !unexpected.isEmpty { problems.append("unexpected: \(unexpected)") }
        if !unfinished.isEmpty { problems.append("never final: \(unfinished)") }
        if charged != succeeded { problems.append("charged \(charged) for \(succeeded) answers") }
        if outsideFault == 0 {
            problems.append("no scan lived outside the fault window: the load must start before the fault and go on after healing")
        } else if Double(answeredOutsideFault) < Self.leastAnsweredShareOutsideFault * Double(outsideFault) {
            problems.append(
                "\(answeredOutsideFault) of \(outsideFault) scans outside the fault answered, under \(Self.leastAnsweredShareOutsideFault)"
            )
        }
        switch firstSuccessAfterHealing {
        case nil: problems.append("no scan succeeded after healing")
        case let wait? where wait > Self.firstSuccessAfterHealingBound:
            problems.append("the first success came \(wait) after healing, past \(Self.firstSuccessAfterHealingBound)")
        default: break
        }
        return problems
    }

    var description: String {
        """
        scans started \(started), succeeded \(succeeded), failed \(failed), charged \(charged); \
        lost \(lost.count), duplicated \(duplicated.count), unexpected \(unexpected.count), unfinished \(unfinished.count); \
        answered outside the fault \(answeredOutsideFault) of \(outsideFault); first success after healing: \(firstSuccessAfterHealing.map { "\($0)" } ?? "none"); \
        availability gap \(availabilityGap.map { "\($0)" } ?? "none"); slowest start during the fault \(slowestStartDuringFault.map { "\($0)" } ?? "none")
        """
    }
}
