import Foundation
import HTTPTypes
import HummingbirdTesting
import KiwiDatabase
import KiwiDevelopment
import KiwiInternalAPI
import KiwiMessaging
import KiwiModels
import KiwiScans
import KiwiServiceSupport
import KiwiTestSupport
import NIOCore
import Testing

@testable import KiwiGateway

/// `POST /v1/scan` and `GET /v1/quota`, in-process on fakes: quota answers, upload rules and how failures map.
@Suite("Gateway router: blocking scans and quota")
struct BlockingScanRouterTests {
    @Test("GET /v1/quota reports the scans left today, the limit, and the next midnight UTC")
    func quotaReport() async throws {
        let gateway = FakeGateway()
        let (token, _, quotaKey) = gateway.signIn()
        let day = UTCDay()
        gateway.setUsedToday(1, by: quotaKey)
        try await gateway.test { client async throws in
            let before = gateway.policy.resetsAt(after: Date())
            let body = try await client.execute(.get, "/v1/quota", token: token).json()
            let after = gateway.policy.resetsAt(after: Date())
            #expect(day.allows(body["remaining"] as? Int, exactly: 3, limit: 4))
            #expect(body["limit"] as? Int == 4)
            // The next midnight when the gateway answered: the same before and after, unless a midnight passed.
            let resetsAt = try #require(body["resetsAt"] as? String)
            #expect([before, after].map { ISO8601DateFormatter().string(from: $0) }.contains(resetsAt))
        }
    }

    @Test("with the day's 4 scans used a scan is 429 with resetsAt and Retry-After, and no photo reaches the workers")
    func quotaSpent() async throws {
        let gateway = FakeGateway()
        let (token, _, quotaKey) = gateway.signIn()
        gateway.setUsedToday(4, by: quotaKey)
        try await gateway.test { client async throws in
            let longest = gateway.policy.retryAfterSeconds(at: Date())
            let answer = try await client.scan(testPhoto, token: token)
            let shortest = gateway.policy.retryAfterSeconds(at: Date())
            #expect(answer.status == .tooManyRequests)
            let body = try answer.json()
            #expect(body["error"] as? String == "rate_limit_exceeded")
            #expect(body["resetsAt"] is String)
            let retryAfter = try #require(answer.headers[.retryAfter].flatMap(Int.init))
            // Counted down from when the gateway answered, between the two readings (a midnight may pass in between).
            #expect((shortest...longest).contains(retryAfter) || shortest > longest)
        }
        #expect(gateway.workers.photos.isEmpty)
    }

    @Test("a successful scan answers the workers' result with the model's time as Server-Timing")
    func successfulScan() async throws {
        let result = ScanResponse(ingredients: [], recipes: [])
        let gateway = FakeGateway(workers: .answer(.ok(result), modelTime: .milliseconds(1234)))
        let (token, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            let answer = try await client.scan(testPhoto, token: token, headers: [.requestID: "scan-1"])
            #expect(answer.status == .ok)
            #expect(try KiwiJSON.decoder().decode(ScanResponse.self, from: Data(answer.body.readableBytesView)) == result)
            #expect(answer.headers[.serverTiming] == "llm;dur=1234.0")
        }
        #expect(gateway.workers.photos == [testPhoto])
        #expect(gateway.workers.requestIDs == ["scan-1"])
    }

    @Test("a successful scan is recorded with its result and uses one of the day's scans")
    func successfulScanIsCounted() async throws {
        let gateway = FakeGateway()
        let (token, session, quotaKey) = gateway.signIn()
        try await gateway.test { client async throws in
            #expect(try await client.scan(testPhoto, token: token).status == .ok)
        }
        #expect(try await gateway.used(by: quotaKey) == 1)
        #expect(gateway.ledger.records.map(\.state) == [.succeeded])
        #expect(gateway.ledger.records.first?.userID == session.userId)
    }

