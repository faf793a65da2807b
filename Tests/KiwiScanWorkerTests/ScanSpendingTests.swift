import KiwiModels
import KiwiOpenAI
import KiwiScans
import Testing

@testable import KiwiScanWorker

@Suite("Pricing a scan's completions")
struct ScanSpendingTests {
    let prices = ModelPrices.openAI

    @Test("before any completion the record names the first route's model, no route, and nothing spent")
    func nothingSpent() {
        let spending = ScanSpending(model: "gpt-4o")
        #expect(spending.usage.model == "gpt-4o" && spending.usage.route == nil)
        #expect(spending.usage.tokens == TokenUsage() && spending.usage.costNanos == 0 && spending.usage.attempts == 0)
        #expect(spending.byModel.isEmpty)
    }

    @Test("every attempt is counted, answered or not")
    func attempts() {
        var spending = ScanSpending(model: "gpt-4o")
        spending.addAttempt()
        spending.addAttempt()
        #expect(spending.usage.attempts == 2)
    }

    @Test("completions from two routes add up on the record, which names the last, and stay apart by model")
    func twoRoutes() {
        var spending = ScanSpending(model: "gpt-4o")
        let first = PipelineFixtures.success(model: "gpt-4o-2024-08-06", usage: .init(promptTokens: 1117, completionTokens: 46))
        let second = PipelineFixtures.success(
            model: "gpt-4o-mini",
            usage: .init(promptTokens: 1000, completionTokens: 100, cachedPromptTokens: 200),
            processingTime: .milliseconds(700)
        )
        spending.add(first, from: PipelineFixtures.route("primary"), prices: prices)
        spending.add(second, from: PipelineFixtures.route("fallback", model: "gpt-4o-mini"), prices: prices)
        // 3,252,500 and 195,000 nano-dollars, as the model prices' own tests work out by hand.
        #expect(spending.byModel["gpt-4o-2024-08-06"]?.costNanos == 3_252_500)
        #expect(spending.byModel["gpt-4o-mini"]?.costNanos == 195_000)
        #expect(spending.usage.costNanos == 3_447_500)
        #expect(spending.usage.tokens == TokenUsage(promptTokens: 2117, cachedPromptTokens: 200, completionTokens: 146))
        #expect(spending.usage.model == "gpt-4o-mini" && spending.usage.route == "fallback")
        #expect(spending.usage.modelTime == .milliseconds(700))
    }

    @Test("a model name the price list does not know is priced as its route's model")
    func unknownSnapshot() {
        var spending = ScanSpending(model: "gpt-4o")
        let success = PipelineFixtures.success(model: "gpt-4o-latest", usage: .init(promptTokens: 1117, completionTokens: 46))
        spending.add(success, from: PipelineFixtures.route("primary", model: "gpt-4o-2024-08-06"), prices: prices)
        #expect(spending.usage.costNanos == 3_252_500)
        #expect(spending.usage.model == "gpt-4o-latest")
    }

    @Test("a completion that does not name its model is counted as its route's")
    func unnamedModel() {
        var spending = ScanSpending(model: "gpt-4o")
        spending.add(PipelineFixtures.success(model: ""), from: PipelineFixtures.route("primary", model: "gpt-4o-mini"), prices: prices)
        #expect(spending.usage.model == "gpt-4o-mini" && spending.byModel.keys.sorted() == ["gpt-4o-mini"])
    }
}
