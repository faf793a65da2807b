import Foundation
import KiwiModels
import KiwiStrictJSON
import Testing

/// The rules of a plan's outline (``MealPlanContract``): one meal per slot, the pantry's items by label, each once.
@Suite("Meal plan contract")
struct MealPlanContractTests {
    let items = [UUID(), UUID()]
    let request = PlanRequest(from: CalendarDay("2026-11-30")!, days: 2, meals: [.dinner, .lunch], servings: 2)
    var rules: MealPlanContract.Rules { MealPlanContract.Rules(request, pantry: items) }

    func meal(_ slot: String, usesUp: String = "[]") -> String {
        #"{"slot": "\#(slot)", "name": "Soup", "mainIngredient": "leeks", "summary": "A soup.", "cookTimeMinutes": 20, "usesUp": \#(usesUp)}"#
    }

    func validated(_ meals: [String]) throws(ScanResponseValidationError) -> ScanResponse {
        try MealPlanContract.validateModelAnswer(Data(#"{"meals": [\#(meals.joined(separator: ","))]}"#.utf8), by: rules, idSeed: UUID())
    }

    @Test("a plan's meals come in the plan's order, each dated, with its slot's id and the items' ids")
    func mealsInOrderWithIDs() throws {
        let response = try validated([meal("d2-dinner"), meal("d1-dinner", usesUp: #"["p2"]"#), meal("d2-lunch"), meal("d1-lunch")])
        let meals = try #require(response.plan?.meals)
        #expect(meals.map(\.date.description) == ["2026-11-30", "2026-11-30", "2026-12-01", "2026-12-01"])
        #expect(meals.map(\.meal) == [.lunch, .dinner, .lunch, .dinner])
        #expect(meals[1].outline?.usesUp == [items[1]])
        #expect(Set(meals.map(\.id)).count == 4)
    }

    @Test("a slot planned twice, or an item used up by two meals, breaks the contract at its path")
    func slotOrItemTwiceIsRefused() {
        #expect(throws: ScanResponseValidationError.self) {
            try validated([meal("d1-lunch"), meal("d1-lunch"), meal("d2-lunch"), meal("d2-dinner")])
        }
        do {
            _ = try validated([meal("d1-lunch", usesUp: #"["p1"]"#), meal("d1-dinner", usesUp: #"["p1"]"#), meal("d2-lunch"), meal("d2-dinner")])
            Issue.record("an item used up twice passed")
        } catch {
            #expect(error.violations.map(\.path) == ["$.meals[1].usesUp[0]"])
        }
    }

    @Test("the schema enumerates the plan's slots and the offered labels; an empty pantry's meals list no items")
    func schemaEnumeratesSlotsAndLabels() {
        let schema = rules.answer.jsonSchema.serialized()
        #expect(schema.contains(#""d1-lunch","d1-dinner","d2-lunch","d2-dinner""#), "\(schema)")
        #expect(schema.contains(#""p1","p2""#))
        #expect(!MealPlanContract.Rules(request, pantry: []).answer.jsonSchema.serialized().contains("usesUp"))
    }

    @Test("a meal's id is its slot's under the plan's seed, whatever the model writes there")
    func mealIDIsTheSlots() throws {
        let seed = UUID()
        let response = try MealPlanContract.validateModelAnswer(
            Data(#"{"meals": [\#([meal("d1-lunch"), meal("d1-dinner"), meal("d2-lunch"), meal("d2-dinner")].joined(separator: ","))]}"#.utf8),
            by: rules,
            idSeed: seed
        )
        #expect(response.plan?.meals.first?.id == MealPlanContract.mealID(of: PlanSlot(day: 0, meal: .lunch), seed: seed))
    }
}

/// A plan's streamed meal, as the worker stores it and a client reads its event.
@Suite("Meal plan contract: streamed meals")
struct StreamedMealTests {
    let meal = PlannedMeal(
        id: UUID(),
        date: CalendarDay("2026-11-30")!,
        meal: .dinner,
        outline: MealOutline(name: "Soup", mainIngredient: "leeks", summary: "A soup.", cookTimeMinutes: 20, usesUp: [UUID()])
    )

    @Test("a meal partial round-trips as stored, and as a `meal` event's data")
    func mealPartialRoundTrips() throws {
        let partial = ScanPartial.meal(index: 2, meal)
        #expect(partial.kind == "meal")
        #expect(try KiwiJSON.decoder().decode(ScanPartial.self, from: KiwiJSON.encoder().encode(partial)) == partial)
        let event = ScanPartialEvent(scanID: UUID(), partial: partial)
        #expect(try ScanPartialEvent(name: "meal", data: KiwiJSON.encoder().encode(event)) == event)
    }

    @Test("a streamed meal is checked on its own, by the whole answer's rules for one meal")
    func streamedMealIsChecked() throws {
        let rules = MealPlanContract.Rules(PlanRequest(from: CalendarDay("2026-11-30")!, days: 1, meals: [.dinner], servings: 2), pantry: [])
        let value = try StrictJSONParser().parse(
            Data(#"{"slot": "d1-dinner", "name": "Soup", "mainIngredient": "leeks", "summary": "A soup.", "cookTimeMinutes": 20}"#.utf8)
        )
        let seed = UUID()
        #expect(
            try MealPlanContract.validateModelMeal(value, at: 0, by: rules, idSeed: seed).id
                == MealPlanContract.mealID(of: PlanSlot(day: 0, meal: .dinner), seed: seed)
        )
        let late = try StrictJSONParser().parse(
            Data(#"{"slot": "d2-dinner", "name": "Soup", "mainIngredient": "leeks", "summary": "A soup.", "cookTimeMinutes": 20}"#.utf8)
        )
        #expect(throws: ScanResponseValidationError.self) { try MealPlanContract.validateModelMeal(late, at: 1, by: rules, idSeed: seed) }
    }
}