    @Test("a successful scan names its resource in Location, and GET on it shows the scan succeeded with its result")
    func scanResource() async throws {
        let result = ScanResponse(ingredients: [], recipes: [])
        let gateway = FakeGateway(workers: .answer(.ok(result), modelTime: nil))
        let (token, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            let location = try #require(try await client.scan(testPhoto, token: token).headers[.location])
            let scan = try await client.execute(.get, location, token: token)
            #expect(scan.status == .ok)
            let resource = try KiwiJSON.decoder().decode(ScanResource.self, from: Data(scan.body.readableBytesView))
            #expect(location == "/v1/scans/\(resource.id.uuidString.lowercased())")
            #expect(resource.status == "succeeded")
            #expect(resource.result == result)
            #expect(resource.error == nil)
        }
    }

    @Test("a failed scan's resource carries the error its request was answered with")
    func failedScanResource() async throws {
        let gateway = FakeGateway(workers: .answer(.error(ScanFailure(.invalidModelResponse, "")), modelTime: nil))
        let (token, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            #expect(try await client.scan(testPhoto, token: token).status == .badGateway)
            let id = try #require(gateway.ledger.records.first?.id)
            let resource = try await client.execute(.get, "/v1/scans/\(id)", token: token).json()
            #expect(resource["status"] as? String == "failed")
            #expect((resource["error"] as? [String: Any])?["error"] as? String == "invalid_model_response")
            #expect(resource["result"] == nil)
        }
    }

    @Test("another user's scan, an unknown id and a malformed id are all 404 not_found")
    func scanResourceNotFound() async throws {
        let gateway = FakeGateway()
        let (owner, _, _) = gateway.signIn()
        let (stranger, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            let location = try #require(try await client.scan(testPhoto, token: owner).headers[.location])
            for path in [location, "/v1/scans/\(UUID())", "/v1/scans/not-a-uuid"] {
                let answer = try await client.execute(.get, path, token: stranger)
                #expect(answer.status == .notFound, "\(path)")
                #expect(answer.errorCode == "not_found", "\(path)")
            }
        }
    }

    @Test("a retry with the same Idempotency-Key and photo gets the same answer without a second scan or charge")
    func idempotentRetry() async throws {
        let gateway = FakeGateway()
        let (token, _, quotaKey) = gateway.signIn()
        try await gateway.test { client async throws in
            let first = try await client.scan(testPhoto, token: token, headers: [.idempotencyKey: "retry-1"])
            let again = try await client.scan(testPhoto, token: token, headers: [.idempotencyKey: "retry-1"])
            #expect(first.status == .ok && again.status == .ok)
            let answers = try [first, again].map { try KiwiJSON.decoder().decode(ScanResponse.self, from: Data($0.body.readableBytesView)) }
            #expect(answers[0] == answers[1])
        }
        #expect(gateway.workers.photos.count == 1)
        #expect(try await gateway.used(by: quotaKey) == 1)
    }

    @Test("the same Idempotency-Key with another photo is 422 idempotency_key_reused")
    func idempotencyKeyReused() async throws {
        let gateway = FakeGateway()
        let (token, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            _ = try await client.scan(testPhoto, token: token, headers: [.idempotencyKey: "k"])
            let other = try await client.scan(testPhoto + [0x00], token: token, headers: [.idempotencyKey: "k"])
            #expect(other.status == .unprocessableContent)
            #expect(other.errorCode == "idempotency_key_reused")
        }
        #expect(gateway.workers.photos.count == 1)
    }

    @Test("a retry of a failed scan with its Idempotency-Key gets the same failure, and nothing is charged")
    func idempotentRetryOfFailure() async throws {
        let gateway = FakeGateway(workers: .answer(.error(ScanFailure(.llmUnavailable, "down")), modelTime: nil))
        let (token, _, quotaKey) = gateway.signIn()
        try await gateway.test { client async throws in
            for _ in 0..<2 {
                let answer = try await client.scan(testPhoto, token: token, headers: [.idempotencyKey: "k"])
                #expect(answer.status == .serviceUnavailable)
                #expect(answer.errorCode == "scan_unavailable")
            }
        }
        #expect(gateway.workers.photos.count == 1)
        #expect(try await gateway.used(by: quotaKey) == 0)
    }

