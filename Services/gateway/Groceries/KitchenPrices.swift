import Foundation
import KiwiFood
import KiwiModels

/// What food costs the person asking (docs/architecture.md, "What a recipe costs"): their kitchen's last prices
/// (``PantryStore/prices(of:)``), counted in their profile's currency.
struct KitchenPrices: Sendable {
    let pantry: any PantryStore
    let profiles: any ProfileStore

    /// The prices of `kitchen` and its member's currency, read at once and once for any number of costs.
    func priceList(of kitchen: Kitchen) async throws -> PriceList {
        async let prices = pantry.prices(of: kitchen)
        async let profile = profiles.profile(of: kitchen.member)
        return PriceList(prices: try await prices, currency: try await profile?.currency)
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

    /// What is left to buy of `items` (``RecipeCosting/estimate(of:prices:currency:)``).
    func estimate(of items: [ShoppingListItem]) -> ShoppingListCost? {
        RecipeCosting.estimate(of: items, prices: prices, currency: currency)
    }
}
