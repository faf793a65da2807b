import KiwiFood
import KiwiModels
import Testing

@Suite("Store sections, shelf lives and staples")
struct FoodTablesTests {
    @Test("a known ingredient is listed in its section, a compound by its last word, anything else under Other")
    func sectionsByKey() {
        #expect(StoreSection(key: "milk") == .dairy)
        #expect(StoreSection(key: "cherry tomato") == .vegetable)
        #expect(StoreSection(key: "dragon fruit salsa verde") == .other)
    }

    @Test("a model's category names its section whatever its case; an unknown one is Other")
    func sectionsByCategory() {
        #expect(StoreSection(category: "dairy") == .dairy)
        #expect(StoreSection(category: "Snacks") == .other)
    }

    @Test("fresh food gets a use-by estimate from its section or key; food that keeps gets none")
    func shelfLives() throws {
        let day = try #require(CalendarDay("2026-11-27"))
        #expect(ShelfLife.estimatedUseBy(key: "spinach", section: .vegetable, addedOn: day) == CalendarDay("2026-12-02"))
        #expect(ShelfLife.estimatedUseBy(key: "egg", section: .protein, addedOn: day) == CalendarDay("2026-12-18"))
        #expect(ShelfLife.estimatedUseBy(key: "rice", section: .grain, addedOn: day) == nil)
    }

    @Test("salt, pepper, oil and water are staples; a bell pepper is not")
    func staples() {
        #expect(PantryStaples.contains(key: "salt"))
        #expect(PantryStaples.contains(key: "olive oil"))
        #expect(!PantryStaples.contains(key: "bell pepper"))
    }
}