    @Test("a keyed retry of the day's last scan gets that scan's answer, while a new scan is refused before its upload")
    func keyedRetryOfTheLastScan() async throws {
        let gateway = FakeGateway()
        let (token, _, quotaKey) = gateway.signIn()
        gateway.setUsedToday(3, by: quotaKey)
        try await gateway.test { client async throws in
            #expect(try await client.scan(testPhoto, token: token, headers: [.idempotencyKey: "last"]).status == .ok)
            #expect(try await client.scan(testPhoto, token: token, headers: [.idempotencyKey: "last"]).status == .ok)
            #expect(try await client.scan(testPhoto, token: token, headers: [.idempotencyKey: "another"]).status == .tooManyRequests)
            #expect(try await client.scan(testPhoto, token: token).status == .tooManyRequests)
        }
        #expect(gateway.workers.photos.count == 1)
        #expect(try await gateway.used(by: quotaKey) == 4)
    }

    @Test("an Idempotency-Key that is not 1 to 255 visible characters is 400", arguments: ["", "has space", String(repeating: "k", count: 256)])
    func malformedIdempotencyKey(_ key: String) async throws {
        let gateway = FakeGateway()
        let (token, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            let answer = try await client.scan(testPhoto, token: token, headers: [.idempotencyKey: key])
            #expect(answer.status == .badRequest)
        }
        #expect(gateway.workers.photos.isEmpty)
    }

    @Test(
        "an upload that breaks a rule is 400 invalid_image naming the rule, and costs nothing",
        arguments: [
            ("PNG", MultipartUpload.make([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), "must be a JPEG"),
            ("empty", MultipartUpload.make([]), "empty"),
            ("2 MiB + 1 byte", MultipartUpload.make([0xFF, 0xD8, 0xFF] + Array(repeating: 0x42, count: ScanPhoto.maximumSize - 2)), "at most 2 MiB"),
            ("wrong field", MultipartUpload.make(testPhoto, field: "photo"), "no field named 'image'"),
            ("labelled image/png", MultipartUpload.make(testPhoto, partType: "image/png"), "must be image/jpeg"),
            ("not multipart", (contentType: "image/jpeg", body: testPhoto), "must be multipart/form-data"),
            ("malformed multipart", (contentType: "multipart/form-data; boundary=b", body: Array("no parts here".utf8)), "malformed"),
            ("six photos", MultipartUpload.make(photos: Array(repeating: testPhoto, count: 6)), "at most 5 photos; this request has 6"),
            ("a bad second photo", MultipartUpload.make(photos: [testPhoto, [0x89, 0x50, 0x4E, 0x47]]), "Photo 2 must be a JPEG"),
            (
                "8 MiB + 1 byte in all",
                MultipartUpload.make(photos: BlockingScanRouterTests.photos(totalling: ScanPhoto.maximumTotalSize + 1)),
                "at most 8 MiB together; these are 8388609 bytes"
            ),
        ]
    )
    func uploadRule(_ why: String, _ upload: (contentType: String, body: [UInt8]), _ rule: String) async throws {
        let gateway = FakeGateway()
        let (token, _, quotaKey) = gateway.signIn()
        try await gateway.test { client async throws in
            let answer = try await client.upload(upload.body, contentType: upload.contentType, token: token)
            #expect(answer.status == .badRequest, "\(why)")
            #expect(answer.errorCode == "invalid_image", "\(why)")
            #expect((try answer.json()["message"] as? String)?.contains(rule) == true, "\(why)")
        }
        #expect(gateway.workers.photos.isEmpty)
        #expect(try await gateway.used(by: quotaKey) == 0)
    }

    /// Five JPEG-looking photos of at most 2 MiB each, `total` bytes together.
    static func photos(totalling total: Int) -> [[UInt8]] {
        (0..<ScanPhoto.maximumCount).map { index in
            let size = total / ScanPhoto.maximumCount + (index < total % ScanPhoto.maximumCount ? 1 : 0)
            return [0xFF, 0xD8, 0xFF] + Array(repeating: 0x42, count: size - 3)
        }
    }

    @Test("up to five photos make one scan and one job with every photo, in order")
    func severalPhotos() async throws {
        let gateway = FakeGateway()
        let (token, _, quotaKey) = gateway.signIn()
        let photos = (1...5).map { testPhoto + [UInt8($0)] }
        try await gateway.test { client async throws in
            let upload = MultipartUpload.make(photos: photos)
            #expect(try await client.upload(upload.body, contentType: upload.contentType, token: token).status == .ok)
        }
        #expect(gateway.workers.photos == photos)
        #expect(gateway.workers.modes == [.fridge])
        #expect(try await gateway.used(by: quotaKey) == 1)
    }

    @Test("a blocking scan's job asks the workers to show nothing before the result, which its client alone waits for")
    func jobShowsNoPartials() async throws {
        let gateway = FakeGateway()
        let (token, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            #expect(try await client.scan(testPhoto, token: token).status == .ok)
        }
        #expect(gateway.workers.showsPartials == [false])
    }

    @Test("8 MiB of photos in all is accepted")
    func eightMiBAccepted() async throws {
        let gateway = FakeGateway()
        let (token, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            let upload = MultipartUpload.make(photos: Self.photos(totalling: ScanPhoto.maximumTotalSize))
            #expect(try await client.upload(upload.body, contentType: upload.contentType, token: token).status == .ok)
        }
    }

    @Test("mode=dish makes a dish scan's job; a mode that is neither fridge nor dish is 400 bad_request and costs nothing")
    func dishMode() async throws {
        let gateway = FakeGateway()
        let (token, _, quotaKey) = gateway.signIn()
        try await gateway.test { client async throws in
            let dish = MultipartUpload.make(photos: [testPhoto], fields: [("mode", "dish")])
            #expect(try await client.upload(dish.body, contentType: dish.contentType, token: token).status == .ok)
            let pantry = MultipartUpload.make(photos: [testPhoto], fields: [("mode", "pantry")])
            let refused = try await client.upload(pantry.body, contentType: pantry.contentType, token: token)
            #expect(refused.status == .badRequest)
            #expect(refused.errorCode == "bad_request")
        }
        #expect(gateway.workers.modes == [.dish])
        #expect(try await gateway.used(by: quotaKey) == 1)
    }

    @Test("a body over the limit is refused as too large, however it is framed")
    func bodyTooLarge() async throws {
        let gateway = FakeGateway()
        let (token, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            let tooLarge = [UInt8](repeating: 0x42, count: ImageUpload.largestBody + 1)
            let answer = try await client.upload(tooLarge, contentType: "multipart/form-data; boundary=b", token: token)
            #expect(answer.status == .badRequest)
            #expect(
                try answer.json()["message"] as? String
                    == "The photos must be at most 2 MiB each and 8 MiB together; this upload is larger. Send smaller or more compressed JPEGs."
            )
        }
    }

