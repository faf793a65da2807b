import Foundation
import KiwiDietGuard
import KiwiFood
import KiwiModels
import Testing

@Suite("Pantry coverage")
struct PantryCoverageTests {
    static let today = CalendarDay("2026-11-27")!

    /// A saved recipe of `ingredients` (name, substitution).
    static func recipe(
        _ ingredients: [(String, String?)],
        savedAt: Date = Date(timeIntervalSince1970: 1_800_000_000),
        id: UUID = UUID()
    ) -> SavedRecipe {
        SavedRecipe(
            id: id,
            scanId: UUID(),
            savedAt: savedAt,
            recipe: Recipe(
                id: UUID(),
                name: "Dish",
                summary: "A dish.",
                cookTimeMinutes: 10,
                difficulty: .easy,
                ingredients: ingredients.map { RecipeIngredient(id: UUID(), name: $0.0, isDetected: false, substitution: $0.1) },
                steps: ["Cook."],
                makeItFasterTip: nil
            ),
            detectedIngredients: [],
            note: nil,
            rating: nil
        )
    }

    /// A pantry item called `name`, to be used `inDays` after ``today`` (nil: food that keeps).
    static func item(_ name: String, useSoonIn inDays: Int? = nil) -> PantryItem {
        PantryItem(
            id: UUID(),
            name: name,
            key: IngredientKey.of(name),
            category: "Other",
            useSoonBy: inDays.map { today.adding(days: $0) },
            source: .manual,
            addedAt: Date(),
            lastSeenAt: Date()
        )
    }

    static func coverage(of recipe: SavedRecipe, pantry: [PantryItem]) throws -> RecipeCoverage {
        try #require(PantryCoverage.ranked([recipe], pantry: pantry, today: today).first).cookable
    }

    @Test(
        "a staple never counts as missing, whether or not the pantry holds it",
        arguments: ["salt", "Sea salt", "olive oil", "Water", "black pepper"]
    )
    func staplesNeverMissing(staple: String) throws {
        let coverage = try Self.coverage(of: Self.recipe([(staple, nil), ("eggs", nil)]), pantry: [Self.item("Eggs")])
        #expect(coverage.coverage == 1)
        #expect(coverage.missing.isEmpty)
    }

    @Test("a recipe of staples alone is fully covered by an empty pantry")
    func staplesAloneCovered() throws {
        let coverage = try Self.coverage(of: Self.recipe([("salt", nil), ("water", nil)]), pantry: [])
        #expect(coverage == RecipeCoverage(coverage: 1, missing: [], usesSoon: []))
    }

    @Test(
        "plural, case and preparation variants of a name match the pantry's item",
        arguments: [("Tomatoes", "tomato"), ("fresh spinach", "Spinach"), ("EGGS", "egg"), ("2 fresh tomatoes", "Tomato"), ("Berries", "berry")]
    )
    func variantsMatch(inRecipe: String, inPantry: String) throws {
        #expect(try Self.coverage(of: Self.recipe([(inRecipe, nil)]), pantry: [Self.item(inPantry)]).coverage == 1)
    }

    @Test(
        "an ingredient is not covered by another that shares a word",
        arguments: [("coconut milk", "milk"), ("milk", "coconut milk"), ("sweet potato", "potato")]
    )
    func differentIngredientsDoNotMatch(inRecipe: String, inPantry: String) throws {
        let coverage = try Self.coverage(of: Self.recipe([(inRecipe, nil)]), pantry: [Self.item(inPantry)])
        #expect(coverage.coverage == 0)
        #expect(coverage.missing.map(\.name) == [inRecipe])
    }

    @Test("coverage is the share of counted ingredients the pantry has, and missing lists the rest in the recipe's order")
    func coverageIsShare() throws {
        let recipe = Self.recipe([("feta", nil), ("eggs", nil), ("salt", nil), ("spinach", nil), ("chives", nil)])
        let coverage = try Self.coverage(of: recipe, pantry: [Self.item("Eggs"), Self.item("Spinach")])
        #expect(coverage.coverage == 0.5)
        #expect(coverage.missing.map(\.name) == ["feta", "chives"])
    }

