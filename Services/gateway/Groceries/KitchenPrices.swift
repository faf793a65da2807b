import Foundation
import KiwiFood
import KiwiModels

/// What food costs the person asking (docs/architecture.md, "What a recipe costs"): their kitchen's last prices
/// (``PantryStore/prices(of:)``), counted in their profile's currency.
struct KitchenPrices: Sendable {
    let pantry: any PantryStore
    let profiles: any ProfileStore

    /// The prices of `kitchen` and, when it has any, its member's currency: read once for any number of costs.
    func priceList(of kitchen: Kitchen) async throws -> PriceList {
        let prices = try await pantry.prices(of: kitchen)
        guard !prices.isEmpty else { return PriceList(prices: [:], currency: nil) }
        return PriceList(prices: prices, currency: try await profiles.profile(of: kitchen.member)?.currency)
    }
}

/// A kitchen's prices and the currency its member counts in.
struct PriceList: Sendable {
    var prices: [String: PantryPrice]
    /// The profile's; nil to count in the currency most of the food was bought in.
    var currency: String?

    /// `recipe`'s cost (``RecipeCosting/cost(of:prices:currency:)``).
    func cost(of recipe: Recipe) -> RecipeCost? {
        RecipeCosting.cost(of: recipe, prices: prices, currency: currency)
    }

    /// `answer` with each of its recipes costed, a dish's too.
    func costed(_ answer: ScanResponse) -> ScanResponse {
        // Nothing priced costs nothing: most kitchens have no receipt, and their answers are read as stored.
        guard !prices.isEmpty else { return answer }
        var costed = answer
        for index in costed.recipes.indices { costed.recipes[index].cost = cost(of: costed.recipes[index]) }
        if let recipe = answer.dish?.recipe { costed.dish?.recipe?.cost = RecipeCosting.cost(of: recipe, prices: prices, currency: currency) }
        return costed
    }

    /// `partial` with its recipe costed; any other partial as it is.
    func costed(_ partial: ScanPartial) -> ScanPartial {
        guard !prices.isEmpty, case .recipe(let index, var recipe) = partial else { return partial }
        recipe.cost = cost(of: recipe)
        return .recipe(index: index, recipe)
    }

    /// What is left to buy of `items` (``RecipeCosting/estimate(of:prices:currency:)``).
    func estimate(of items: [ShoppingListItem]) -> ShoppingListCost? {
        RecipeCosting.estimate(of: items, prices: prices, currency: currency)
    }
}
