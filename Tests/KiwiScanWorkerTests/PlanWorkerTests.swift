import Foundation
import KiwiDevelopment
import KiwiModels
import KiwiScans
import KiwiStrictJSON
import KiwiTestSupport
import PostgresNIO
import Testing

@testable import KiwiLLMStub
@testable import KiwiScanWorker

/// A plan's scan (docs/architecture.md, "Meal plans"): no photo, its slots and the pantry's items soonest first,
/// through the worker against RabbitMQ, PostgreSQL and the stub; Kiwi's own rules of plans held with one repair.
@Suite("Scan worker: meal plans", .timeLimit(.minutes(2)))
struct PlanWorkerTests {
    /// Three items due within two days, then one that keeps, soonest first, as the gateway offers them.
    let pantry = [
        OfferedPantryItem(id: UUID(), name: "Spinach", useSoonBy: CalendarDay("2026-12-01")),
        OfferedPantryItem(id: UUID(), name: "Cream", useSoonBy: CalendarDay("2026-12-01")),
        OfferedPantryItem(id: UUID(), name: "Mushrooms", useSoonBy: CalendarDay("2026-12-02")),
        OfferedPantryItem(id: UUID(), name: "Rice", useSoonBy: nil),
    ]
    let plan = PlanRequest(from: CalendarDay("2026-11-30")!, days: 3, meals: [.dinner], servings: 2)

    /// The outcome of a plan of ``plan`` from ``pantry`` for `profile`, the schedule the worker wrote into the plan's
    /// row, the requests the stub received, and how many meals the worker showed as they streamed.
    func outline(
        answers: [String]? = nil,
        profile: KitchenProfile? = nil
    ) async throws -> (ScanOutcome, [PlannedMeal]?, [ReceivedRequest], shown: Int) {
        try await WorkerRig.run(behaviour: StubBehaviour(answers: answers)) { rig in
            var job = try await rig.reserve([])
            (job.photos, job.ingredients, job.pantry, job.plan, job.profile) = ([], nil, pantry, plan, profile)
            try await rig.postgres.query(
                """
                INSERT INTO meal_plans (id, kitchen_id, created_by, first_day, days, meal_times, servings, pantry_was_empty)
                VALUES (\(job.scanID), \(UUID()), \(UUID()), '2026-11-30', 3, '{dinner}', 2, false)
                """,
                logger: testLogger
            )
            try await rig.submit(job)
            let outcome = try await rig.outcome(of: job.scanID, within: WorkerRig.patience)
            let rows = try await rig.postgres.query("SELECT schedule::text FROM meal_plans WHERE id = \(job.scanID)", logger: testLogger)
            var schedule: [PlannedMeal]?
            for try await text in rows.decode(String?.self) {
                schedule = try text.map { try KiwiJSON.decoder().decode([PlannedMeal].self, from: Data($0.utf8)) }
            }
            return (outcome, schedule, rig.stub.snapshot.recent, try await rig.partialCount(of: job.scanID))
        }
    }

    /// A plan's answer as the model writes it: one meal per dinner slot, in order.
    func answer(_ meals: [(name: String, main: String, usesUp: [String])]) -> String {
        JSONValue.object(
            JSONObject([
                "meals": .array(
                    meals.enumerated().map { index, meal in
                        .object(
                            JSONObject([
                                "slot": .string("d\(index + 1)-dinner"),
                                "name": .string(meal.name),
                                "mainIngredient": .string(meal.main),
                                "summary": .string("A quick dinner."),
                                "cookTimeMinutes": .number(JSONNumber(20)),
                                "usesUp": .array(meal.usesUp.map { .string($0) }),
                            ])
                        )
                    }
                )
            ])
        ).serialized()
    }

    @Test(
        "a plan makes one text-only request naming its slots and the items in order; its meals use them up, each shown as it streams, then written into the plan"
    )
    func cannedPlanUsesUpItemsInOrder() async throws {
        let (outcome, schedule, received, shown) = try await outline()
        guard case .ok(let response) = outcome else {
            Issue.record("expected an outline, got \(outcome)")
            return
        }
        let request = try #require(received.first)
        #expect(received.count == 1 && request.imageCount == 0)
        #expect(request.parameters.schemaName == "kiwi_meal_plan")
        #expect(request.parameters.planSlots == ["d1-dinner", "d2-dinner", "d3-dinner"])
        #expect(request.parameters.pantryIDs == ["p1", "p2", "p3", "p4"])
        let text = try #require(request.parameters.userTexts.first)
        let names = pantry.map { text.range(of: "\"\($0.name)\"")?.lowerBound }
        #expect(names.allSatisfy { $0 != nil } && names == names.sorted { $0! < $1! }, "\(text)")
        let meals = try #require(response.plan?.meals)
        #expect(meals.map(\.date.description) == ["2026-11-30", "2026-12-01", "2026-12-02"])
        #expect(meals.map { $0.outline?.usesUp } == [[pantry[0].id], [pantry[1].id], [pantry[2].id]])
        #expect(response.ingredients.isEmpty && response.recipes.isEmpty)
        #expect(schedule == meals, "the worker writes the meals into the plan with the scan's outcome")
        #expect(shown == 3, "each meal is shown as it streams")
    }

