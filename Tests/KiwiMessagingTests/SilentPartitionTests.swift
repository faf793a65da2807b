import Foundation
import KiwiDevelopment
import KiwiMessaging
import KiwiTestSupport
import Synchronization
import Testing

/// A link to the broker that goes silent without a FIN: only heartbeats can notice it. Through a
/// ``FaultProxy`` in front of the RabbitMQ of `make test`.
@Suite("Silent partitions from the broker", .timeLimit(.minutes(2)))
struct SilentPartitionTests {
    /// The test broker's settings, reached through `proxy`.
    func settings(through proxy: FaultProxy, heartbeatSeconds: Int) throws -> AMQPSettings {
        var url = try #require(URLComponents(string: try testAMQPURL()))
        url.host = "127.0.0.1"
        url.port = proxy.port
        return try AMQPSettings(
            url: try #require(url.string),
            heartbeatSeconds: heartbeatSeconds,
            connectionName: "kiwi-test-partition-\(UUID().uuidString.prefix(8))"
        )
    }

    func broker() throws -> (host: String, port: Int) {
        let url = try #require(URLComponents(string: try testAMQPURL()))
        return (try #require(url.host), url.port ?? 5672)
    }

    @Test(
        "a consumer whose link goes silent, either way or both, notices through missed heartbeats, and is back once the link heals",
        arguments: [FaultProxy.Fault.silent, .silentTowardClient, .silentTowardServer]
    )
    func heartbeatTimeoutNoticesSilence(_ fault: FaultProxy.Fault) async throws {
        let broker = try broker()
        let proxy = try await FaultProxy.start(forwardingTo: broker.host, port: broker.port)
        let lost = Mutex<[AMQPError]>([])
        let queue = uniqueQueue("partition")
        let consumer = AMQPConsumer(
            settings: try settings(through: proxy, heartbeatSeconds: 1),
            queue: queue,
            prefetch: 1,
            topology: AMQPTopology(queues: [temporaryQueue(queue)]),
            logger: testLogger,
            connectionLost: { error in lost.withLock { $0.append(error) } }
        )
        try await whileRunning([consumer]) {
            await consumer.waitUntilConnected()
            let cut = ContinuousClock.now
            proxy.set(fault)
            // rabbitmq-c gives up on a connection after two heartbeat intervals without a frame from the broker. The
            // link drops its flag first and then reports the loss: both count.
            let noticedLoss = { !consumer.isConnected && lost.withLock { $0.contains { $0 != .shutDown } } }
            let deadline = ContinuousClock.now + .seconds(30)
            while !noticedLoss(), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(50)) }
            let noticed = ContinuousClock.now - cut
            print("silent link (\(fault)) noticed after \(noticed) with a 1 s heartbeat")
            #expect(noticedLoss(), "the silent link was not noticed, or its loss not reported, within 30 s")
            proxy.set(.none)
            await consumer.waitUntilConnected()
            #expect(consumer.isConnected)
        }
        await proxy.stop()
    }
}
