import Foundation
import HTTPTypes
import HummingbirdTesting
import KiwiDevelopment
import KiwiModels
import KiwiScans
import KiwiTestSupport
import NIOCore
import Testing

@testable import KiwiGateway

/// The scan as a resource, in-process on fakes: `POST /v1/scans` with and without `Prefer: wait`, the list, deletion
/// and the server-sent event stream.
@Suite("Gateway router: scans as resources")
struct ScansRouterTests {
    static let empty = ScanResponse(ingredients: [], recipes: [])

    func resource(_ answer: TestResponse) throws -> ScanResource {
        try KiwiJSON.decoder().decode(ScanResource.self, from: Data(answer.body.readableBytesView))
    }

    @Test("POST /v1/scans answers 202 at once with the queued scan and its Location, and hands the job to the workers")
    func createAnswersAtOnce() async throws {
        let gateway = FakeGateway(workers: .hold)
        let (token, _, quotaKey) = gateway.signIn()
        try await gateway.test { client async throws in
            let answer = try await client.scan(testPhoto, token: token, path: "/v1/scans")
            #expect(answer.status == .accepted)
            let scan = try resource(answer)
            #expect(scan.status == "queued")
            #expect(answer.headers[.location] == "/v1/scans/\(scan.id.uuidString.lowercased())")
            #expect(answer.headers[.preferenceApplied] == nil)
            #expect(gateway.workers.scanIDs == [scan.id])
        }
        #expect(try await gateway.used(by: quotaKey) == 1)
    }

    @Test("an async scan's job asks the workers to show its answer's elements as they stream")
    func jobShowsPartials() async throws {
        let gateway = FakeGateway(workers: .hold)
        let (token, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            #expect(try await client.scan(testPhoto, token: token, path: "/v1/scans").status == .accepted)
        }
        #expect(gateway.workers.showsPartials == [true])
    }

    @Test("with Prefer: wait=5 a scan that finishes in time is answered 200 with its result, and the wait is said applied")
    func preferWaitFinished() async throws {
        let gateway = FakeGateway(workers: .answer(.ok(Self.empty), modelTime: nil))
        let (token, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            let answer = try await client.scan(testPhoto, token: token, headers: [.prefer: "wait=5"], path: "/v1/scans")
            #expect(answer.status == .ok)
            #expect(answer.headers[.preferenceApplied] == "wait=5")
            let scan = try resource(answer)
            #expect(scan.status == "succeeded")
            #expect(scan.result == Self.empty)
        }
    }

    @Test("with Prefer: wait a scan still open when the wait ends is answered 202")
    func preferWaitOpen() async throws {
        let gateway = FakeGateway(workers: .hold)
        let (token, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            let answer = try await client.scan(testPhoto, token: token, headers: [.prefer: "respond-async, wait=1"], path: "/v1/scans")
            #expect(answer.status == .accepted)
            #expect(answer.headers[.preferenceApplied] == "wait=1")
            #expect(try resource(answer).status == "queued")
        }
    }

    @Test("Prefer: wait is read among other preferences and capped at 60 seconds; nonsense is ignored")
    func preferredWait() {
        #expect(ScansController.preferredWait(["wait=10"]) == 10)
        #expect(ScansController.preferredWait(["respond-async, wait = 3"]) == 3)
        #expect(ScansController.preferredWait(["handling=lenient", "wait=600"]) == 60)
        #expect(ScansController.preferredWait(["wait=soon", "return=minimal"]) == nil)
        #expect(ScansController.preferredWait([]) == nil)
    }

    @Test("a failed scan is a 200 resource with its error under Prefer: wait, and is not charged")
    func preferWaitFailed() async throws {
        let gateway = FakeGateway(workers: .answer(.error(ScanFailure(.invalidImage, "The photo is not a valid JPEG: truncated.")), modelTime: nil))
        let (token, _, quotaKey) = gateway.signIn()
        try await gateway.test { client async throws in
            let answer = try await client.scan(testPhoto, token: token, headers: [.prefer: "wait=5"], path: "/v1/scans")
            #expect(answer.status == .ok)
            let scan = try resource(answer)
            #expect(scan.status == "failed")
            #expect(scan.error == ErrorBody(error: .invalidImage, message: "The photo is not a valid JPEG: truncated."))
        }
        #expect(try await gateway.used(by: quotaKey) == 0)
    }

    @Test("a repeated Idempotency-Key on POST /v1/scans answers the same scan, with one job and one charge")
    func createIsIdempotent() async throws {
        let gateway = FakeGateway(workers: .hold)
        let (token, _, quotaKey) = gateway.signIn()
        try await gateway.test { client async throws in
            let first = try resource(try await client.scan(testPhoto, token: token, headers: [.idempotencyKey: "a"], path: "/v1/scans"))
            let again = try resource(try await client.scan(testPhoto, token: token, headers: [.idempotencyKey: "a"], path: "/v1/scans"))
            #expect(first.id == again.id)
        }
        #expect(gateway.workers.scanIDs.count == 1)
        #expect(try await gateway.used(by: quotaKey) == 1)
    }

