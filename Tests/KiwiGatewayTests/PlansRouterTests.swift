import Foundation
import HTTPTypes
import HummingbirdTesting
import KiwiInternalAPI
import KiwiModels
import KiwiScans
import KiwiTestSupport
import NIOCore
import Testing

@testable import KiwiGateway

/// `/v1/plans` in-process on fakes (docs/architecture.md, "Meal plans"): what a plan's job asks for, how its body is
/// checked, what it costs, and its calendar.
@Suite("Gateway router: meal plans")
struct PlansRouterTests {
    static func ask(_ client: some TestClientProtocol, token: String, body: String, key: String? = nil) async throws -> TestResponse {
        var headers: HTTPFields = [.contentType: "application/json"]
        if let key { headers[HTTPField.Name("Idempotency-Key")!] = key }
        return try await client.execute(.post, "/v1/plans", token: token, headers: headers, body: ByteBuffer(string: body))
    }

    /// The plan `body` asks for, as the answer shows it.
    static func asked(_ client: some TestClientProtocol, token: String, body: String) async throws -> MealPlan {
        try KiwiJSON.decoder().decode(MealPlan.self, from: Data(try await ask(client, token: token, body: body).body.readableBytesView))
    }

    @Test("a plan is 202, planning, at its Location; its job asks for the plan with the pantry's items and no names; it costs a scan")
    func planIsAScan() async throws {
        let gateway = FakeGateway(workers: .hold)
        let (token, session, quotaKey) = gateway.signIn()
        let spinach = PantryScanRouterTests.item("Spinach", useSoonBy: FakeGateway.today.adding(days: 1))
        _ = try await gateway.pantry.add([spinach], for: .own(session.userId), capacity: PantryController.capacity)
        try await gateway.test { client async throws in
            let answer = try await Self.ask(client, token: token, body: #"{"days": 3, "meals": ["dinner", "lunch"], "servings": 4}"#)
            #expect(answer.status == .accepted)
            let plan = try KiwiJSON.decoder().decode(MealPlan.self, from: Data(answer.body.readableBytesView))
            #expect(plan.status == "planning" && plan.meals == [.lunch, .dinner] && plan.from == FakeGateway.today && !plan.pantryWasEmpty)
            #expect(answer.headers[.location] == "/v1/plans/\(plan.id.uuidString.lowercased())")
            #expect(gateway.workers.scanIDs == [plan.id])
            #expect(gateway.workers.plans == [PlanRequest(from: FakeGateway.today, days: 3, meals: [.lunch, .dinner], servings: 4)])
            #expect(gateway.workers.pantries.first??.map(\.id) == [spinach.id] && gateway.workers.ingredients == [nil])
            #expect(try await gateway.used(by: quotaKey) == 1)
        }
    }

    @Test("a plan that does not say starts today in the asker's time zone and is for the profile's servings; so does the list")
    func defaultsFollowTheProfile() async throws {
        let gateway = FakeGateway(workers: .hold)
        let (token, session, _) = gateway.signIn()
        // At noon UTC it is already the next day at UTC+14.
        try await gateway.profiles.save(KitchenProfile(servings: 5, timeZone: "Pacific/Kiritimati"), for: session.userId)
        try await gateway.test { client async throws in
            let plan = try await Self.asked(client, token: token, body: #"{"days": 1}"#)
            #expect(plan.from == FakeGateway.today.adding(days: 1) && plan.servings == 5)
            let listed = try await client.execute(.get, "/v1/plans", token: token)
            #expect(try KiwiJSON.decoder().decode(MealPlanList.self, from: Data(listed.body.readableBytesView)).plans.map(\.id) == [plan.id])
            let yesterdays = try await Self.asked(client, token: token, body: #"{"from": "\#(FakeGateway.today)", "days": 1}"#)
            let later = try await client.execute(.get, "/v1/plans", token: token)
            #expect(try KiwiJSON.decoder().decode(MealPlanList.self, from: Data(later.body.readableBytesView)).plans.map(\.id) == [plan.id])
            #expect(yesterdays.servings == 5)
        }
    }

    @Test("a retry with the same key is the same plan and one scan; the same key with another body is 422")
    func retryIsTheSamePlan() async throws {
        let gateway = FakeGateway(workers: .hold)
        let (token, _, quotaKey) = gateway.signIn()
        try await gateway.test { client async throws in
            let first = try await Self.ask(client, token: token, body: #"{"days": 2}"#, key: "plan-1")
            let again = try await Self.ask(client, token: token, body: #"{"days": 2}"#, key: "plan-1")
            #expect(first.status == .accepted && again.status == .accepted)
            #expect(first.headers[.location] == again.headers[.location])
            #expect(try await gateway.used(by: quotaKey) == 1 && gateway.workers.scanIDs.count == 1)
            #expect(try await Self.ask(client, token: token, body: #"{"days": 3}"#, key: "plan-1").status == .unprocessableContent)
        }
    }

    @Test(
        "a body that breaks a rule is 400 and starts nothing",
        arguments: [
            #"{"days": 15}"#, #"{"days": 0}"#, #"{"meals": ["breakfast", "lunch", "dinner", "supper"]}"#, #"{"meals": ["lunch", "lunch"]}"#,
            #"{"meals": []}"#, #"{"servings": 13}"#, #"{"from": "2026-02-30"}"#, #"{"from": "2000-01-01"}"#, #"{"days": 7, "note": "hi"}"#, "[]",
        ]
    )
    func badBodyIsRefused(body: String) async throws {
        let gateway = FakeGateway(workers: .hold)
        let (token, _, quotaKey) = gateway.signIn()
        try await gateway.test { client async throws in
            let answer = try await Self.ask(client, token: token, body: body)
            #expect(answer.status == .badRequest, "\(String(buffer: answer.body))")
            #expect(gateway.workers.scanIDs.isEmpty)
            #expect(try await gateway.used(by: quotaKey) == 0)
        }
    }

    @Test("a plan read just before its scan ends with its meals is shown ready, not failed")
    func planOutlinedBetweenReadsIsReady() async throws {
        let gateway = FakeGateway(workers: .hold)
        let (token, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            let plan = try await Self.asked(client, token: token, body: "{}")
            let meals = [PlannedMeal(id: UUID(), date: plan.from, meal: .dinner, outline: nil, emptyReason: "It contains fish.")]
            gateway.plans.afterNextRead {
                // The worker's end: the meals and the scan's success in one transaction.
                gateway.plans.outline(plan.id, with: meals)
                gateway.workers.answer(plan.id, with: .ok(ScanResponse(ingredients: [], recipes: [], plan: MealPlanOutline(meals: meals))))
            }
            let read = try await Self.read(plan.id, client, token: token)
            #expect(read.status == "ready" && read.schedule == meals)
        }
    }

    @Test("a calendar needs the plan's meals: 409 before, then a link shown once whose feed a new link or a delete revokes")
    func calendarNeedsMeals() async throws {
        let gateway = FakeGateway(workers: .hold)
        let (token, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            let plan = try await Self.asked(client, token: token, body: "{}")
            let path = "/v1/plans/\(plan.id.uuidString.lowercased())/calendar"
            #expect(try await client.execute(.post, path, token: token).status == .conflict)
            let meal = PlannedMeal(id: UUID(), date: plan.from, meal: .dinner, outline: nil, emptyReason: "It contains fish.")
            gateway.plans.outline(plan.id, with: [meal])
            let made = try await client.execute(.post, path, token: token)
            #expect(made.status == .created)
            let first = try KiwiJSON.decoder().decode(PlanCalendarLink.self, from: Data(made.body.readableBytesView)).url.path
            let feed = try await client.execute(.get, first, token: nil)
            #expect(feed.status == .ok && feed.headers[.contentType] == "text/calendar; charset=utf-8")
            #expect(String(buffer: feed.body).contains("SUMMARY:Dinner: nothing planned yet"))
            let second = try KiwiJSON.decoder().decode(
                PlanCalendarLink.self,
                from: Data(try await client.execute(.post, path, token: token).body.readableBytesView)
            )
            #expect(try await client.execute(.get, first, token: nil).status == .notFound)
            #expect(try await client.execute(.delete, path, token: token).status == .noContent)
            #expect(try await client.execute(.get, second.url.path, token: nil).status == .notFound)
        }
    }

    /// A plan of `body` asked for and outlined: a meal named `Meal 1`, `Meal 2`, … in each slot, in order.
    static func outlinedPlan(_ gateway: FakeGateway, _ client: some TestClientProtocol, token: String, body: String) async throws -> MealPlan {
        let plan = try await asked(client, token: token, body: body)
        let request = PlanRequest(from: plan.from, days: plan.days, meals: plan.meals, servings: plan.servings)
        let meals = request.slots.enumerated().map { index, slot in
            let outline = MealOutline(name: "Meal \(index + 1)", mainIngredient: "rice", summary: "A meal.", cookTimeMinutes: 20, usesUp: [])
            return PlannedMeal(id: MealPlanContract.mealID(of: slot, seed: plan.id), date: request.date(of: slot), meal: slot.meal, outline: outline)
        }
        gateway.plans.outline(plan.id, with: meals)
        return try await read(plan.id, client, token: token)
    }

    static func read(_ id: UUID, _ client: some TestClientProtocol, token: String) async throws -> MealPlan {
        try KiwiJSON.decoder().decode(MealPlan.self, from: Data(try await client.execute(.get, path(id), token: token).body.readableBytesView))
    }

    static func path(_ plan: UUID, meal: UUID? = nil) -> String {
        "/v1/plans/\(plan.uuidString.lowercased())" + (meal.map { "/meals/\($0.uuidString.lowercased())" } ?? "")
    }

    static func change(_ client: some TestClientProtocol, token: String, _ plan: UUID, meal: UUID, _ body: String) async throws -> TestResponse {
        try await client.execute(
            .patch,
            path(plan, meal: meal),
            token: token,
            headers: [.contentType: "application/json"],
            body: ByteBuffer(string: body)
        )
    }

    @Test("a meal moved to a slot another holds exchanges places with it, keeping both ids; a slot outside the plan is 400")
    func movedMealExchangesPlaces() async throws {
        let gateway = FakeGateway()
        let (token, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            let plan = try await Self.outlinedPlan(gateway, client, token: token, body: #"{"days": 2, "meals": ["lunch", "dinner"]}"#)
            let meals = try #require(plan.schedule)
            let moved = try await Self.change(
                client,
                token: token,
                plan.id,
                meal: meals[0].id,
                #"{"date": "\#(plan.from.adding(days: 1))", "meal": "dinner"}"#
            )
            #expect(moved.status == .ok, "\(String(buffer: moved.body))")
            let after = try KiwiJSON.decoder().decode(MealPlan.self, from: Data(moved.body.readableBytesView))
            #expect(after.schedule?.map(\.outline?.name) == ["Meal 4", "Meal 2", "Meal 3", "Meal 1"])
            #expect(after.schedule?.map(\.id) == [meals[3].id, meals[1].id, meals[2].id, meals[0].id])
            #expect(try await Self.read(plan.id, client, token: token) == after)
            let outside = try await Self.change(client, token: token, plan.id, meal: meals[0].id, #"{"meal": "breakfast"}"#)
            #expect(outside.status == .badRequest && outside.errorCode == "bad_request")
            let late = try await Self.change(client, token: token, plan.id, meal: meals[0].id, #"{"date": "\#(plan.from.adding(days: 2))"}"#)
            #expect(late.status == .badRequest)
            #expect(try await Self.read(plan.id, client, token: token) == after)
        }
    }

    @Test("a box recipe takes a meal's place with its outline and id; one with an allergen of the table is 409 and changes nothing")
    func boxRecipeTakesAMealsPlace() async throws {
        let gateway = FakeGateway()
        let (token, session, _) = gateway.signIn()
        try await gateway.profiles.save(KitchenProfile(allergies: [.peanuts]), for: session.userId)
        let risotto = CookableRouterTests.recipe("Leek risotto", [("arborio rice", nil), ("leeks", nil)])
        let satay = CookableRouterTests.recipe("Chicken satay", [("chicken thighs", nil), ("peanut butter", nil)])
        for recipe in [risotto, satay] { _ = try await gateway.recipes.save(recipe, for: .own(session.userId), capacity: RecipesController.capacity) }
        try await gateway.test { client async throws in
            let plan = try await Self.outlinedPlan(gateway, client, token: token, body: #"{"days": 2}"#)
            let meal = try #require(plan.schedule?.last)
            let swapped = try await Self.change(client, token: token, plan.id, meal: meal.id, #"{"recipeId": "\#(risotto.id)"}"#)
            #expect(swapped.status == .ok, "\(String(buffer: swapped.body))")
            let after = try #require(try KiwiJSON.decoder().decode(MealPlan.self, from: Data(swapped.body.readableBytesView)).schedule?.last)
            #expect(after.id == meal.id && after.recipeId == risotto.id && after.date == meal.date)
            #expect(
                after.outline
                    == MealOutline(name: "Leek risotto", mainIngredient: "arborio rice", summary: "A dish.", cookTimeMinutes: 10, usesUp: [])
            )
            let refused = try await Self.change(client, token: token, plan.id, meal: meal.id, #"{"recipeId": "\#(satay.id)"}"#)
            #expect(refused.status == .conflict && refused.errorCode == "recipe_breaks_profile", "\(String(buffer: refused.body))")
            #expect((try refused.json()["message"] as? String)?.contains("peanut") == true)
            #expect(try await Self.read(plan.id, client, token: token).schedule?.last == after)
            let unknown = try await Self.change(client, token: token, plan.id, meal: meal.id, #"{"recipeId": "\#(UUID())"}"#)
            #expect(unknown.status == .notFound)
            // The meal and its slot are checked first: a recipe is refused only for a change that could be made.
            let outside = try await Self.change(client, token: token, plan.id, meal: meal.id, #"{"recipeId": "\#(satay.id)", "meal": "lunch"}"#)
            #expect(outside.status == .badRequest)
            #expect(try await Self.change(client, token: token, plan.id, meal: UUID(), #"{"recipeId": "\#(satay.id)"}"#).status == .notFound)
        }
    }

    @Test("a replacement is a counted scan of the meal's one slot, beside the plan's other meals, offering what none of them uses up")
    func replacementIsACountedScan() async throws {
        let gateway = FakeGateway(workers: .hold)
        let (token, session, quotaKey) = gateway.signIn()
        let (spinach, rice) = (PantryScanRouterTests.item("Spinach", useSoonBy: nil), PantryScanRouterTests.item("Rice", useSoonBy: nil))
        _ = try await gateway.pantry.add([spinach, rice], for: .own(session.userId), capacity: PantryController.capacity)
        try await gateway.test { client async throws in
            let plan = try await Self.asked(client, token: token, body: #"{"days": 2, "servings": 3}"#)
            let path = Self.path(plan.id, meal: UUID()) + "/replacement"
            #expect(try await client.execute(.post, path, token: token).status == .conflict)
            var meals = PlanRequest(from: plan.from, days: 2, meals: [.dinner], servings: 3).slots.enumerated().map { index, slot in
                PlannedMeal(
                    id: UUID(),
                    date: plan.from.adding(days: slot.day),
                    meal: .dinner,
                    outline: MealOutline(name: "Meal \(index + 1)", mainIngredient: "rice", summary: "A meal.", cookTimeMinutes: 20, usesUp: [])
                )
            }
            meals[0].outline?.usesUp = [spinach.id]
            gateway.plans.outline(plan.id, with: meals)
            #expect(try await client.execute(.post, path, token: token).status == .notFound)
            let replaced = try await client.execute(.post, Self.path(plan.id, meal: meals[1].id) + "/replacement", token: token)
            #expect(replaced.status == .accepted, "\(String(buffer: replaced.body))")
            let scanID = try #require(gateway.workers.scanIDs.last)
            #expect(replaced.headers[.location] == "/v1/scans/\(scanID.uuidString.lowercased())")
            let asked = MealReplacement(
                request: PlanRequest(from: meals[1].date, days: 1, meals: [.dinner], servings: 3),
                replaced: "Meal 2",
                others: [meals[0]],
                items: [OfferedPantryItem(rice)]
            )
            #expect(gateway.workers.replacements.last == asked)
            #expect(gateway.workers.plans.last == .some(nil) && gateway.workers.pantries.last == .some(nil))
            #expect(gateway.plans.replaced(by: scanID)?.meal == meals[1].id)
            #expect(try await gateway.used(by: quotaKey) == 2, "the plan and its replacement")
        }
    }

    @Test("a removed meal is left empty and says so; an unknown meal is 404; a plan not yet outlined is 409")
    func removedMealIsEmpty() async throws {
        let gateway = FakeGateway(workers: .hold)
        let (token, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            let waiting = try KiwiJSON.decoder().decode(
                MealPlan.self,
                from: Data(try await Self.ask(client, token: token, body: "{}").body.readableBytesView)
            )
            let early = try await client.execute(.delete, Self.path(waiting.id, meal: UUID()), token: token)
            #expect(early.status == .conflict && early.errorCode == "scan_in_progress")
            let plan = try await Self.outlinedPlan(gateway, client, token: token, body: #"{"days": 2}"#)
            let meal = try #require(plan.schedule?.first)
            #expect(try await client.execute(.delete, Self.path(plan.id, meal: meal.id), token: token).status == .noContent)
            let removed = try #require(try await Self.read(plan.id, client, token: token).schedule?.first)
            #expect(removed.id == meal.id && removed.outline == nil && removed.emptyReason == PlanMealEdit.removedReason)
            #expect(try await client.execute(.delete, Self.path(plan.id, meal: UUID()), token: token).status == .notFound)
            #expect(try await client.execute(.delete, Self.path(UUID(), meal: meal.id), token: token).status == .notFound)
        }
    }

    @Test(
        "a meal change that breaks a rule is 400 and changes nothing",
        arguments: [#"{}"#, #"{"note": "x"}"#, #"{"date": "2026-02-30"}"#, #"{"meal": "supper"}"#, #"{"recipeId": "risotto"}"#, "[]"]
    )
    func badMealChangeIsRefused(body: String) async throws {
        let gateway = FakeGateway()
        let (token, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            let plan = try await Self.outlinedPlan(gateway, client, token: token, body: #"{"days": 1}"#)
            let answer = try await Self.change(client, token: token, plan.id, meal: try #require(plan.schedule?.first?.id), body)
            #expect(answer.status == .badRequest && answer.errorCode == "bad_request", "\(String(buffer: answer.body))")
            #expect(try await Self.read(plan.id, client, token: token) == plan)
        }
    }
}