    @Test("a missing ingredient carries the substitution the recipe offers, or null")
    func substitutionCarried() throws {
        let recipe = Self.recipe([("feta", "any crumbly cheese"), ("chives", nil)])
        let coverage = try Self.coverage(of: recipe, pantry: [])
        #expect(
            coverage.missing == [
                MissingIngredient(name: "feta", substitution: "any crumbly cheese"), MissingIngredient(name: "chives", substitution: nil),
            ]
        )
    }

    @Test("an ingredient the recipe names twice counts once, as the first naming")
    func repeatedIngredientCountsOnce() throws {
        let recipe = Self.recipe([("Tomatoes", "passata"), ("tomato", nil), ("eggs", nil)])
        let coverage = try Self.coverage(of: recipe, pantry: [Self.item("egg")])
        #expect(coverage.coverage == 0.5)
        #expect(coverage.missing == [MissingIngredient(name: "Tomatoes", substitution: "passata")])
    }

    @Test("usesSoon names the pantry items the recipe uses that are due within three days, past ones too, soonest first")
    func usesSoonWithinThreeDays() throws {
        let pantry = [
            Self.item("Spinach", useSoonIn: 3), Self.item("Milk", useSoonIn: -1), Self.item("Eggs", useSoonIn: 4), Self.item("Rice"),
            Self.item("Olive oil", useSoonIn: 0), Self.item("Feta", useSoonIn: 1),
        ]
        let recipe = Self.recipe([("spinach", nil), ("milk", nil), ("eggs", nil), ("rice", nil), ("olive oil", nil)])
        #expect(try Self.coverage(of: recipe, pantry: pantry).usesSoon == ["Milk", "Olive oil", "Spinach"])
    }

    @Test("a more covered recipe ranks first, however many use-soon items the other uses")
    func coverageRanksFirst() {
        let covered = Self.recipe([("rice", nil)], savedAt: Date(timeIntervalSince1970: 0))
        let usesSoon = Self.recipe([("spinach", nil), ("milk", nil), ("feta", nil)])
        let ranked = PantryCoverage.ranked(
            [usesSoon, covered],
            pantry: [Self.item("Rice"), Self.item("Spinach", useSoonIn: 1), Self.item("Milk", useSoonIn: 1)],
            today: Self.today
        )
        #expect(ranked.map(\.saved.id) == [covered.id, usesSoon.id])
    }

    @Test("between equally covered recipes, the one using more use-soon items ranks first")
    func usesSoonBreaksTies() {
        let older = Self.recipe([("spinach", nil), ("milk", nil)], savedAt: Date(timeIntervalSince1970: 0))
        let newer = Self.recipe([("rice", nil), ("milk", nil)])
        let pantry = [Self.item("Rice"), Self.item("Spinach", useSoonIn: 1), Self.item("Milk", useSoonIn: 1)]
        let ranked = PantryCoverage.ranked([newer, older], pantry: pantry, today: Self.today)
        #expect(ranked.map(\.saved.id) == [older.id, newer.id])
    }

    @Test("between recipes equal in coverage and use-soon items, the newest saved ranks first")
    func savedAtBreaksTies() {
        let older = Self.recipe([("rice", nil)], savedAt: Date(timeIntervalSince1970: 1_000))
        let newer = Self.recipe([("feta", nil)], savedAt: Date(timeIntervalSince1970: 2_000))
        let ranked = PantryCoverage.ranked([older, newer], pantry: [], today: Self.today)
        #expect(ranked.map(\.saved.id) == [newer.id, older.id])
    }

    @Test("recipes equal in everything else rank by id")
    func idBreaksTies() {
        let second = Self.recipe([("rice", nil)], id: UUID(uuidString: "B0000000-0000-0000-0000-000000000000")!)
        let first = Self.recipe([("feta", nil)], id: UUID(uuidString: "A0000000-0000-0000-0000-000000000000")!)
        let ranked = PantryCoverage.ranked([second, first], pantry: [], today: Self.today)
        #expect(ranked.map(\.saved.id) == [first.id, second.id])
    }
}

@Suite("Cookable recipe JSON")
struct CookableRecipeJSONTests {
    @Test("a cookable recipe is its saved recipe's members plus cookable, substitution null when none, and reads back")
    func flattenedAndRoundTrips() throws {
        let saved = PantryCoverageTests.recipe([("feta", nil)])
        let cookable = CookableRecipe(
            saved: saved,
            cookable: RecipeCoverage(coverage: 0, missing: [MissingIngredient(name: "feta", substitution: nil)], usesSoon: [])
        )
        let data = try KiwiJSON.encoder().encode(cookable)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let savedObject = try #require(try JSONSerialization.jsonObject(with: try KiwiJSON.encoder().encode(saved)) as? [String: Any])
        #expect(Set(object.keys) == Set(savedObject.keys).union(["cookable"]))
        let missing = try #require(((object["cookable"] as? [String: Any])?["missing"] as? [[String: Any]])?.first)
        #expect(missing["substitution"] is NSNull)
        #expect(try KiwiJSON.decoder().decode(SavedRecipe.self, from: data) == saved)
        #expect(try KiwiJSON.decoder().decode(CookableRecipe.self, from: data) == cookable)
    }
}
