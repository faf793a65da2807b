import AsyncHTTPClient
import Foundation
import KiwiModels
import KiwiOpenAI
import KiwiScans
import KiwiTestSupport
import Testing

@testable import KiwiLLMStub
@testable import KiwiScanWorker

/// Shows partials by keeping them, each with the number of requests the stub had received when it was shown.
struct RecordingSink: ScanPartialSink {
    let stub: StubState
    let shown = Locked<[(partial: ScanPartial, requests: Int)]>([])

    func show(_ partial: ScanPartial, of scanID: UUID, startedBy gateway: String?) async throws -> Bool {
        let requests = stub.snapshot.requests
        shown.withLock { $0.append((partial, requests)) }
        return true
    }

    var partials: [ScanPartial] { shown.withLock { $0.map(\.partial) } }
}

/// The pipeline's streamed answering step against the streaming stub (at once: these tests are about what is shown,
/// not when), its shown partials kept by a ``RecordingSink``.
@Suite("Streamed answers: each element checked and shown as it completes", .timeLimit(.minutes(1)))
struct StreamedAnsweringTests {
    let treeNuts = KitchenProfile(allergies: [.treeNuts])
    let salad = ModelAnswers.Dish("Tomato salad", ingredients: ["tomatoes", "olive oil"])
    let pesto = ModelAnswers.Dish("Pasta with pesto", ingredients: ["spaghetti", "basil pesto"])
    let lemonPasta = ModelAnswers.Dish("Lemon pasta", ingredients: ["spaghetti", "lemon", "olive oil"])
    let soup = ModelAnswers.Dish("Leek soup", ingredients: ["leeks", "potatoes", "stock"], steps: ["Sweat the leeks.", "Simmer with potatoes."])

    /// What a scan came to, what its client was shown (with the stub's request count at each), and the stub's requests.
    struct Scan {
        var analysis: ScanAnalysis
        var shown: [(partial: ScanPartial, requests: Int)]
        var requests: Int

        var partials: [ScanPartial] { shown.map(\.partial) }
        var response: ScanResponse {
            get throws { try analysis.result.get() }
        }
    }

    /// One scan through a pipeline built as the worker builds it, on a route for each of `models` (each with its own
    /// behaviour when `byModel` gives one), streaming unless `stream` is false, its recipes labelled by `labels` and those
    /// the guard clears as they stream recorded in `safe`.
    func scan(
        _ behaviour: StubBehaviour = StubBehaviour(),
        byModel: [String: StubBehaviour] = [:],
        models: [String] = ["gpt-4o"],
        profile: KitchenProfile? = nil,
        mode: ScanMode = .fridge,
        showsPartials: Bool = true,
        stream: Bool = true,
        shown: [ScanPartial] = [],
        scanID: UUID = UUID(),
        maxRetries: Int = 2,
        idleTimeout: Duration = .seconds(10),
        labels: RecipeLabels = RecipeLabels(),
        safe: SafeRecipes = SafeRecipes()
    ) async throws -> Scan {
        try await withLLMStub(behaviour: behaviour) { url, stub in
            for (model, behaviour) in byModel { stub.setBehaviour(behaviour, model: model) }
            let routes = models.map { model in
                ModelRoute(
                    ModelRouteSettings(name: model, model: model, baseURL: url, apiKey: "sk-test"),
                    detail: .high,
                    stream: stream,
                    streamIdleTimeout: idleTimeout,
                    breaker: CircuitBreaker.Settings(),
                    transport: .over(.shared),
                    logger: testLogger
                )
            }
            let sink = RecordingSink(stub: stub)
            let pipeline = PipelineFixtures.streamedPipeline(routes: routes, sink: sink, maxRetries: maxRetries)
            var request = PipelineFixtures.request(profile: profile)
            (request.scanID, request.mode, request.deadline, request.shown) = (scanID, mode, .now + .seconds(30), ShownState(shown))
            (request.labels, request.safe, request.showsPartials) = (labels, safe, showsPartials)
            let analysis = await pipeline.analyze(request, logger: testLogger)
            return Scan(analysis: analysis, shown: sink.shown.withLock { $0 }, requests: stub.snapshot.requests)
        }
    }

