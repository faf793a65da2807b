import Foundation
import KiwiModels

/// One model's prices, kept as nano-dollars per token (US dollars per million tokens × 1,000), so that every cost is
/// an exact integer and sums across replicas add up to the cent.
public struct ModelPrice: Sendable, Hashable {
    public var inputNanos: Int64
    public var cachedInputNanos: Int64
    public var outputNanos: Int64

    /// Prices in US dollars per million tokens, as OpenAI's pricing page lists them (at most three decimals count).
    public init(inputPerMillion: Double, cachedInputPerMillion: Double, outputPerMillion: Double) {
        inputNanos = Int64((inputPerMillion * 1000).rounded())
        cachedInputNanos = Int64((cachedInputPerMillion * 1000).rounded())
        outputNanos = Int64((outputPerMillion * 1000).rounded())
    }

    /// What `usage` costs, in nano-dollars: uncached prompt tokens at the input price, cached ones at the cached price,
    /// completion tokens at the output price.
    public func cost(of usage: TokenUsage) -> Int64 {
        Int64(usage.promptTokens - usage.cachedPromptTokens) * inputNanos + Int64(usage.cachedPromptTokens) * cachedInputNanos
            + Int64(usage.completionTokens) * outputNanos
    }
}

/// The prices of the models Kiwi may call, by model name: OpenAI's list prices by default, overridable by
/// configuration (`LLM_PRICES`). A dated snapshot the table does not name (`gpt-4o-2025-…`) costs what its model
/// does.
public struct ModelPrices: Sendable, Hashable {
    public private(set) var prices: [String: ModelPrice]

    /// OpenAI's standard (not batch) prices in US dollars per million tokens, from platform.openai.com/docs/pricing
    /// as of 2026: the first gpt-4o snapshot had no prompt caching, so its cached tokens cost the full input price.
    public static let openAI = ModelPrices(prices: [
        "gpt-4o": ModelPrice(inputPerMillion: 2.50, cachedInputPerMillion: 1.25, outputPerMillion: 10.00),
        "gpt-4o-2024-11-20": ModelPrice(inputPerMillion: 2.50, cachedInputPerMillion: 1.25, outputPerMillion: 10.00),
        "gpt-4o-2024-08-06": ModelPrice(inputPerMillion: 2.50, cachedInputPerMillion: 1.25, outputPerMillion: 10.00),
        "gpt-4o-2024-05-13": ModelPrice(inputPerMillion: 5.00, cachedInputPerMillion: 5.00, outputPerMillion: 15.00),
        "gpt-4o-mini": ModelPrice(inputPerMillion: 0.15, cachedInputPerMillion: 0.075, outputPerMillion: 0.60),
        "gpt-4o-mini-2024-07-18": ModelPrice(inputPerMillion: 0.15, cachedInputPerMillion: 0.075, outputPerMillion: 0.60),
    ])

    public init(prices: [String: ModelPrice]) {
        self.prices = prices
    }

    /// The price of `model`: its own, else (for a dated snapshot, `name-YYYY-MM-DD`) its model's; nil when unknown.
    public func price(of model: String) -> ModelPrice? {
        if let price = prices[model] { return price }
        let parts = model.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count > 3, parts.suffix(3).map(\.count) == [4, 2, 2], parts.suffix(3).allSatisfy({ $0.allSatisfy(\.isNumber) }) else {
            return nil
        }
        return prices[parts.dropLast(3).joined(separator: "-")]
    }

    /// These prices with `overrides` (`LLM_PRICES`) replacing or adding models': a JSON object of model names to
    /// `{"input": …, "cachedInput": …, "output": …}` in US dollars per million tokens (`cachedInput` defaults to
    /// `input`).
    public func overridden(byJSON overrides: String) throws -> ModelPrices {
        struct Listed: Decodable {
            var input: Double
            var cachedInput: Double?
            var output: Double
        }
        let listed: [String: Listed]
        do {
            listed = try JSONDecoder().decode([String: Listed].self, from: Data(overrides.utf8))
        } catch {
            throw PriceListError(reason: "must be a JSON object of models to {\"input\", \"cachedInput\", \"output\"} prices per million tokens")
        }
        var prices = self.prices
        for (model, price) in listed {
            let values = [price.input, price.cachedInput ?? price.input, price.output]
            guard !model.isEmpty, values.allSatisfy({ $0.isFinite && $0 >= 0 && $0 < 1_000_000 }) else {
                throw PriceListError(reason: "the prices of \(model.isEmpty ? "a model without a name" : model) must be 0 or more")
            }
            prices[model] = ModelPrice(inputPerMillion: values[0], cachedInputPerMillion: values[1], outputPerMillion: values[2])
        }
        return ModelPrices(prices: prices)
    }
}

/// Why `LLM_PRICES` could not be read.
public struct PriceListError: Error, CustomStringConvertible {
    public var reason: String
    public var description: String { reason }
}
