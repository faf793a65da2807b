import Foundation
import KiwiDevelopment
import KiwiMessaging
import KiwiTestSupport
import ServiceLifecycle
import Testing

/// Answers every request on `queue` with `reply:` and the request's body, after the delay its
/// `delay-ms` header asks for.
struct EchoResponder {
    let consumer: AMQPConsumer
    let publisher: AMQPPublisher

    init(queue: String, topology: AMQPTopology) throws {
        consumer = AMQPConsumer(settings: try brokerSettings(), queue: queue, prefetch: 2_000, topology: topology, logger: testLogger)
        publisher = AMQPPublisher(settings: try brokerSettings(), logger: testLogger)
    }

    var services: [any Service] { [consumer, publisher] }

    func serve() async throws {
        await consumer.waitUntilConnected()
        await publisher.waitUntilConnected()
        try await withThrowingDiscardingTaskGroup { group in
            for await delivery in consumer.deliveries {
                group.addTask {
                    let request = delivery.message
                    if let delay = request.properties.headers["delay-ms"].flatMap(Int.init) { try await Task.sleep(for: .milliseconds(delay)) }
                    try await publisher.reply(to: request, with: AMQPMessage(body: Array("reply:".utf8) + request.body))
                    try await delivery.ack()
                }
            }
        }
    }
}

@Suite("Request and reply")
struct RequestReplyTests {
    @Test("2,000 concurrent requests each get their own reply")
    func concurrentRequestsGetTheirOwnReplies() async throws {
        let queue = uniqueQueue("requests")
        let topology = AMQPTopology(queues: [temporaryQueue(queue)])
        let responder = try EchoResponder(queue: queue, topology: topology)
        let requester = AMQPRequester(settings: try brokerSettings(), topology: topology, logger: testLogger)
        let mismatches = try await whileRunning(responder.services + [requester]) {
            try await withThrowingTaskGroup(of: Int.self) { group in
                group.addTask {
                    try await responder.serve()
                    return 0
                }
                group.addTask {
                    await requester.waitUntilConnected()
                    return try await withThrowingTaskGroup(of: Bool.self) { requests in
                        for index in 0..<2_000 {
                            requests.addTask {
                                let body = Array(String(index).utf8)
                                let reply = try await requester.request(AMQPMessage(body: body), routingKey: queue, timeout: .seconds(30))
                                return reply.body == Array("reply:".utf8) + body
                            }
                        }
                        return try await requests.reduce(0) { $0 + ($1 ? 0 : 1) }
                    }
                }
                defer { group.cancelAll() }
                return try await group.next()!
            }
        }
        #expect(mismatches == 0)
    }

    @Test("a reply after the deadline is dropped and the caller gets a timeout")
    func lateReplyTimesOut() async throws {
        let queue = uniqueQueue("slow")
        let topology = AMQPTopology(queues: [temporaryQueue(queue)])
        let responder = try EchoResponder(queue: queue, topology: topology)
        let requester = AMQPRequester(settings: try brokerSettings(), topology: topology, logger: testLogger)
        let (late, next) = try await whileRunning(responder.services + [requester]) {
            try await withThrowingTaskGroup(of: (Result<AMQPMessage, any Error>, AMQPMessage?).self) { group in
                group.addTask {
                    try await responder.serve()
                    return (.failure(CancellationError()), nil)
                }
                group.addTask {
                    await requester.waitUntilConnected()
                    let slow = AMQPMessage(body: [1], properties: AMQPProperties(headers: ["delay-ms": "600"]))
                    let late = await Result { try await requester.request(slow, routingKey: queue, timeout: .milliseconds(200)) }
                    try await Task.sleep(for: .milliseconds(800))  // the late reply arrives meanwhile, and is dropped
                    let next = try await requester.request(AMQPMessage(body: [2]), routingKey: queue, timeout: .seconds(10))
                    return (late, next)
                }
                defer { group.cancelAll() }
                return try await group.next()!
            }
        }
        #expect(throws: AMQPError.timedOut) { try late.get() }
        #expect(next?.body == Array("reply:".utf8) + [2])
    }
}

extension Result where Failure == any Error {
    init(catching body: () async throws -> Success) async {
        do {
            self = .success(try await body())
        } catch {
            self = .failure(error)
        }
    }
}