    @Test("POST /v1/scans with the day's scans used is 429, like POST /v1/scan")
    func createOverQuota() async throws {
        let gateway = FakeGateway()
        let (token, _, quotaKey) = gateway.signIn()
        gateway.setUsedToday(4, by: quotaKey)
        try await gateway.test { client async throws in
            let answer = try await client.scan(testPhoto, token: token, path: "/v1/scans")
            #expect(answer.status == .tooManyRequests)
            #expect(answer.errorCode == "rate_limit_exceeded")
        }
        #expect(gateway.workers.photos.isEmpty)
    }

    @Test("a scan started while every start slot is taken is refused at once with 503 and Retry-After, and not counted")
    func createBeyondTheStartSlots() async throws {
        let (confirmation, confirm) = AsyncStream.makeStream(of: Void.self)
        let gateway = FakeGateway(workers: .stall(until: confirmation), scanStartSlots: 1)
        let (token, _, quotaKey) = gateway.signIn()
        try await gateway.test { client async throws in
            async let first = client.scan(testPhoto, token: token, path: "/v1/scans")
            // The first start holds the only slot until the broker confirms its job.
            try await eventually { gateway.workers.scanIDs.count == 1 }
            let refused = try await client.scan(testPhoto, token: token, path: "/v1/scans")
            #expect(refused.status == .serviceUnavailable)
            #expect(refused.errorCode == "scan_unavailable")
            #expect(refused.headers[.retryAfter] == "1")
            confirm.yield()
            #expect(try await first.status == .accepted)
        }
        #expect(gateway.workers.scanIDs.count == 1)
        #expect(try await gateway.used(by: quotaKey) == 1)
    }

    @Test("GET /v1/scans lists the user's own scans newest first, a page at a time, until there is no next cursor")
    func list() async throws {
        let gateway = FakeGateway(workers: .hold)
        let (token, _, _) = gateway.signIn()
        let (other, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            var created: [UUID] = []
            for _ in 0..<3 {
                created.append(try resource(try await client.scan(testPhoto, token: token, path: "/v1/scans")).id)
                try await Task.sleep(for: .milliseconds(5))  // distinct creation times
            }
            _ = try await client.scan(testPhoto, token: other, path: "/v1/scans")
            var listed: [UUID] = []
            var path = "/v1/scans?limit=2"
            var pages = 0
            while true {
                let page = try KiwiJSON.decoder().decode(
                    ScanList.self,
                    from: Data(try await client.execute(.get, path, token: token).body.readableBytesView)
                )
                listed += page.scans.map(\.id)
                pages += 1
                guard let next = page.nextCursor else { break }
                path = "/v1/scans?limit=2&cursor=\(next)"
            }
            #expect(listed == created.reversed())
            #expect(pages == 2)
        }
    }

    @Test("GET /v1/scans lists a receipt scan only with ?mode=receipt, and fridge and dish scans without a mode")
    func listByMode() async throws {
        let gateway = FakeGateway(workers: .hold)
        let (token, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            var created: [ScanMode: UUID] = [:]
            for mode in ScanMode.allCases {
                let upload = MultipartUpload.make(photos: [testPhoto], fields: [("mode", mode.rawValue)])
                created[mode] = try resource(try await client.upload(upload.body, contentType: upload.contentType, token: token, path: "/v1/scans"))
                    .id
            }
            func listed(_ query: String) async throws -> Set<UUID> {
                let answer = try await client.execute(.get, "/v1/scans\(query)", token: token)
                return Set(try KiwiJSON.decoder().decode(ScanList.self, from: Data(answer.body.readableBytesView)).scans.map(\.id))
            }
            #expect(try await listed("") == [created[.fridge]!, created[.dish]!])
            #expect(try await listed("?mode=receipt") == [created[.receipt]!])
            #expect(try await listed("?mode=dish") == [created[.dish]!])
        }
        #expect(gateway.workers.modes == [.fridge, .dish, .receipt])
    }

    @Test(
        "a limit outside 1–100, a cursor that was never handed out or an unknown mode is 400",
        arguments: ["limit=0", "limit=101", "limit=ten", "cursor=bm9wZQ", "mode=pantry"]
    )
    func listRejectsBadQuery(_ query: String) async throws {
        let gateway = FakeGateway()
        let (token, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            let answer = try await client.execute(.get, "/v1/scans?\(query)", token: token)
            #expect(answer.status == .badRequest)
            #expect(answer.errorCode == "bad_request")
        }
    }

    @Test("DELETE of a queued scan cancels it and gives the charge back; the scan is gone and its news announced")
    func cancelQueued() async throws {
        let gateway = FakeGateway(workers: .hold)
        let (token, _, quotaKey) = gateway.signIn()
        try await gateway.test { client async throws in
            let scan = try resource(try await client.scan(testPhoto, token: token, path: "/v1/scans"))
            #expect(try await client.execute(.delete, "/v1/scans/\(scan.id)", token: token).status == .noContent)
            #expect(try await client.execute(.get, "/v1/scans/\(scan.id)", token: token).status == .notFound)
            #expect(gateway.announcer.announced == [ScanEvent(scanID: scan.id, state: .failed)])
        }
        #expect(try await gateway.used(by: quotaKey) == 0)
    }

