import Foundation
import KiwiMessaging
import KiwiModels
import KiwiScanJobs
import KiwiScans
import Testing

@Suite("Scan job messages")
struct ScanJobTests {
    let deadline = Date(timeIntervalSince1970: 1_800_000_000.250)
    let scanID = UUID()
    var job: ScanJob {
        ScanJob(scanID: scanID, image: [0xFF, 0xD8, 0xFF, 0xD9], deadline: deadline, requestID: "req-1", userKey: ScanJob.userKey(forUserID: "u"))
    }

    @Test("a job survives the trip through a message: raw JPEG body, scan id, deadline, request id and user key")
    func roundTrip() throws {
        let message = job.message(now: deadline.addingTimeInterval(-90))
        #expect(message.body == job.image)
        #expect(message.properties.contentType == "image/jpeg")
        #expect(try ScanJob(message: message) == job)
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
        arguments: [ScanJob.Header.scanID, ScanJob.Header.deadline, ScanJob.Header.userKey]
    )
    func incompleteMessageIsRefused(_ missing: String) {
        var message = job.message()
        message.properties.headers[missing] = nil
        #expect(throws: ScanJobDecodingError.self) { try ScanJob(message: message) }
    }

    @Test("a scan event is {\"scanId\", \"state\"} and survives the trip through a message")
    func scanEventShape() throws {
        let event = ScanEvent(scanID: scanID, state: .running)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(event.message.body)) as? [String: String])
        #expect(json == ["scanId": scanID.uuidString.lowercased(), "state": "running"])
        #expect(ScanEvent(message: event.message) == event)
    }

    @Test("a message that is not a scan event is no event")
    func foreignMessageIsNoEvent() {
        for body in [#"{}"#, #"{"scanId":"not-a-uuid","state":"running"}"#, #"{"scanId":"\#(scanID)","state":"paused"}"#] {
            #expect(ScanEvent(message: AMQPMessage(body: Array(body.utf8))) == nil)
        }
    }
}
