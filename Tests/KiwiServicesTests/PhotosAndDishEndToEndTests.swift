import Foundation
import KiwiDevelopment
import KiwiModels
import KiwiTestSupport
import NIOHTTP1
import Testing

@testable import KiwiLLMStub

/// Several photos per scan and dish scans through all three services and the stub.
@Suite("Several photos and dish mode end to end", .serialized, .timeLimit(.minutes(3)))
struct PhotosAndDishEndToEndTests {
    let photos = (1...5).map { JPEGFixtures.withMetadata(SyntheticJPEG.make(size: 8 * 1024, seed: 120 + UInt64($0))) }

    func upload(_ photos: [[UInt8]], mode: String? = nil, token: String, rig: SystemRig) async throws -> SystemRig.Exchange {
        let upload = MultipartUpload.make(photos: photos, fields: mode.map { [("mode", $0)] } ?? [])
        return try await rig.send(.POST, "/v1/scan", token: token, contentType: upload.contentType, body: upload.body)
    }

    func remaining(_ token: String, rig: SystemRig) async throws -> Int? {
        try await rig.send(.GET, "/v1/quota", token: token).json()["remaining"] as? Int
    }

    @Test("five photos are one scan and one model call with five images, all stripped; six, or 8 MiB + 1 byte, are 400 and cost nothing")
    func severalPhotos() async throws {
        try await SystemRig.run { rig in
            let token = try await rig.signIn()
            let day = UTCDay()
            let answer = try await upload(photos, token: token, rig: rig)
            #expect(answer.status == 200)
            #expect(throws: Never.self) { try ScanResponseContract.validate(answer.body) }
            let received = rig.stub.snapshot.recent
            #expect(received.count == 1)
            #expect(received.first?.imageCount == 5)
            #expect(received.first?.metadataSegments == [])
            #expect(rig.stub.snapshot.imagesWithMetadata == 0)

            let six = try await upload(photos + [photos[0]], token: token, rig: rig)
            #expect(six.status == 400)
            #expect(try six.json()["error"] as? String == "invalid_image")
            let large = (0..<5).map { index in
                [0xFF, 0xD8, 0xFF] + [UInt8](repeating: 0x42, count: ScanPhoto.maximumTotalSize / 5 - 3 + (index == 0 ? 4 : 0))
            }
            #expect(large.reduce(0) { $0 + $1.count } == ScanPhoto.maximumTotalSize + 1)
            let tooLarge = try await upload(large, token: token, rig: rig)
            #expect(tooLarge.status == 400)
            #expect((try tooLarge.json()["message"] as? String)?.contains("at most 8 MiB together") == true)
            #expect(day.allows(try await remaining(token, rig: rig), exactly: 3, limit: 4))
            #expect(rig.stub.snapshot.requests == 1)
        }
    }

    @Test("a dish photo is answered with the dish and one detailed recipe")
    func dish() async throws {
        try await SystemRig.run { rig in
            let token = try await rig.signIn()
            let answer = try await upload([photos[0]], mode: "dish", token: token, rig: rig)
            #expect(answer.status == 200)
            let response = try ScanResponseContract.validate(answer.body)
            #expect(response.mode == .dish && response.recipes.isEmpty)
            let recipe = try #require(response.dish?.recipe)
            #expect((5...20).contains(recipe.steps.count))
            #expect(try answer.json()["mode"] as? String == "dish")
        }
    }

    @Test("a receipt is read line by line; photos that show none are 422 not_a_receipt, refunded; receipts are listed only when asked for")
    func receipt() async throws {
        try await SystemRig.run { rig in
            let token = try await rig.signIn()
            let answer = try await upload(Array(photos.prefix(2)), mode: "receipt", token: token, rig: rig)
            #expect(answer.status == 200)
            let response = try ScanResponseContract.validate(answer.body)
            let receipt = try #require(response.receipt)
            #expect(response.mode == .receipt && !receipt.lines.isEmpty && receipt.totalMismatch == nil)
            let scanID = try #require(answer.headers.first(name: "Location")?.split(separator: "/").last.map(String.init))

            rig.stub.setBehaviour(StubBehaviour(fault: .noFood))
            let refused = try await upload([photos[2]], mode: "receipt", token: token, rig: rig)
            #expect(refused.status == 422)
            #expect(try refused.json()["error"] as? String == "not_a_receipt")
            #expect(try await remaining(token, rig: rig) == 3)

            let listed = try await rig.send(.GET, "/v1/scans", token: token).json()["scans"] as? [[String: Any]]
            #expect(listed?.isEmpty == true)
            let receipts = try await rig.send(.GET, "/v1/scans?mode=receipt", token: token).json()["scans"] as? [[String: Any]]
            #expect(receipts?.compactMap { $0["id"] as? String }.last == scanID)
            #expect(receipts?.count == 2)
        }
    }

    @Test("a dish answer longer than its contract allows is 502 invalid_model_response after its repair, and the scan is refunded")
    func overLengthDish() async throws {
        try await SystemRig.run(behaviour: StubBehaviour(fault: .overLength)) { rig in
            let token = try await rig.signIn()
            let answer = try await upload([photos[0]], mode: "dish", token: token, rig: rig)
            #expect(answer.status == 502)
            #expect(try answer.json()["error"] as? String == "invalid_model_response")
            #expect(try await remaining(token, rig: rig) == 4)
            #expect(rig.stub.snapshot.recent.map(\.parameters.schemaName) == ["kiwi_dish", "kiwi_dish"])
        }
    }
}
