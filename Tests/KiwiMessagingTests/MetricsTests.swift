import Foundation
import KiwiDevelopment
import KiwiMessaging
import KiwiServiceSupport
import KiwiTestSupport
import Testing

@Suite("AMQP metrics")
struct AMQPMetricsTests {
    @Test("a connection the broker closes is counted as lost, and the connection that replaces it as a reconnection", .timeLimit(.minutes(3)))
    func reconnectionCounted() async throws {
        PrometheusMetrics.bootstrap()
        let name = "kiwi-test-metrics-\(UUID().uuidString.prefix(8))"
        let queue = uniqueQueue("metrics")
        let publisher = AMQPPublisher(settings: try brokerSettings(name), topology: AMQPTopology(queues: [temporaryQueue(queue)]), logger: testLogger)
        let metrics = try await whileRunning([publisher]) {
            await publisher.waitUntilConnected()
            try await publisher.publish(AMQPMessage(body: Array("one".utf8)), routingKey: queue)
            try await closeConnectionsFromBroker(named: name)
            let deadline = ContinuousClock.now + .seconds(20)
            var metrics = PrometheusText(PrometheusMetrics.exposition())
            while ContinuousClock.now < deadline, metrics.value("kiwi_amqp_reconnections_total", ["connection": name]) == 0 {
                try await Task.sleep(for: .milliseconds(50))
                metrics = PrometheusText(PrometheusMetrics.exposition())
            }
            return metrics
        }
        #expect(metrics.value("kiwi_amqp_connections_lost_total", ["connection": name]) == 1)
        #expect(metrics.value("kiwi_amqp_reconnections_total", ["connection": name]) == 1)
        #expect(metrics.value("kiwi_amqp_connections_total", ["connection": name, "result": "opened"]) == 2)
        #expect(metrics.value("kiwi_amqp_publishes_total", ["connection": name]) == 1)
        #expect(metrics.value("kiwi_amqp_confirms_total", ["connection": name, "result": "ack"]) == 1)
        #expect(PrometheusText(PrometheusMetrics.exposition()).value("kiwi_amqp_connections_open", ["connection": name]) == 0)
    }

    @Test("a message no queue takes is counted as an unroutable confirm", .timeLimit(.minutes(1)))
    func unroutableCounted() async throws {
        PrometheusMetrics.bootstrap()
        let name = "kiwi-test-metrics-\(UUID().uuidString.prefix(8))"
        let publisher = AMQPPublisher(settings: try brokerSettings(name), logger: testLogger)
        try await whileRunning([publisher]) {
            await publisher.waitUntilConnected()
            await #expect(throws: AMQPError.self) {
                try await publisher.publish(AMQPMessage(body: [1]), routingKey: uniqueQueue("nowhere"))
            }
        }
        #expect(PrometheusText(PrometheusMetrics.exposition()).value("kiwi_amqp_confirms_total", ["connection": name, "result": "unroutable"]) == 1)
    }
}
