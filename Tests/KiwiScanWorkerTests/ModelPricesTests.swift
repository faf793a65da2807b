import Foundation
import KiwiModels
import KiwiOpenAI
import Testing

@Suite("Model prices and the cost of a scan")
struct ModelPricesTests {
    let prices = ModelPrices.openAI

    @Test("a scan's cost adds each completion's uncached, cached and completion tokens at gpt-4o's prices, the repair's too")
    func costOfAScanWithARepair() throws {
        let price = try #require(prices.price(of: "gpt-4o-2024-08-06"))
        let first = TokenUsage(promptTokens: 1117, cachedPromptTokens: 0, completionTokens: 46)
        let repair = TokenUsage(promptTokens: 1500, cachedPromptTokens: 1024, completionTokens: 300)
        // By hand, in nano-dollars: $2.50, $1.25 and $10.00 per million tokens are 2,500, 1,250 and 10,000 per token.
        // first:  1117 × 2,500 + 46 × 10,000                   = 2,792,500 + 460,000               = 3,252,500
        // repair: 476 × 2,500 + 1024 × 1,250 + 300 × 10,000    = 1,190,000 + 1,280,000 + 3,000,000 = 5,470,000
        #expect(price.cost(of: first) == 3_252_500)
        #expect(price.cost(of: repair) == 5_470_000)
        #expect(price.cost(of: first + repair) == 8_722_500)  // $0.0087225
    }

    @Test("gpt-4o-mini's cached tokens cost half its input price")
    func miniCachedTokens() throws {
        let price = try #require(prices.price(of: "gpt-4o-mini"))
        // 800 × 150 + 200 × 75 + 100 × 600 = 120,000 + 15,000 + 60,000
        #expect(price.cost(of: TokenUsage(promptTokens: 1000, cachedPromptTokens: 200, completionTokens: 100)) == 195_000)
    }

    @Test("a dated snapshot the table does not name costs what its model does; the first gpt-4o snapshot keeps its own price")
    func snapshots() {
        #expect(prices.price(of: "gpt-4o-2025-06-30") == prices.price(of: "gpt-4o"))
        #expect(prices.price(of: "gpt-4o-mini-2025-01-01") == prices.price(of: "gpt-4o-mini"))
        #expect(prices.price(of: "gpt-4o-2024-05-13") == ModelPrice(inputPerMillion: 5, cachedInputPerMillion: 5, outputPerMillion: 15))
        #expect(prices.price(of: "some-other-model") == nil)
        #expect(prices.price(of: "gpt-4o-latest") == nil)
    }

    @Test("LLM_PRICES replaces and adds models' prices; cachedInput defaults to the input price")
    func overrides() throws {
        let overridden = try prices.overridden(
            byJSON: #"{"gpt-4o": {"input": 2, "cachedInput": 1, "output": 8}, "my-deployment": {"input": 0.5, "output": 1.5}}"#
        )
        #expect(overridden.price(of: "gpt-4o") == ModelPrice(inputPerMillion: 2, cachedInputPerMillion: 1, outputPerMillion: 8))
        #expect(overridden.price(of: "my-deployment") == ModelPrice(inputPerMillion: 0.5, cachedInputPerMillion: 0.5, outputPerMillion: 1.5))
        #expect(overridden.price(of: "gpt-4o-mini") == prices.price(of: "gpt-4o-mini"))
    }

    @Test(
        "LLM_PRICES that is not a price list, or has a negative price, is refused",
        arguments: [
            "[]", #"{"gpt-4o": {"input": 2}}"#, #"{"gpt-4o": {"input": -1, "output": 8}}"#, #"{"": {"input": 1, "output": 1}}"#,
        ]
    )
    func invalidOverrides(_ text: String) {
        #expect(throws: PriceListError.self) { try prices.overridden(byJSON: text) }
    }

    @Test("a real completion's usage is read with its cached prompt tokens")
    func realUsage() throws {
        let completion = try JSONDecoder().decode(ChatCompletion.self, from: try fixture("chat-completion-gpt-4o-image-input.json"))
        #expect(completion.usage?.tokens == TokenUsage(promptTokens: 1117, cachedPromptTokens: 0, completionTokens: 46))
        let older = try JSONDecoder().decode(ChatCompletion.self, from: try fixture("chat-completion-gpt-4o-structured-output.json"))
        #expect(older.usage?.tokens == TokenUsage(promptTokens: 79, cachedPromptTokens: 0, completionTokens: 14))
    }
}
