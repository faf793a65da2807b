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
        ScanJob(scanID: scanID, photos: [[0xFF, 0xD8, 0xFF, 0xD9]], deadline: deadline, requestID: "req-1", userKey: ScanJob.userKey(forUserID: "u"))
    }

    @Test("a job survives the trip through a message: raw JPEG body, scan id, deadline, request id and user key")
    func roundTrip() throws {
        let message = job.message(now: deadline.addingTimeInterval(-90))
        #expect(message.body == job.photos[0])
        #expect(message.properties.contentType == "image/jpeg")
        #expect(try ScanJob(message: message) == job)
    }

    @Test("several photos travel one after the other in the body, with their sizes, the mode and the profile in headers")
    func severalPhotosRoundTrip() throws {
        var job = job
        job.photos = [[0xFF, 0xD8, 0xFF, 0x01, 0xD9], [0xFF, 0xD8, 0xFF, 0xD9], [0xFF, 0xD8, 0xFF, 0x02, 0x03, 0xD9]]
        job.mode = .dish
        job.profile = KitchenProfile(diets: [.vegan], allergies: [.sesame])
        let message = job.message(now: deadline.addingTimeInterval(-90))
        #expect(message.body.count == 15)
        #expect(message.properties.headers[ScanJob.Header.photoSizes] == "5,4,6")
        #expect(message.properties.headers[ScanJob.Header.mode] == "dish")
        #expect(try ScanJob(message: message) == job)
    }

    @Test("photo sizes that do not divide the body, and an unknown mode, are not a job", arguments: ["5,4", "5,4,7", "5,x,6", "0,9,6"])
    func badPhotoSizesAreRefused(_ sizes: String) {
        var job = job
        job.photos = [[0xFF, 0xD8, 0xFF, 0x01, 0xD9], [0xFF, 0xD8, 0xFF, 0xD9], [0xFF, 0xD8, 0xFF, 0x02, 0x03, 0xD9]]
        var message = job.message()
        message.properties.headers[ScanJob.Header.photoSizes] = sizes
        #expect(throws: ScanJobDecodingError.self) { try ScanJob(message: message) }
        var unknownMode = self.job.message()
        unknownMode.properties.headers[ScanJob.Header.mode] = "pantry"
        #expect(throws: ScanJobDecodingError.self) { try ScanJob(message: unknownMode) }
    }

    @Test("a refinement's job has an empty body and its names in a header, and survives the trip; a photo job has no such header")
    func refinementRoundTrip() throws {
        var refinement = job
        (refinement.photos, refinement.ingredients) = ([], ["Greek yoghurt", "leeks"])
        let message = refinement.message(now: deadline.addingTimeInterval(-90))
        #expect(message.body.isEmpty)
        #expect(message.properties.headers[ScanJob.Header.ingredients] == #"["Greek yoghurt","leeks"]"#)
        #expect(try ScanJob(message: message) == refinement)
        #expect(job.message().properties.headers[ScanJob.Header.ingredients] == nil)
    }

    @Test("names that are not a JSON array of strings, or names with photos, are not a job", arguments: ["leeks", "[]", "[1]", #"["leeks"]"#])
    func badIngredientsAreRefused(_ names: String) {
        var message = job.message()
        message.properties.headers[ScanJob.Header.ingredients] = names
        #expect(throws: ScanJobDecodingError.self) { try ScanJob(message: message) }
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
