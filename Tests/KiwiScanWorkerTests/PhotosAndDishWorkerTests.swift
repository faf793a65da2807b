import Foundation
import KiwiDevelopment
import KiwiModels
import KiwiScans
import KiwiTestSupport
import Testing

@testable import KiwiLLMStub
@testable import KiwiScanWorker

/// Several photos per scan and dish scans, through the worker against RabbitMQ, PostgreSQL and the stub.
@Suite("Scan worker: several photos and dish mode", .timeLimit(.minutes(2)))
struct PhotosAndDishWorkerTests {
    let photos = (1...5).map { SyntheticJPEG.make(size: 8 * 1024, seed: 90 + UInt64($0)) }

    /// The outcome of a scan of `photos` showing `mode`, made for `profile`, and the requests the stub received.
    func scan(
        _ photos: [[UInt8]],
        mode: ScanMode,
        profile: KitchenProfile? = nil,
        behaviour: StubBehaviour = StubBehaviour()
    ) async throws -> (ScanOutcome, [ReceivedRequest]) {
        try await WorkerRig.run(behaviour: behaviour) { rig in
            var job = try await rig.reserve([])
            (job.photos, job.mode, job.profile) = (photos, mode, profile)
            try await rig.submit(job)
            return (try await rig.outcome(of: job.scanID, within: WorkerRig.patience), rig.stub.snapshot.recent)
        }
    }

    @Test("five photos make one model call with five images, every one stripped of its metadata, in order")
    func fivePhotosOneCall() async throws {
        let tagged = photos.map(JPEGFixtures.withMetadata)
        let (result, received) = try await scan(tagged, mode: .fridge)
        #expect(result.failureCode == nil)
        let request = try #require(received.first)
        #expect(received.count == 1)
        #expect(request.imageCount == 5)
        #expect(request.metadataSegments.isEmpty)
        #expect(request.parameters.userTexts.first?.hasPrefix("These 5 photos show parts of one kitchen") == true)
        #expect(request.parameters.schemaName == "kiwi_scan")
    }

    @Test("a dish scan asks for the dish schema and answers the dish with one detailed recipe, and no ingredients or recipes")
    func dishAnswer() async throws {
        let (result, received) = try await scan([photos[0]], mode: .dish)
        guard case .ok(let response) = result else {
            Issue.record("expected an answer, got \(result)")
            return
        }
        #expect(received.first?.parameters.schemaName == "kiwi_dish")
        #expect(response.mode == .dish)
        #expect(response.ingredients.isEmpty && response.recipes.isEmpty)
        let dish = try #require(response.dish)
        let recipe = try #require(dish.recipe)
        #expect((5...20).contains(recipe.steps.count))
        #expect(recipe.ingredients.allSatisfy { !$0.quantity.isEmpty })
        #expect(throws: Never.self) { try ScanResponseContract.validate(try KiwiJSON.encoder().encode(response)) }
    }

    @Test("a photo that shows no dish is an empty dish answer, not a failure")
    func noDish() async throws {
        let (result, _) = try await scan([photos[0]], mode: .dish, behaviour: StubBehaviour(fault: .noFood))
        guard case .ok(let response) = result else {
            Issue.record("expected an answer, got \(result)")
            return
        }
        #expect(response.mode == .dish && response.dish == nil)
    }

    @Test("a dish answer longer than its contract allows gets one repair, then fails invalid_model_response")
    func overLengthDish() async throws {
        let (result, received) = try await scan([photos[0]], mode: .dish, behaviour: StubBehaviour(fault: .overLength))
        #expect(result.failureCode == .invalidModelResponse)
        #expect(received.count == 2)
    }

    @Test("a dish recipe that breaks a vegan profile is withheld after its repair, the dish still named")
    func dishRecipeGuarded() async throws {
        let (result, received) = try await scan([photos[0]], mode: .dish, profile: KitchenProfile(diets: [.vegan]))
        guard case .ok(let response) = result else {
            Issue.record("expected an answer, got \(result)")
            return
        }
        // Every dish the stub knows has eggs, fish sauce or mozzarella.
        #expect(received.count == 2)
        #expect(response.dish?.recipe == nil)
        #expect(response.dish?.name.isEmpty == false)
        #expect(response.withheldRecipes.count == 1)
    }
}
