import Foundation
import HTTPTypes
import HummingbirdTesting
import KiwiFood
import KiwiInternalAPI
import KiwiModels
import KiwiScans
import KiwiTestSupport
import NIOCore
import Testing

@testable import KiwiGateway

/// What a saved recipe costs at its kitchen's pantry prices, in-process on fakes (docs/architecture.md, "What a recipe
/// costs"): counted when read, scaled with the recipe, partial where the pantry has no price.
@Suite("Gateway router: what a saved recipe costs")
struct RecipeCostRouterTests {
    /// Pancakes for 2: 2 eggs, 150 g flour, 1 cup of milk, salt to taste.
    static let pancakes = RecipeScalingRouterTests.pancakes

    /// What the pancakes' ingredients last cost.
    static let prices: [(String, PantryPrice)] = [
        ("egg", PantryPrice(amount: 0.35, unit: .piece, currency: "EUR")),
        ("flour", PantryPrice(amount: 0.99, unit: .kg, currency: "EUR")),
        ("milk", PantryPrice(amount: 1.19, unit: .l, currency: "EUR")),
    ]

    /// Puts `names` in the user's pantry as bought on a receipt, each at its price.
    static func stock(_ gateway: FakeGateway, user: UUID, _ prices: [(String, PantryPrice)]) async throws {
        let purchases = prices.map { name, price in
            var item = PantryItem.new(name: (name, name), section: .other, source: .scan, at: Date())
            item.price = price
            return Purchase(lineID: UUID(), item: item)
        }
        let receipt = ReceiptAddition(scanID: UUID(), fingerprint: nil, again: false)
        _ = try await gateway.pantry.addPurchases(purchases, from: receipt, for: .own(user), capacity: PantryController.capacity)
    }

    @Test("a saved recipe costs what its ingredients last cost, per serving and in all, and 6 servings three times 2")
    func costAtTwoAndSixServings() async throws {
        let gateway = RecipeScalingRouterTests.gateway()
        let (token, session, _) = gateway.signIn()
        try await Self.stock(gateway, user: session.userId, Self.prices)
        try await gateway.test { client async throws in
            let path = try await RecipeScalingRouterTests.saved(Self.pancakes, client, token: token)
            let two = try #require(try RecipesRouterTests.saved(try await client.execute(.get, path, token: token)).recipe.cost)
            // 2 × 0.35 + 0.15 kg × 0.99 + 236.6 ml × 1.19 per litre = 0.70 + 0.1485 + 0.2815
            #expect(two == RecipeCost(currency: "EUR", total: 1.13, perServing: 0.57, servings: 2, status: .complete, unpriced: []))
            let six = try #require(try RecipesRouterTests.saved(try await client.execute(.get, path + "?servings=6", token: token)).recipe.cost)
            #expect(six.servings == 6 && abs(six.total - 3 * two.total) <= 0.03 && abs(six.perServing - two.perServing) <= 0.01, "\(six)")
            let list = try await client.execute(.get, "/v1/recipes", token: token)
            let listed = try KiwiJSON.decoder().decode(SavedRecipeList.self, from: Data(list.body.readableBytesView))
            #expect(listed.recipes.first?.recipe.cost == two)
        }
    }

    @Test("an ingredient the pantry has no price for is listed, and the cost is partial; with no price at all there is no cost")
    func partialAndNoCost() async throws {
        let gateway = RecipeScalingRouterTests.gateway()
        let (token, session, _) = gateway.signIn()
        try await gateway.test { client async throws in
            let path = try await RecipeScalingRouterTests.saved(Self.pancakes, client, token: token)
            #expect(try RecipesRouterTests.saved(try await client.execute(.get, path, token: token)).recipe.cost == nil)
            try await Self.stock(gateway, user: session.userId, [("egg", PantryPrice(amount: 0.35, unit: .piece, currency: "EUR"))])
            let cost = try #require(try RecipesRouterTests.saved(try await client.execute(.get, path, token: token)).recipe.cost)
            #expect(cost.status == .partial && cost.total == 0.70)
            #expect(cost.unpriced == [UnpricedIngredient(name: "flour", reason: .noPrice), UnpricedIngredient(name: "milk", reason: .noPrice)])
        }
    }

    @Test("a recipe is costed in the reader's profile's currency; food bought in another is listed as other_currency")
    func costInTheProfilesCurrency() async throws {
        let gateway = RecipeScalingRouterTests.gateway()
        let (token, session, _) = gateway.signIn()
        try await Self.stock(
            gateway,
            user: session.userId,
            Array(Self.prices.dropLast()) + [("milk", PantryPrice(amount: 1.05, unit: .l, currency: "GBP"))]
        )
        try await gateway.profiles.save(KitchenProfile(currency: "GBP"), for: session.userId)
        try await gateway.test { client async throws in
            let path = try await RecipeScalingRouterTests.saved(Self.pancakes, client, token: token)
            let cost = try #require(try RecipesRouterTests.saved(try await client.execute(.get, path, token: token)).recipe.cost)
            // A cup of milk, 236.6 ml at 1.05 a litre.
            #expect(cost.currency == "GBP" && cost.total == 0.25 && cost.status == .partial)
            #expect(
                cost.unpriced == [
                    UnpricedIngredient(name: "eggs", reason: .otherCurrency), UnpricedIngredient(name: "flour", reason: .otherCurrency),
                ]
            )
        }
    }
}
