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

    @Test("a receipt scan of two parts asks for the receipt schema, without the profile, and answers every line and the total")
    func receiptAnswer() async throws {
        let (result, received) = try await scan(Array(photos.prefix(2)), mode: .receipt, profile: KitchenProfile(allergies: [.peanuts]))
        guard case .ok(let response) = result else {
            Issue.record("expected an answer, got \(result)")
            return
        }
        let request = try #require(received.first)
        #expect(request.parameters.schemaName == "kiwi_receipt")
        #expect(
            request.parameters.userTexts == [
                "These 2 photos show one receipt in parts, top to bottom: answer for the whole receipt, listing each line once even where the parts overlap."
            ]
        )
        let receipt = try #require(response.receipt)
        #expect(response.mode == .receipt && response.ingredients.isEmpty && response.recipes.isEmpty && response.appliedProfile == nil)
        #expect(!receipt.lines.isEmpty && receipt.totalMismatch == nil)
        #expect(throws: Never.self) { try ScanResponseContract.validate(try KiwiJSON.encoder().encode(response)) }
    }

    @Test("photos the model says show no receipt fail the scan not_a_receipt, after one model call")
    func notAReceipt() async throws {
        let (result, received) = try await scan([photos[0]], mode: .receipt, behaviour: StubBehaviour(fault: .noFood))
        #expect(result.failureCode == .notAReceipt)
        #expect(received.count == 1)
    }

    @Test("a receipt that breaks its contract gets one repair told why, then fails invalid_model_response")
    func offSchemaReceipt() async throws {
        let (result, received) = try await scan([photos[0]], mode: .receipt, behaviour: StubBehaviour(fault: .nonStrictOffSchema))
        #expect(result.failureCode == .invalidModelResponse)
        #expect(received.count == 2)
        #expect(received.last?.parameters.userTexts.last?.contains("if the photos show no receipt, set isReceipt to false") == true)
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