    @Test(
        "a scan the workers fail is answered with its own status and code, and refunded",
        arguments: [
            (ScanFailure.Code.invalidModelResponse, HTTPResponse.Status.badGateway, "invalid_model_response"),
            (.llmUnavailable, .serviceUnavailable, "scan_unavailable"),
            (.scanTimeout, .gatewayTimeout, "scan_timeout"),
            (.invalidImage, .badRequest, "invalid_image"),
            (.notAReceipt, .unprocessableContent, "not_a_receipt"),
        ]
    )
    func workerFailure(_ code: ScanFailure.Code, _ status: HTTPResponse.Status, _ errorCode: String) async throws {
        let gateway = FakeGateway(workers: .answer(.error(ScanFailure(code, "the photo is not a fridge")), modelTime: nil))
        let (token, _, quotaKey) = gateway.signIn()
        try await gateway.test { client async throws in
            let answer = try await client.scan(testPhoto, token: token)
            #expect(answer.status == status)
            #expect(answer.errorCode == errorCode)
        }
        #expect(gateway.ledger.records.map(\.state) == [.failed])
        #expect(try await gateway.used(by: quotaKey) == 0)
    }

    @Test("a job whose fate is unknown (the connection dropped before the broker confirmed it) is 503 scan_unavailable, failed and refunded")
    func jobLost() async throws {
        let gateway = FakeGateway(workers: .refuse(AMQPError.connectionLost("reset")))
        let (token, _, quotaKey) = gateway.signIn()
        try await gateway.test { client async throws in
            let answer = try await client.scan(testPhoto, token: token)
            #expect(answer.status == .serviceUnavailable)
            #expect(answer.errorCode == "scan_unavailable")
        }
        #expect(gateway.ledger.records.map(\.state) == [.failed])
        #expect(try await gateway.used(by: quotaKey) == 0)
    }

