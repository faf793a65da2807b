import Foundation
import KiwiDevelopment
import KiwiJPEG
import KiwiModels
import KiwiTestSupport
import NIOHTTP1
import Testing

@testable import KiwiLLMStub

@Suite("The whole system, end to end", .serialized, .timeLimit(.minutes(3)))
struct EndToEndTests {
    let photo = JPEGFixtures.withMetadata(SyntheticJPEG.make(size: 32 * 1024, seed: 21))

    @Test("sign in, check the quota, scan a photo, see the quota drop, delete the account, and the token stops working")
    func story() async throws {
        try await SystemRig.run { rig in
            let token = try await rig.signIn()
            let day = UTCDay()
            let before = try await rig.send(.GET, "/v1/quota", token: token)
            #expect(before.status == 200)
            #expect(try before.json()["remaining"] as? Int == 4)

            let scan = try await rig.scan(photo, token: token)
            #expect(scan.status == 200, "\(String(decoding: scan.body, as: UTF8.self))")
            #expect(scan.headers.first(name: "X-Request-Id") != nil)
            #expect(throws: Never.self) { try ScanResponseContract.validate(scan.body) }
            #expect(rig.stub.snapshot.imagesWithMetadata == 0 && rig.stub.snapshot.recent.count == 1)

            let after = try await rig.send(.GET, "/v1/quota", token: token)
            #expect(day.allows(try after.json()["remaining"] as? Int, exactly: 3, limit: 4))

            let deletion = try await rig.send(.DELETE, "/v1/account", token: token)
            #expect(deletion.status == 200)
            #expect(try deletion.json()["deleted"] as? Bool == true)
            let afterwards = try await rig.send(.GET, "/v1/quota", token: token)
            #expect(afterwards.status == 401)
            #expect(try afterwards.json()["error"] as? String == "unauthorized")
        }
    }

    @Test("a failed scan (the content filter stops the model's answer twice) is 502 and leaves the quota unchanged")
    func failedScanIsRefunded() async throws {
        try await SystemRig.run(behaviour: StubBehaviour(fault: .contentFilter)) { rig in
            let token = try await rig.signIn()
            let scan = try await rig.scan(photo, token: token)
            #expect(scan.status == 502)
            #expect(try scan.json()["error"] as? String == "invalid_model_response")
            #expect(try await rig.send(.GET, "/v1/quota", token: token).json()["remaining"] as? Int == 4)
        }
    }

    @Test("unknown paths are 404 and wrong methods 405, in the error shape")
    func unknownRoutes() async throws {
        try await SystemRig.run { rig in
            let missing = try await rig.send(.GET, "/v1/nothing")
            #expect(missing.status == 404)
            #expect(try missing.json()["error"] as? String == "not_found")
            let wrong = try await rig.send(.GET, "/v1/scan")
            #expect(wrong.status == 405)
            #expect(try wrong.json()["error"] as? String == "method_not_allowed")
            #expect(wrong.headers.first(name: "Allow") == "POST")
        }
    }
}
