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
/// mobile app would, then judged by ``DrillVerdict``. `make drill` runs the rest of the drills across hosts
/// (``NetworkDrillTests``); this one runs in `make test` on every machine.
@Suite("Partition drills", .serialized, .timeLimit(.minutes(5)))
struct PartitionDrillTests {
    @Test("a scan worker cut off from RabbitMQ without a FIN mid-load: nothing lost, duplicated or unexpected; answers soon after healing")
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
            // Four scans each (the daily limit), one every 0.5 s for 14 s: before the fault, through it and after it.
            var tokens: [String] = []
            for _ in 0..<7 { tokens.append(try await rig.signIn()) }
            let deadline = ContinuousClock.now + .seconds(120)
            let client = DrillClient(gateways: rig.gateways, requestTimeout: .seconds(30))
            let (verdict, window) = try await client.run(
                scans: 28,
                spacing: .milliseconds(500),
                tokens: tokens,
                until: deadline,
                faultAfter: .seconds(2),
                lasting: .seconds(8),
                apply: { proxy.set(.silent) },
                heal: { proxy.set(.none) }
            )
            print("partition drill: worker ↔ RabbitMQ, silent both ways for \(window.healed - window.applied): \(verdict)")
            #expect(verdict.problems.isEmpty, "\(verdict.problems.joined(separator: "; "))")
        }
        await proxy.stop()
    }
}