    @Test("a job that never left the gateway is 503 scan_unavailable, failed and refunded, and its key starts a new scan")
    func jobNotSent() async throws {
        let gateway = FakeGateway(workers: .refuse(ScanNotSent(reason: "not connected to RabbitMQ")))
        let (token, _, quotaKey) = gateway.signIn()
        try await gateway.test { client async throws in
            let answer = try await client.scan(testPhoto, token: token, headers: [.idempotencyKey: "k"])
            #expect(answer.status == .serviceUnavailable)
            #expect(answer.errorCode == "scan_unavailable")
            gateway.workers.set(.answer(.ok(ScanResponse(ingredients: [], recipes: [])), modelTime: nil))
            let retried = try await client.scan(testPhoto, token: token, headers: [.idempotencyKey: "k"])
            #expect(retried.status == .ok)
        }
        #expect(gateway.ledger.records.map(\.state).sorted { $0.rawValue < $1.rawValue } == [.failed, .succeeded])
        #expect(try await gateway.used(by: quotaKey) == 1)
    }

    @Test("a job that could not be sealed with its profile is 500 internal_error, failed, refunded, never sent, and its key starts a new scan")
    func jobNotSealed() async throws {
        let gateway = FakeGateway(workers: .refuse(ScanJobEncodingError("the profile could not be encoded")))
        let (token, _, quotaKey) = gateway.signIn()
        try await gateway.test { client async throws in
            let answer = try await client.scan(testPhoto, token: token, headers: [.idempotencyKey: "k"])
            #expect(answer.status == .internalServerError)
            #expect(answer.errorCode == "internal_error")
            #expect(try await gateway.used(by: quotaKey) == 0)
            gateway.workers.set(.answer(.ok(ScanResponse(ingredients: [], recipes: [])), modelTime: nil))
            let retried = try await client.scan(testPhoto, token: token, headers: [.idempotencyKey: "k"])
            #expect(retried.status == .ok)
        }
        #expect(gateway.ledger.records.map(\.state).sorted { $0.rawValue < $1.rawValue } == [.failed, .succeeded])
    }

    @Test("a scan no worker answers by its deadline is 504 scan_timeout, failed, announced and refunded")
    func noAnswerByTheDeadline() async throws {
        let gateway = FakeGateway(workers: .hold, scanTimeout: .milliseconds(300))
        let (token, _, quotaKey) = gateway.signIn()
        try await gateway.test { client async throws in
            let answer = try await client.scan(testPhoto, token: token)
            #expect(answer.status == .gatewayTimeout)
            #expect(answer.errorCode == "scan_timeout")
        }
        let scan = try #require(gateway.ledger.records.first)
        #expect(scan.state == .failed && scan.errorCode == .scanTimeout)
        #expect(gateway.announcer.announced == [ScanEvent(scanID: scan.id, state: .failed)])
        #expect(try await gateway.used(by: quotaKey) == 0)
    }

    @Test("a worker's answer that lands while the request waits is answered at once")
    func answerWhileWaiting() async throws {
        let gateway = FakeGateway(workers: .hold, scanTimeout: .seconds(3600))
        let (token, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            let worker = Task { gateway.workers.answer(try await firstJob(of: gateway), with: Self.noFood) }
            let answer = try await client.scan(testPhoto, token: token)
            try await worker.value
            #expect(answer.status == .ok)
        }
    }

    @Test("a waiting scan outlives its store out of reach: the request keeps waiting, and answers the outcome once it is back")
    func waitOutlivesStoreOutage() async throws {
        let gateway = FakeGateway(workers: .hold, scanTimeout: .seconds(3600))
        let (token, _, quotaKey) = gateway.signIn()
        try await gateway.test { client async throws in
            let worker = Task {
                let id = try await firstJob(of: gateway)
                gateway.ledger.fail(with: DatabaseUnavailable(description: "restarting"))
                // News while the store is out of reach: the request reads, and cannot.
                await gateway.announcer.announce(ScanEvent(scanID: id, state: .succeeded))
                try await eventually { gateway.ledger.failedReads > 0 }
                gateway.ledger.fail(with: nil)
                gateway.workers.answer(id, with: Self.noFood)
            }
            let answer = try await client.scan(testPhoto, token: token)
            try await worker.value
            #expect(answer.status == .ok)
        }
        #expect(try await gateway.used(by: quotaKey) == 1)
    }