    @Test("DELETE of a running scan is 409 scan_in_progress; of a finished one 204, and a success stays charged")
    func deleteRunningAndFinished() async throws {
        let gateway = FakeGateway(workers: .hold)
        let (token, _, quotaKey) = gateway.signIn()
        try await gateway.test { client async throws in
            let scan = try resource(try await client.scan(testPhoto, token: token, path: "/v1/scans"))
            gateway.workers.start(scan.id)
            let running = try await client.execute(.delete, "/v1/scans/\(scan.id)", token: token)
            #expect(running.status == .conflict)
            #expect(running.errorCode == "scan_in_progress")
            gateway.workers.answer(scan.id, with: .ok(Self.empty))
            #expect(try await client.execute(.delete, "/v1/scans/\(scan.id)", token: token).status == .noContent)
        }
        #expect(gateway.ledger.records.isEmpty)
        #expect(try await gateway.used(by: quotaKey) == 1)
    }

    @Test("DELETE of another user's scan or an unknown id is 404 and changes nothing")
    func deleteNotFound() async throws {
        let gateway = FakeGateway(workers: .hold)
        let (owner, _, _) = gateway.signIn()
        let (stranger, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            let scan = try resource(try await client.scan(testPhoto, token: owner, path: "/v1/scans"))
            for path in ["/v1/scans/\(scan.id)", "/v1/scans/\(UUID())", "/v1/scans/nope"] {
                #expect(try await client.execute(.delete, path, token: stranger).status == .notFound, "\(path)")
            }
        }
        #expect(gateway.ledger.records.count == 1)
    }

    /// The server-sent events of a body: (id, event, scan status) of each.
    func events(_ answer: TestResponse) throws -> [(id: String, event: String, status: String)] {
        try serverSentEvents(in: String(buffer: answer.body)).map { fields in
            let data = try #require(fields["data"])
            let scan = try KiwiJSON.decoder().decode(ScanResource.self, from: Data(data.utf8))
            return (fields["id"] ?? "", fields["event"] ?? "", scan.status)
        }
    }

    @Test("the event stream reports queued, running, then one result event, and ends")
    func eventOrder() async throws {
        let gateway = FakeGateway(workers: .hold)
        let (token, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            let scan = try resource(try await client.scan(testPhoto, token: token, path: "/v1/scans"))
            let before = gateway.ledger.reads
            let worker = Task {
                // The stream has read the scan (its check and its first look) before the worker starts it, and
                // looked again before the worker answers: each step is seen.
                while gateway.ledger.reads < before + 2 || gateway.hub.watchedScans == 0 { try await Task.sleep(for: .milliseconds(5)) }
                gateway.workers.start(scan.id)
                while gateway.ledger.reads < before + 3 { try await Task.sleep(for: .milliseconds(5)) }
                gateway.workers.answer(scan.id, with: .ok(Self.empty))
            }
            let stream = try await client.execute(.get, "/v1/scans/\(scan.id)/events", token: token)
            try await worker.value
            #expect(stream.status == .ok)
            #expect(stream.headers[.contentType] == "text/event-stream")
            let events = try events(stream)
            #expect(events.map(\.id) == ["1", "2", "3"])
            #expect(events.map(\.event) == ["status", "status", "result"])
            #expect(events.map(\.status) == ["queued", "running", "succeeded"])
        }
    }

    @Test("a stream opened after the scan finished gets its outcome at once; a failed scan ends with an error event")
    func streamOfFinishedScan() async throws {
        let gateway = FakeGateway(workers: .answer(.error(ScanFailure(.invalidModelResponse, "")), modelTime: nil))
        let (token, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            let scan = try resource(try await client.scan(testPhoto, token: token, path: "/v1/scans"))
            let events = try events(try await client.execute(.get, "/v1/scans/\(scan.id)/events", token: token))
            #expect(events.map(\.event) == ["status", "error"])
            #expect(events.map(\.id) == ["1", "3"])
        }
    }

    @Test("a client reconnecting with Last-Event-ID gets only what it missed, and 204 once it has seen the end")
    func lastEventID() async throws {
        let gateway = FakeGateway()
        let (token, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            let scan = try resource(try await client.scan(testPhoto, token: token, path: "/v1/scans"))
            let path = "/v1/scans/\(scan.id)/events"
            let resumed = try await client.execute(.get, path, token: token, headers: [.lastEventID: "1"])
            #expect(try events(resumed).map(\.event) == ["result"])
            #expect(try await client.execute(.get, path, token: token, headers: [.lastEventID: "3"]).status == .noContent)
        }
    }

    @Test("another user's event stream is 404")
    func streamNotFound() async throws {
        let gateway = FakeGateway()
        let (owner, _, _) = gateway.signIn()
        let (stranger, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            let scan = try resource(try await client.scan(testPhoto, token: owner, path: "/v1/scans"))
            #expect(try await client.execute(.get, "/v1/scans/\(scan.id)/events", token: stranger).status == .notFound)
        }
    }
}
