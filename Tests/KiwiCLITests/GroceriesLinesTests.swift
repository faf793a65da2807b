import Foundation
import KiwiAPIClient
import KiwiModels
import KiwiTestSupport
import Testing

@testable import KiwiCLI

@Suite("Printing the pantry and cookable recipes")
struct GroceriesLinesTests {
    static let id = UUID(uuidString: "6f1c2a7e-0b4d-4c55-9a0e-3d2f1e8b7c61")!

    /// `item` as the API client decodes it.
    func decoded(_ item: PantryItem) throws -> Components.Schemas.PantryItem {
        try JSONDecoder.iso8601.decode(Components.Schemas.PantryItem.self, from: KiwiJSON.encoder().encode(item))
    }

    func item(quantity: Double? = nil, unit: QuantityUnit? = nil, useSoonBy: String? = nil, estimated: Bool = false) -> PantryItem {
        PantryItem(
            id: Self.id,
            name: "Spinach",
            key: "spinach",
            category: "Vegetable",
            quantity: quantity,
            unit: unit,
            useSoonBy: useSoonBy.flatMap(CalendarDay.init),
            useSoonEstimated: estimated,
            source: .manual,
            addedAt: Date(timeIntervalSince1970: 1_764_115_200),
            lastSeenAt: Date(timeIntervalSince1970: 1_764_115_200)
        )
    }

    @Test("a pantry item's line has its id, name, a whole quantity without decimals, its unit and an estimate marked as one")
    func pantryLine() throws {
        let full = try decoded(item(quantity: 250, unit: .g, useSoonBy: "2026-11-30", estimated: true))
        let id = full.id
        #expect(Pantry.line(full) == "\(id)  Spinach, 250 g, use by 2026-11-30 (estimated)")
        #expect(Pantry.line(try decoded(item(quantity: 0.5, useSoonBy: "2026-12-01"))) == "\(id)  Spinach, 0.5, use by 2026-12-01")
        #expect(Pantry.line(try decoded(item())) == "\(id)  Spinach")
    }

    @Test("an item is found by its id or by its name ignoring case and accents, else not at all")
    func findsByIDOrName() throws {
        let items = [try decoded(item())]
        #expect(Pantry.find(Self.id.uuidString, in: items, id: \.id, name: \.name) != nil)
        #expect(Pantry.find(" SPÍNACH ", in: items, id: \.id, name: \.name) != nil)
        #expect(Pantry.find("kale", in: items, id: \.id, name: \.name) == nil)
    }

    @Test("a cookable recipe's line has the share the pantry covers, each missing ingredient with its substitution, and what it uses up")
    func cookableLine() throws {
        let response = try ScanResponseContract.validateModelAnswer(
            Data(ModelAnswers.fridge([.init("Leek soup", ingredients: ["leeks", "potatoes"])], ingredients: ["leeks"]).utf8),
            idSeed: Self.id
        )
        let saved = SavedRecipe(
            id: Self.id,
            scanId: Self.id,
            savedAt: Date(timeIntervalSince1970: 1_764_115_200),
            recipe: try #require(response.recipes.first),
            detectedIngredients: [],
            note: nil,
            rating: nil
        )
        let coverage = RecipeCoverage(
            coverage: 2.0 / 3,
            missing: [MissingIngredient(name: "Cream", substitution: "milk"), MissingIngredient(name: "Chives", substitution: nil)],
            usesSoon: ["Leeks"]
        )
        let recipe = try JSONDecoder.iso8601.decode(
            Components.Schemas.CookableRecipe.self,
            from: KiwiJSON.encoder().encode(CookableRecipe(saved: saved, cookable: coverage))
        )
        #expect(
            Cookable.line(recipe)
                == "\(recipe.value1.id)  Leek soup: 66 % in your pantry; missing: Cream (or milk), Chives; uses soon: Leeks"
        )
    }
}