    /// The elements of `response` as a client is shown them: its ingredients, then each recipe.
    func elements(of response: ScanResponse) -> [ScanPartial] {
        [.ingredients(response.ingredients)] + response.recipes.enumerated().map { .recipe(index: $0, $1) }
    }

    @Test("a streamed answer gives the result and the spending the unstreamed call gives")
    func sameResultAsUnstreamed() async throws {
        let scanID = UUID()
        let answer = StubBehaviour(answers: [ModelAnswers.fridge([salad, lemonPasta])])
        let streamed = try await scan(answer, scanID: scanID)
        let unstreamed = try await scan(answer, stream: false, scanID: scanID)
        #expect(try streamed.response == unstreamed.response)
        #expect(streamed.analysis.usage.tokens == unstreamed.analysis.usage.tokens)
        #expect(streamed.analysis.usage.costNanos == unstreamed.analysis.usage.costNanos)
        #expect(unstreamed.shown.isEmpty)
    }

    @Test("the ingredients, then each recipe, are shown in order, each as it will be in the result")
    func showsEachInOrder() async throws {
        let scan = try await scan(StubBehaviour(answers: [ModelAnswers.fridge([salad, lemonPasta, soup])]))
        #expect(scan.partials == elements(of: try scan.response))
        #expect(try scan.response.recipes.allSatisfy { $0.allergens != nil })
    }

    @Test("a recipe with the profile's allergen, dictated second, is never shown, even briefly, while the others are")
    func allergenNeverShown() async throws {
        // Both the answer and the guard's repair name pesto (tree nuts) second: it must never reach the sink.
        let scan = try await scan(StubBehaviour(answers: [ModelAnswers.fridge([salad, pesto, lemonPasta])]), profile: treeNuts)
        let shownRecipes = scan.partials.compactMap { partial -> String? in
            if case .recipe(_, let recipe) = partial { return recipe.name }
            return nil
        }
        #expect(!shownRecipes.contains(pesto.name))
        #expect(shownRecipes == [salad.name, lemonPasta.name])
        let response = try scan.response
        #expect(response.withheldRecipes.map(\.name) == [pesto.name])
        #expect(scan.partials == elements(of: response))
        #expect(scan.requests == 2)  // the guard's repair, whose elements confirmed what was shown
    }

    @Test("each recipe shown is recorded safe for the profile, so the result's guard does not read it again; one withheld is not")
    func shownRecipesAreRecordedSafe() async throws {
        let (scanID, safe) = (UUID(), SafeRecipes())
        let content = ModelAnswers.fridge([salad, pesto, lemonPasta])
        let scan = try await scan(StubBehaviour(answers: [content]), profile: treeNuts, scanID: scanID, safe: safe)
        #expect(try scan.response.recipes.map { safe.contains($0) } == [true, true])
        let answered = try ScanResponseContract.validateModelAnswer(Data(content.utf8), idSeed: scanID)
        #expect(answered.recipes.map { safe.contains($0) } == [true, false, true])
    }

    @Test("a stream cut mid-recipe is retried: what it showed is confirmed silently, and the result is whole")
    func cutThenConfirmed() async throws {
        let answer = ModelAnswers.fridge([salad, lemonPasta, soup])
        let scan = try await scan(StubBehaviour(fault: .streamCut, faultCount: 1, answers: [answer], streamFaultAt: 0.6))
        let response = try scan.response
        #expect(scan.requests == 2)
        #expect(scan.partials == elements(of: response))
        #expect(scan.shown.first?.requests == 1)  // shown by the attempt that was cut
        #expect(response.recipes.map(\.name) == [salad.name, lemonPasta.name, soup.name])
    }

    @Test("a cut stream is priced from what arrived: its fragments as completion tokens, its prompt as the retry's")
    func cutStreamSpending() async throws {
        let answer = ModelAnswers.fridge([salad, lemonPasta, soup])
        let whole = try await scan(StubBehaviour(answers: [answer]))
        let cut = try await scan(StubBehaviour(fault: .streamCut, faultCount: 1, answers: [answer], streamFaultAt: 0.6))
        #expect(cut.analysis.usage.attempts == 2)
        #expect(cut.analysis.usage.tokens.promptTokens == 2 * whole.analysis.usage.tokens.promptTokens)
        #expect(cut.analysis.usage.tokens.completionTokens > whole.analysis.usage.tokens.completionTokens)
        #expect(cut.analysis.usage.costNanos > whole.analysis.usage.costNanos)
    }

