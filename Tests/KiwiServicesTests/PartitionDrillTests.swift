import Foundation
import KiwiDevelopment
import KiwiModels
import KiwiTestSupport
import NIOHTTP1
import PostgresNIO
import Testing

@testable import KiwiLLMStub

/// Issue 19's drills as far as one host allows without network namespaces: a link cut silently (no FIN, no RST) by
/// a ``FaultProxy`` while a bounded load of scans runs, each started with an `Idempotency-Key` and retried as a
/// mobile app would, then judged by a checker in Jepsen's words: **lost** (charged, no result ever retrievable),
/// **duplicated** (charged twice, or two scans for one key), **unexpected** (a scan nobody started).
@Suite("Partition drills", .serialized, .timeLimit(.minutes(5)))
struct PartitionDrillTests {
    /// What became of one scan the client started.
    struct Outcome: Sendable {
        var key: String
        var token: String
        var scanID: String?
        var status: String?
        var finishedAt: ContinuousClock.Instant?
    }

    /// Starts a scan with `key` through `POST /v1/scans`, retrying with the same key while the gateway cannot take
    /// it, then reads it until it is final: what a mobile app does.
    func scan(_ photo: [UInt8], key: String, token: String, rig: SystemRig, until deadline: ContinuousClock.Instant) async -> Outcome {
        var outcome = Outcome(key: key, token: token)
        let upload = MultipartUpload.make(photo)
        while ContinuousClock.now < deadline {
            do {
                if outcome.scanID == nil {
                    let started = try await rig.send(
                        .POST,
                        "/v1/scans",
                        token: token,
                        contentType: upload.contentType,
                        body: upload.body,
                        headers: [("Idempotency-Key", key)]
                    )
                    guard [200, 202].contains(started.status) else {
                        try await Task.sleep(for: .milliseconds(500))
                        continue
                    }
                    outcome.scanID = try started.json()["id"] as? String
                }
                let read = try await rig.send(.GET, "/v1/scans/\(outcome.scanID ?? "")", token: token)
                let status = try read.json()["status"] as? String
                outcome.status = status
                if status == "succeeded" || status == "failed" {
                    outcome.finishedAt = .now
                    return outcome
                }
            } catch {
                // A dropped connection: the app tries again with the same key.
            }
            try? await Task.sleep(for: .milliseconds(250))
        }
        return outcome
    }

    @Test("a scan worker cut off from RabbitMQ without a FIN mid-load: no scan lost, duplicated or unexpected")
    func workerBrokerPartition() async throws {
        let amqp = try #require(URLComponents(string: try testAMQPURL()))
        let proxy = try await FaultProxy.start(forwardingTo: try #require(amqp.host), port: amqp.port ?? 5672)
        var proxied = amqp
        proxied.port = proxy.port
        let environment = ["SCAN_TIMEOUT_SECONDS": "45", "AMQP_HEARTBEAT_SECONDS": "2"]
        try await SystemRig.run(
            behaviour: StubBehaviour(latencyMilliseconds: 400),
            environment: environment,
            workerEnvironment: ["AMQP_URL": try #require(proxied.string)]
        ) { rig in
            var tokens: [String] = []
            for _ in 0..<6 { tokens.append(try await rig.signIn()) }
            let deadline = ContinuousClock.now + .seconds(120)
            let cut = Locked<(at: ContinuousClock.Instant, healed: ContinuousClock.Instant)?>(nil)
            let outcomes = try await withThrowingTaskGroup(of: Outcome?.self) { group in
                group.addTask {
                    try await Task.sleep(for: .seconds(2))
                    let at = ContinuousClock.now
                    proxy.set(.silent)
                    try await Task.sleep(for: .seconds(8))
                    proxy.set(.none)
                    cut.withLock { $0 = (at, .now) }
                    return nil
                }
                for index in 0..<24 {
                    let token = tokens[index % tokens.count]
                    let photo = SyntheticJPEG.make(size: 8 * 1024, seed: 300 + UInt64(index))
                    group.addTask {
                        try await Task.sleep(for: .milliseconds(250 * index))
                        return await scan(photo, key: "drill-\(index)", token: token, rig: rig, until: deadline)
                    }
                }
                return try await group.reduce(into: [Outcome]()) { if let outcome = $1 { $0.append(outcome) } }
            }
            let window = try #require(cut.withLock { $0 })

            // The checker, from the database the services share and the answers the client got.
            let userIDs = try await withThrowingTaskGroup(of: UUID.self) { group in
                for token in tokens { group.addTask { try await rig.userID(of: token) } }
                return try await group.reduce(into: [UUID]()) { $0.append($1) }
            }
            let rows: [(id: UUID, key: String?, state: String, hasResult: Bool)] = try await rig.database { client in
                var rows: [(id: UUID, key: String?, state: String, hasResult: Bool)] = []
                let query = try await client.query(
                    "SELECT id, idempotency_key, state, result IS NOT NULL FROM scans WHERE user_id = ANY(\(userIDs))"
                )
                for try await (id, key, state, hasResult) in query.decode((UUID, String?, String, Bool).self) {
                    rows.append((id, key, state, hasResult))
                }
                return rows
            }
            let byKey = Dictionary(grouping: rows, by: { $0.key ?? "" })
            let started = Set(outcomes.map(\.key))
            let lost = outcomes.filter { outcome in
                outcome.status != "failed" && !(byKey[outcome.key]?.contains { $0.state == "succeeded" && $0.hasResult } ?? false)
            }
            let duplicated = byKey.filter { $0.value.count > 1 }.map(\.key)
            let unexpected = rows.filter { !started.contains($0.key ?? "") }
            var charged = 0
            for token in tokens { charged += 4 - ((try await rig.send(.GET, "/v1/quota", token: token).json()["remaining"] as? Int) ?? 0) }
            let succeeded = rows.filter { $0.state == "succeeded" }.count
            let firstAfterHeal = outcomes.compactMap(\.finishedAt).filter { $0 >= window.healed }.min().map { $0 - window.healed }
            print(
                """
                partition drill: worker ↔ RabbitMQ, silent both ways for \(window.healed - window.at)
                  scans started \(outcomes.count), succeeded \(succeeded), failed \(rows.count - succeeded), charged \(charged)
                  lost \(lost.count), duplicated \(duplicated.count), unexpected \(unexpected.count)
                  first scan finished after healing: \(firstAfterHeal.map { "\($0)" } ?? "none")
                """
            )
            #expect(outcomes.allSatisfy { $0.finishedAt != nil }, "scans never final: \(outcomes.filter { $0.finishedAt == nil }.map(\.key))")
            #expect(lost.isEmpty, "lost: \(lost.map(\.key))")
            #expect(duplicated.isEmpty, "duplicated: \(duplicated)")
            #expect(unexpected.isEmpty, "unexpected: \(unexpected.map(\.id))")
            #expect(charged == succeeded, "charged \(charged) for \(succeeded) answers")
        }
        await proxy.stop()
    }
}