    @Test("a meal that uses up an item the plan did not offer breaks the contract: the plan is asked for again")
    func unknownItemIsRepaired() async throws {
        let bad = answer([("Risotto", "rice", ["p9"]), ("Omelette", "eggs", []), ("Curry", "chickpeas", [])])
        let good = answer([("Risotto", "rice", ["p1"]), ("Omelette", "eggs", []), ("Curry", "chickpeas", [])])
        let (outcome, _, received, _) = try await outline(answers: [bad, good])
        #expect(received.count == 2)
        #expect(received.last?.parameters.userTexts.last?.contains("usesUp[0]: must be one of") == true)
        guard case .ok(let response) = outcome else {
            Issue.record("expected an outline, got \(outcome)")
            return
        }
        #expect(response.plan?.meals.first?.outline?.usesUp == [pantry[0].id])
    }

    @Test("a main ingredient two days running gets one repair, which replaces that meal and keeps the others")
    func repeatedMainIngredientIsRepaired() async throws {
        let bad = answer([("Risotto", "rice", ["p1"]), ("Fried rice", "rice", ["p3"]), ("Curry", "chickpeas", [])])
        let good = answer([("Other", "pasta", []), ("Mushroom omelette", "eggs", ["p3"]), ("Other", "beans", [])])
        let (outcome, _, received, _) = try await outline(answers: [bad, good])
        #expect(received.count == 2)
        #expect(
            received.last?.parameters.userTexts.last?.contains("d2-dinner (\"Fried rice\"): Its main ingredient, rice, is also the day before's.")
                == true
        )
        guard case .ok(let response) = outcome else {
            Issue.record("expected an outline, got \(outcome)")
            return
        }
        #expect(response.plan?.meals.map { $0.outline?.name } == ["Risotto", "Mushroom omelette", "Curry"])
    }

    @Test(
        "an item used up after one due later is out of order: the meal is never shown, is repaired, and is left empty, saying why, when still out of order"
    )
    func itemsOutOfOrderLeaveTheMealEmpty() async throws {
        // Mushrooms (due 2 December) on the first day, then Spinach (due 1 December) on the second.
        let bad = answer([("Mushroom toast", "mushrooms", ["p3"]), ("Spinach soup", "spinach", ["p1"]), ("Curry", "chickpeas", [])])
        let (outcome, _, received, shown) = try await outline(answers: [bad, bad])
        #expect(received.count == 2)
        #expect(shown == 2, "the first and third meals, and nothing of the repair")
        guard case .ok(let response) = outcome else {
            Issue.record("expected an outline, got \(outcome)")
            return
        }
        let second = try #require(response.plan?.meals[1])
        #expect(second.outline == nil)
        #expect(second.emptyReason == "It uses up spinach after mushrooms, which is to be used later.")
        #expect(response.plan?.meals.map { $0.outline?.name } == ["Mushroom toast", nil, "Curry"])
    }

    /// A replacement of the second of three meals (`Fried rice`, whose recipe was written), answered `answers`: the
    /// outcome, the schedule the worker wrote into the plan, the requests the stub received, the recipes left, and the
    /// meals' ids.
    func replace(answers: [String]) async throws -> (ScanOutcome, [PlannedMeal]?, [ReceivedRequest], recipes: Int, ids: [UUID]) {
        let meals = [("Risotto", "rice", "2026-11-30"), ("Fried rice", "rice", "2026-12-01"), ("Curry", "chickpeas", "2026-12-02")].map {
            PlannedMeal(
                id: UUID(),
                date: CalendarDay($0.2)!,
                meal: .dinner,
                outline: MealOutline(name: $0.0, mainIngredient: $0.1, summary: "A dinner.", cookTimeMinutes: 20, usesUp: [])
            )
        }
        return try await WorkerRig.run(behaviour: StubBehaviour(answers: answers)) { rig in
            var job = try await rig.reserve([])
            let replacement = MealReplacement(
                request: PlanRequest(from: meals[1].date, days: 1, meals: [.dinner], servings: 2),
                replaced: "Fried rice",
                others: [meals[0], meals[2]],
                items: Array(pantry.prefix(1))
            )
            (job.photos, job.ingredients, job.replacement) = ([], nil, replacement)
            let (planID, schedule) = (UUID(), String(decoding: try KiwiJSON.encoder().encode(meals), as: UTF8.self))
            try await rig.postgres.query(
                """
                INSERT INTO meal_plans (id, kitchen_id, created_by, first_day, days, meal_times, servings, pantry_was_empty, schedule)
                VALUES (\(planID), \(UUID()), \(UUID()), '2026-11-30', 3, '{dinner}', 2, false, \(schedule)::jsonb)
                """,
                logger: testLogger
            )
            try await rig.postgres.query(
                "INSERT INTO plan_meal_replacements (scan_id, plan_id, meal_id) VALUES (\(job.scanID), \(planID), \(meals[1].id))",
                logger: testLogger
            )
            try await rig.postgres.query(
                "INSERT INTO plan_meal_recipes (scan_id, plan_id, meal_id, recipe) VALUES (\(UUID()), \(planID), \(meals[1].id), '{}')",
                logger: testLogger
            )
            try await rig.submit(job)
            let outcome = try await rig.outcome(of: job.scanID, within: WorkerRig.patience)
            let rows = try await rig.postgres.query("SELECT schedule::text FROM meal_plans WHERE id = \(planID)", logger: testLogger)
            var written: [PlannedMeal]?
            for try await text in rows.decode(String?.self) {
                written = try text.map { try KiwiJSON.decoder().decode([PlannedMeal].self, from: Data($0.utf8)) }
            }
            var recipes = 0
            for try await count in try await rig.postgres.query(
                "SELECT count(*) FROM plan_meal_recipes WHERE plan_id = \(planID)",
                logger: testLogger
            )
            .decode(Int.self) {
                recipes = count
            }
            return (outcome, written, rig.stub.snapshot.recent, recipes, meals.map(\.id))
        }
    }

    /// A one-slot answer as the model writes it, for a replacement.
    func replacementAnswer(_ name: String, main: String) -> String {
        answer([(name, main, [])])
    }

    @Test("a replacement names the meal replaced and the plan's other meals, and takes its place keeping its id, day and meal; its recipe goes")
    func replacementTakesTheMealsPlace() async throws {
        let (outcome, schedule, received, recipes, ids) = try await replace(answers: [replacementAnswer("Chickpea stew", main: "lentils")])
        guard case .ok = outcome else {
            Issue.record("expected a replacement, got \(outcome)")
            return
        }
        let text = try #require(received.first?.parameters.userTexts.first)
        #expect(text.contains(#"It replaces "Fried rice": plan something else."#) && text.contains(#""mainIngredient":"chickpeas""#), "\(text)")
        #expect(received.first?.parameters.planSlots == ["d1-dinner"])
        let meals = try #require(schedule)
        #expect(meals.map { $0.outline?.name } == ["Risotto", "Chickpea stew", "Curry"])
        #expect(meals.map(\.id) == ids && meals[1].date == CalendarDay("2026-12-01") && meals[1].meal == .dinner)
        #expect(recipes == 0, "the replaced meal's recipe is forgotten")
    }

    @Test("a replacement whose main ingredient is the day before's, twice, fails, refunded, and leaves the meal and its recipe as they were")
    func replacementRepeatingANeighbourFails() async throws {
        let rice = replacementAnswer("Rice pudding", main: "rice")
        let (outcome, schedule, received, recipes, _) = try await replace(answers: [rice, rice])
        #expect(received.count == 2)
        guard case .error(let failure) = outcome else {
            Issue.record("expected a failure, got \(outcome)")
            return
        }
        #expect(failure.code == .invalidModelResponse)
        #expect(failure.message == "No other meal fits the plan: Its main ingredient, rice, is also the day before's.", "\(failure.message)")
        #expect(schedule?.map { $0.outline?.name } == ["Risotto", "Fried rice", "Curry"])
        #expect(recipes == 1)
    }

    @Test("a meal that breaks a member's allergy, twice, is left empty and says why; the others stay")
    func allergenTwiceLeavesTheMealEmpty() async throws {
        let shrimp = answer([("Garlic prawns", "prawns", ["p1"]), ("Omelette", "eggs", []), ("Curry", "chickpeas", [])])
        let (outcome, _, received, _) = try await outline(answers: [shrimp, shrimp], profile: KitchenProfile(allergies: [.crustaceans]))
        #expect(received.count == 2)
        guard case .ok(let response) = outcome else {
            Issue.record("expected an outline, got \(outcome)")
            return
        }
        let first = try #require(response.plan?.meals.first)
        #expect(first.outline == nil)
        #expect(first.emptyReason?.contains("crustaceans") == true, "\(first.emptyReason ?? "")")
        #expect(response.plan?.meals.dropFirst().map { $0.outline?.name } == ["Omelette", "Curry"])
        #expect(response.appliedProfile == KitchenProfile(allergies: [.crustaceans]))
    }
}
