import Foundation
import KiwiMessaging
import KiwiScanMessages
import KiwiScans
import KiwiTestSupport
import Testing

@testable import KiwiGateway

/// What the gateway hands the broker (docs/architecture.md, "Photos at rest: crypto-shredding", and "Scan events").
@Suite("Scan jobs on RabbitMQ", .timeLimit(.minutes(1)))
struct AMQPScanJobQueueTests {
    let photo: [UInt8] = [0xFF, 0xD8] + (0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) } + [0xFF, 0xD9]
    let key = PhotoKey()

    @Test("a scan's job reaches the broker with its photo sealed under the scan's key, never in the clear")
    func photoIsSealedOnTheBroker() async throws {
        let job = ScanJob(scanID: UUID(), photos: [photo], deadline: Date().addingTimeInterval(60), requestID: nil, userKey: "u")
        let body = try await Self.published(job, sealedWith: key, by: "gateway-a").body
        for start in stride(from: 0, to: photo.count - 16, by: 16) {
            #expect(body.firstRange(of: photo[start..<start + 16]) == nil)
        }
        #expect(try key.open(body, for: job.scanID) == photo)
    }

    @Test("a scan's job names the gateway that started it, where the scan's news goes")
    func jobNamesItsGateway() async throws {
        let job = ScanJob(scanID: UUID(), photos: [photo], deadline: Date().addingTimeInterval(60), requestID: nil, userKey: "u")
        let message = try await Self.published(job, sealedWith: key, by: "gateway-a")
        #expect(try SealedScanJob(message: message).job.gateway == "gateway-a")
    }

    /// `job` as the broker delivers it after ``AMQPScanJobQueue`` of gateway `gateway` submitted it.
    private static func published(_ job: ScanJob, sealedWith key: PhotoKey, by gateway: String) async throws -> AMQPMessage {
        let queue = "kiwi.test.sealed-jobs.\(UUID().uuidString.lowercased())"
        let settings = try AMQPSettings(url: try testAMQPURL(), connectionName: "kiwi-test-sealed-\(UUID().uuidString.prefix(8))")
        let publisher = AMQPPublisher(settings: settings, logger: testLogger)
        let consumer = AMQPConsumer(
            settings: settings,
            queue: queue,
            prefetch: 1,
            topology: AMQPTopology(queues: [AMQPQueue(name: queue, durable: false, autoDelete: true)]),
            logger: testLogger
        )
        return try await withThrowingTaskGroup(of: AMQPMessage?.self) { group in
            group.addTask {
                try await publisher.run()
                return nil
            }
            group.addTask {
                try await consumer.run()
                return nil
            }
            defer { group.cancelAll() }
            await consumer.waitUntilConnected()
            await publisher.waitUntilConnected()
            try await AMQPScanJobQueue(publisher: publisher, queue: queue, gateway: gateway).submit(job, sealedWith: key)
            for await delivery in consumer.deliveries {
                try await delivery.ack()
                return delivery.message
            }
            throw CancellationError()
        }
    }
}