    @Test("a retry (here the fallback route) whose answer differs shows a restart first, then its own elements")
    func differentRetryRestarts() async throws {
        let scan = try await scan(
            byModel: [
                "gpt-4o": StubBehaviour(fault: .streamCut, answers: [ModelAnswers.fridge([salad, lemonPasta, soup])], streamFaultAt: 0.8),
                "gpt-4o-mini": StubBehaviour(answers: [ModelAnswers.fridge([soup, salad])]),
            ],
            models: ["gpt-4o", "gpt-4o-mini"],
            maxRetries: 0
        )
        let response = try scan.response
        #expect(response.recipes.map(\.name) == [soup.name, salad.name])
        let restart = try #require(scan.partials.firstIndex(of: .restart))
        #expect(restart >= 2)  // the cut attempt showed its ingredients and a recipe at least
        #expect(Array(scan.partials[(restart + 1)...]) == elements(of: response))
    }

    @Test("a stream that stalls is given up after the idle time and retried")
    func stallRetried() async throws {
        let answer = ModelAnswers.fridge([salad, lemonPasta])
        let scan = try await scan(StubBehaviour(fault: .streamStall, faultCount: 1, answers: [answer]), idleTimeout: .seconds(1))
        #expect(scan.requests == 2 && scan.analysis.usage.attempts == 2)
        #expect(scan.partials == elements(of: try scan.response))
    }

    @Test("a redelivered job whose answer is what its client was shown confirms it all silently")
    func redeliveryConfirms() async throws {
        let scanID = UUID()
        let answer = StubBehaviour(answers: [ModelAnswers.fridge([salad, lemonPasta])])
        let first = try await scan(answer, scanID: scanID)
        let again = try await scan(answer, shown: first.partials, scanID: scanID)
        #expect(again.partials.isEmpty)
        #expect(try again.response == first.response)
    }

    @Test("a redelivered job whose answer differs from what its client was shown restarts before showing anything")
    func redeliveryRestarts() async throws {
        let scanID = UUID()
        let first = try await scan(StubBehaviour(answers: [ModelAnswers.fridge([salad, lemonPasta])]), scanID: scanID)
        let again = try await scan(StubBehaviour(answers: [ModelAnswers.fridge([soup])]), shown: first.partials, scanID: scanID)
        #expect(again.partials.first == .restart)
        #expect(Array(again.partials.dropFirst(2)) == Array(elements(of: try again.response).dropFirst()))
    }

    @Test("a redelivered job that shows nothing still restarts what an earlier delivery showed, when the answer differs")
    func unwatchedRedeliveryRestartsWhatWasShown() async throws {
        let scanID = UUID()
        let first = try await scan(StubBehaviour(answers: [ModelAnswers.fridge([salad, lemonPasta])]), scanID: scanID)
        let again = try await scan(
            StubBehaviour(answers: [ModelAnswers.fridge([soup])]),
            showsPartials: false,
            shown: first.partials,
            scanID: scanID
        )
        #expect(again.partials.first == .restart)
    }

    @Test("a scan whose client waits for the result alone streams, shows nothing, and gets the result a shown scan gets")
    func unwatchedScanShowsNothing() async throws {
        let scanID = UUID()
        let answer = StubBehaviour(answers: [ModelAnswers.fridge([salad, lemonPasta])])
        let unwatched = try await scan(answer, showsPartials: false, scanID: scanID)
        let watched = try await scan(answer, scanID: scanID)
        #expect(unwatched.shown.isEmpty)
        #expect(!watched.shown.isEmpty)
        #expect(try unwatched.response == watched.response)
    }

    @Test("a dish scan streams and shows nothing before its result")
    func dishShowsNothing() async throws {
        let scan = try await scan(mode: .dish)
        #expect(try scan.response.dish != nil)
        #expect(scan.shown.isEmpty)
    }
}
