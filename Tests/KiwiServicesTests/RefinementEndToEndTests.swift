import Foundation
import KiwiDevelopment
import KiwiModels
import KiwiTestSupport
import NIOHTTP1
import Testing

@testable import KiwiLLMStub

/// A refinement through all three services (docs/architecture.md, "Refinements"): a succeeded photo scan refined
/// from the ingredients the person confirmed, with the model's answers dictated to the stub.
@Suite("Refinements end to end", .serialized, .timeLimit(.minutes(3)))
struct RefinementEndToEndTests {
    let photo = SyntheticJPEG.make(size: 16 * 1024, seed: 97)
    let confirmed = ["Greek yoghurt", "leeks"]

    @Test("a refinement of a succeeded scan answers from the confirmed ingredients, once per key, free, its parent unchanged")
    func refineASucceededScan() async throws {
        let dish = ModelAnswers.Dish("Braised leeks", ingredients: ["leeks", "Greek yoghurt"])
        let answers = [ModelAnswers.fridge([dish], ingredients: ["cream"]), ModelAnswers.fridge([dish], ingredients: confirmed)]
        try await SystemRig.run(behaviour: StubBehaviour(answers: answers)) { rig in
            let token = try await rig.signIn()
            let day = UTCDay()
            let parent = try await rig.finishedScan(photo, token: token)
            let body = Array(try JSONEncoder().encode(["ingredients": confirmed]))
            func refine() async throws -> SystemRig.Exchange {
                try await rig.send(
                    .POST,
                    "/v1/scans/\(parent.id.uuidString.lowercased())/refinements",
                    token: token,
                    contentType: "application/json",
                    body: body,
                    headers: [("Prefer", "wait=30"), ("Idempotency-Key", "refine-1")]
                )
            }
            let first = try await refine()
            #expect(first.status == 200)
            let refinement = try KiwiJSON.decoder().decode(ScanResource.self, from: first.body)
            #expect(refinement.parentId == parent.id)
            #expect(refinement.result?.ingredients.map(\.name) == confirmed)
            #expect(refinement.result?.recipes.map(\.name) == ["Braised leeks"])
            #expect(try KiwiJSON.decoder().decode(ScanResource.self, from: try await refine().body) == refinement)

            let received = rig.stub.snapshot.recent
            #expect(received.map(\.imageCount) == [1, 0])
            #expect(received.last?.parameters.userTexts.first?.contains(#"["Greek yoghurt","leeks"]"#) == true)
            let shown = try await rig.send(.GET, "/v1/scans/\(parent.id.uuidString.lowercased())", token: token)
            #expect(try KiwiJSON.decoder().decode(ScanResource.self, from: shown.body) == parent)
            let quota = try await rig.send(.GET, "/v1/quota", token: token)
            #expect(day.allows(try quota.json()["remaining"] as? Int, exactly: 3, limit: 4))
        }
    }
}