    @Test("a server error about a started scan names the scan in its body and its resource as Location")
    func serverErrorNamesTheScan() async throws {
        let gateway = FakeGateway(workers: .answer(.error(ScanFailure(.invalidModelResponse, "")), modelTime: nil))
        let (token, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            let answer = try await client.scan(testPhoto, token: token)
            let scan = try #require(gateway.ledger.records.first)
            #expect(answer.status == .badGateway)
            #expect(answer.headers[.location] == "/v1/scans/\(scan.id.uuidString.lowercased())")
            #expect(try answer.json()["scanId"] as? String == scan.id.uuidString.lowercased())
        }
    }

    @Test("a job the broker refused is 503 naming the failed scan, whose resource shows the same error")
    func refusedJobNamesTheScan() async throws {
        let gateway = FakeGateway(workers: .refuse(ScanNotSent(reason: "not connected to RabbitMQ")))
        let (token, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            let answer = try await client.scan(testPhoto, token: token)
            #expect(answer.status == .serviceUnavailable)
            let location = try #require(answer.headers[.location])
            let resource = try await client.execute(.get, location, token: token).json()
            #expect(resource["status"] as? String == "failed")
            #expect((resource["error"] as? [String: Any])?["error"] as? String == "scan_unavailable")
        }
    }

    @Test("a waiting scan is not woken, and reads nothing, when a worker starts it or shows its steps; it reads its record once, for the outcome")
    func oneReadPerOutcome() async throws {
        let gateway = FakeGateway(workers: .hold, scanTimeout: .seconds(3600))
        let (token, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            let worker = Task {
                let id = try await firstJob(of: gateway)
                try await eventually { gateway.hub.waitsBegun(on: id) > 0 }
                let (before, waits) = (gateway.ledger.reads, gateway.hub.waitsBegun(on: id))
                gateway.workers.start(id)
                gateway.workers.show([shownIngredients("leeks")] + (0..<4).map { shownRecipe($0, "Leek dish \($0)") }, of: id)
                // Time for a woken request to read and wait again, which is what would fail this test.
                try await Task.sleep(for: .milliseconds(200))
                let (readsWhileOpen, wokenWhileOpen) = (gateway.ledger.reads - before, gateway.hub.waitsBegun(on: id) - waits)
                gateway.workers.answer(id, with: Self.noFood)
                return (before, readsWhileOpen, wokenWhileOpen)
            }
            let answer = try await client.scan(testPhoto, token: token)
            let (before, readsWhileOpen, wokenWhileOpen) = try await worker.value
            #expect(answer.status == .ok)
            #expect(readsWhileOpen == 0)
            #expect(wokenWhileOpen == 0)
            #expect(gateway.ledger.reads - before == 1)
        }
    }

    /// A worker's answer for a photo with no food in it.
    static let noFood = ScanOutcome.ok(ScanResponse(ingredients: [], recipes: []))

    /// The id of the first scan whose job the held workers received, once there is one.
    func firstJob(of gateway: FakeGateway) async throws -> UUID {
        try await eventually { !gateway.workers.scanIDs.isEmpty }
        return gateway.workers.scanIDs[0]
    }

    @Test("a quota store that cannot be used makes a scan 503 service_unavailable with Retry-After")
    func quotaStoreDown() async throws {
        let gateway = FakeGateway()
        let (token, _, _) = gateway.signIn()
        gateway.ledger.fail(with: DatabaseUnavailable(description: "no connection within 5 seconds"))
        try await gateway.test { client async throws in
            let answer = try await client.scan(testPhoto, token: token)
            #expect(answer.status == .serviceUnavailable)
            #expect(answer.errorCode == "service_unavailable")
            #expect(answer.headers[.retryAfter] == "1")
        }
        #expect(gateway.workers.photos.isEmpty)
    }
}
