import Foundation
import KiwiMessaging
import KiwiModels
import KiwiScanJobs
import Testing

@Suite("Scan job messages")
struct ScanJobTests {
    let deadline = Date(timeIntervalSince1970: 1_800_000_000.250)
    var job: ScanJob { ScanJob(image: [0xFF, 0xD8, 0xFF, 0xD9], deadline: deadline, requestID: "req-1", userKey: ScanJob.userKey(forUserID: "u")) }

    /// What the request/reply machinery adds before a worker sees a job.
    func delivered(_ message: AMQPMessage) -> AMQPMessage {
        var message = message
        message.properties.correlationID = "job-1"
        message.properties.replyTo = "kiwi.gateway.a.replies"
        return message
    }

    @Test("a job survives the trip through a message: raw JPEG body, deadline, request id and user key")
    func roundTrip() throws {
        let message = job.message(now: deadline.addingTimeInterval(-90))
        #expect(message.body == job.image)
        #expect(message.properties.contentType == "image/jpeg")
        #expect(try ScanJob(message: delivered(message)) == job)
    }

    @Test("a job message is transient and expires at the deadline")
    func transientAndExpiring() {
        let message = job.message(now: deadline.addingTimeInterval(-30))
        #expect(!message.properties.persistent)
        #expect(message.properties.expiration == .milliseconds(30_000))
    }

    @Test("the user key is a stable 32-digit pseudonym that does not contain the user id")
    func userKeyIsPseudonymous() {
        let id = "0b7c1d9e-5f7a-4c3e-9a51-2f0d8c6b4e11"
        let key = ScanJob.userKey(forUserID: id)
        #expect(key.count == 32 && key.allSatisfy(\.isHexDigit))
        #expect(key == ScanJob.userKey(forUserID: id))
        #expect(key != ScanJob.userKey(forUserID: "another"))
        #expect(!key.contains(String(id.prefix(8))))
    }

    @Test(
        "a message missing what a worker needs is not a job",
        arguments: ["correlation", "replyTo", ScanJob.Header.deadline, ScanJob.Header.userKey]
    )
    func incompleteMessageIsRefused(_ missing: String) {
        var message = delivered(job.message())
        switch missing {
        case "correlation": message.properties.correlationID = nil
        case "replyTo": message.properties.replyTo = nil
        default: message.properties.headers[missing] = nil
        }
        #expect(throws: ScanJobDecodingError.self) { try ScanJob(message: message) }
    }

    @Test("a failure result is {\"error\": {\"code\", \"message\"}}")
    func failureShape() throws {
        let message = ScanJobResult.error(ScanFailure(.llmUnavailable, "down")).message()
        let json = try #require(try JSONSerialization.jsonObject(with: Data(message.body)) as? [String: [String: String]])
        #expect(json == ["error": ["code": "llm_unavailable", "message": "down"]])
        #expect(try ScanJobResult(message: message) == .error(ScanFailure(.llmUnavailable, "down")))
    }

    @Test("a success result is {\"ok\": ScanResponse}")
    func successShape() throws {
        let result = ScanJobResult.ok(ScanResponse(ingredients: [], recipes: []))
        let message = result.message()
        let json = try #require(try JSONSerialization.jsonObject(with: Data(message.body)) as? [String: [String: [String]]])
        #expect(json == ["ok": ["ingredients": [], "recipes": []]])
        #expect(try ScanJobResult(message: message) == result)
    }

    @Test("a result with both or neither of ok and error does not decode")
    func ambiguousResultIsRefused() {
        for body in [#"{}"#, #"{"ok":{"ingredients":[],"recipes":[]},"error":{"code":"scan_timeout","message":"x"}}"#] {
            #expect(throws: (any Error).self) { try ScanJobResult(message: AMQPMessage(body: Array(body.utf8))) }
        }
    }
}
