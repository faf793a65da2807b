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

/// A plan's meals' full recipes in-process on fakes (docs/architecture.md, "Meal plans"): written by a free scan of each
/// meal's own when first opened, or all at once, and read back once written.
@Suite("Gateway router: planned meals' recipes")
struct PlanRecipesRouterTests {
    static func open(_ client: some TestClientProtocol, token: String, _ plan: UUID, meal: UUID) async throws -> TestResponse {
        try await client.execute(.get, PlansRouterTests.path(plan, meal: meal), token: token)
    }

    static func recipe(of answer: TestResponse) throws -> PlanMealRecipe {
        try KiwiJSON.decoder().decode(PlanMealRecipe.self, from: Data(answer.body.readableBytesView))
    }

    @Test("opening a meal starts one free scan of its outline with the items it uses up; 202 writing at the scan, the same scan again")
    func openingAMealStartsItsScan() async throws {
        let gateway = FakeGateway(workers: .hold, policy: QuotaPolicy(limit: 1))
        let (token, session, quotaKey) = gateway.signIn()
        let spinach = PantryScanRouterTests.item("Spinach", useSoonBy: FakeGateway.today.adding(days: 1))
        let rice = PantryScanRouterTests.item("Rice", useSoonBy: nil)
        _ = try await gateway.pantry.add([spinach, rice], for: .own(session.userId), capacity: PantryController.capacity)
        try await gateway.test { client async throws in
            let plan = try await PlansRouterTests.asked(client, token: token, body: #"{"days": 1, "servings": 3}"#)
            let outline = MealOutline(name: "Spinach risotto", mainIngredient: "rice", summary: "Creamy.", cookTimeMinutes: 25, usesUp: [spinach.id])
            let meal = PlannedMeal(id: UUID(), date: plan.from, meal: .dinner, outline: outline)
            gateway.plans.outline(plan.id, with: [meal])
            // The plan spent the day's one scan: its meals' recipes are included in its price.
            #expect(try await gateway.used(by: quotaKey) == 1)
            let opened = try await Self.open(client, token: token, plan.id, meal: meal.id)
            #expect(opened.status == .accepted, "\(String(buffer: opened.body))")
            let writing = try Self.recipe(of: opened)
            let scanID = try #require(writing.scanId)
            #expect(writing.status == "writing" && writing.mealId == meal.id && writing.recipe == nil)
            #expect(opened.headers[.location] == "/v1/scans/\(scanID.uuidString.lowercased())")
            #expect(gateway.workers.scanIDs.last == scanID)
            let asked = MealRecipeRequest(meal: .dinner, outline: outline, servings: 3, items: [OfferedPantryItem(spinach)])
            #expect(gateway.workers.meals.last == asked)
            #expect(gateway.workers.ingredients.last == .some(nil) && gateway.workers.pantries.last == .some(nil))
            let again = try await Self.open(client, token: token, plan.id, meal: meal.id)
            #expect(try again.status == .accepted && Self.recipe(of: again).scanId == scanID)
            #expect(gateway.workers.scanIDs.count == 2)
            #expect(try await gateway.used(by: quotaKey) == 1)
        }
    }

    @Test("a written recipe is 200 ready; one the guard withheld is 200 withheld and says why; neither starts a scan")
    func writtenRecipeIsRead() async throws {
        let gateway = FakeGateway(workers: .hold)
        let (token, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            let plan = try await PlansRouterTests.outlinedPlan(gateway, client, token: token, body: #"{"days": 2}"#)
            let meals = try #require(plan.schedule)
            for meal in meals { _ = try await Self.open(client, token: token, plan.id, meal: meal.id) }
            let scans = gateway.workers.scanIDs.suffix(2)
            let recipe = CookableRouterTests.recipe("Meal 1", [("rice", nil)]).recipe
            gateway.plans.write(recipe, of: scans.first!)
            gateway.plans.write(nil, withheldReason: "It contains sesame, which Ann is allergic to.", of: scans.last!)
            let ready = try await Self.open(client, token: token, plan.id, meal: meals[0].id)
            #expect(ready.status == .ok && ready.headers[.location] == nil)
            #expect(
                try Self.recipe(of: ready)
                    == PlanMealRecipe(mealId: meals[0].id, status: "ready", recipe: recipe, scanId: scans.first!, conflicts: [])
            )
            let withheld = try Self.recipe(of: try await Self.open(client, token: token, plan.id, meal: meals[1].id))
            #expect(withheld.status == "withheld" && withheld.recipe == nil && withheld.withheldReason?.contains("sesame") == true)
            #expect(gateway.workers.scanIDs.count == 3)
        }
    }

    @Test("a written recipe is checked against the table as it is now: one with an allergen added since says so")
    func writtenRecipeMeetsTodaysProfile() async throws {
        let gateway = FakeGateway(workers: .hold)
        let (token, session, _) = gateway.signIn()
        try await gateway.test { client async throws in
            let plan = try await PlansRouterTests.outlinedPlan(gateway, client, token: token, body: #"{"days": 1}"#)
            let meal = try #require(plan.schedule?.first)
            let scan = try #require(try Self.recipe(of: try await Self.open(client, token: token, plan.id, meal: meal.id)).scanId)
            gateway.plans.write(Self.recipe("Satay", [("peanut butter", 50, .g)]), of: scan)
            try await gateway.profiles.save(KitchenProfile(allergies: [.peanuts]), for: session.userId)
            let shown = try Self.recipe(of: try await Self.open(client, token: token, plan.id, meal: meal.id))
            #expect(shown.status == "ready" && shown.conflicts?.map(\.name) == ["peanuts"], "\(shown)")
        }
    }

    @Test("a written recipe costs what the pantry's food costs now")
    func writtenRecipeIsCosted() async throws {
        let gateway = FakeGateway(workers: .hold)
        let (token, session, _) = gateway.signIn()
        var rice = PantryScanRouterTests.item("Rice", useSoonBy: nil)
        rice.price = PantryPrice(amount: 2.40, unit: .kg, currency: "EUR")
        let receipt = ReceiptAddition(scanID: UUID(), fingerprint: nil, again: false)
        _ = try await gateway.pantry.addPurchases([Purchase(lineID: UUID(), item: rice)], from: receipt, for: .own(session.userId), capacity: 10)
        try await gateway.test { client async throws in
            let plan = try await PlansRouterTests.outlinedPlan(gateway, client, token: token, body: #"{"days": 1}"#)
            let meal = try #require(plan.schedule?.first)
            let scan = try #require(try Self.recipe(of: try await Self.open(client, token: token, plan.id, meal: meal.id)).scanId)
            gateway.plans.write(Self.recipe("Rice pudding", [("rice", 250, .g)]), of: scan)
            let shown = try Self.recipe(of: try await Self.open(client, token: token, plan.id, meal: meal.id))
            let cost = RecipeCost(currency: "EUR", total: 0.60, perServing: 0.30, servings: 2, status: .complete, unpriced: [])
            #expect(shown.recipe?.cost == cost, "\(shown)")
        }
    }

    @Test("a meal whose scan failed starts another when opened again")
    func failedScanIsStartedAgain() async throws {
        let gateway = FakeGateway(workers: .hold)
        let (token, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            let plan = try await PlansRouterTests.outlinedPlan(gateway, client, token: token, body: #"{"days": 1}"#)
            let meal = try #require(plan.schedule?.first)
            let first = try #require(try Self.recipe(of: try await Self.open(client, token: token, plan.id, meal: meal.id)).scanId)
            gateway.workers.answer(first, with: .error(ScanFailure(.llmUnavailable, "down")))
            let second = try Self.recipe(of: try await Self.open(client, token: token, plan.id, meal: meal.id))
            #expect(second.status == "writing" && second.scanId != first && second.scanId != nil)
        }
    }

    @Test("a box recipe in a meal's place is its recipe, with no scan; an empty meal is 409 meal_empty; an unknown one 404")
    func boxRecipeAndEmptyMeal() async throws {
        let gateway = FakeGateway(workers: .hold)
        let (token, session, _) = gateway.signIn()
        let risotto = CookableRouterTests.recipe("Leek risotto", [("arborio rice", nil)])
        _ = try await gateway.recipes.save(risotto, for: .own(session.userId), capacity: RecipesController.capacity)
        try await gateway.test { client async throws in
            let plan = try await PlansRouterTests.outlinedPlan(gateway, client, token: token, body: #"{"days": 2}"#)
            let meals = try #require(plan.schedule)
            _ = try await PlansRouterTests.change(client, token: token, plan.id, meal: meals[0].id, #"{"recipeId": "\#(risotto.id)"}"#)
            _ = try await client.execute(.delete, PlansRouterTests.path(plan.id, meal: meals[1].id), token: token)
            let boxed = try await Self.open(client, token: token, plan.id, meal: meals[0].id)
            #expect(try boxed.status == .ok && Self.recipe(of: boxed).recipe == risotto.recipe)
            let empty = try await Self.open(client, token: token, plan.id, meal: meals[1].id)
            #expect(empty.status == .conflict && empty.errorCode == "meal_empty")
            #expect(try await Self.open(client, token: token, plan.id, meal: UUID()).status == .notFound)
            #expect(try await Self.open(client, token: token, UUID(), meal: meals[0].id).status == .notFound)
            #expect(gateway.workers.scanIDs.count == 1)
        }
    }

    @Test("a meal's recipe is read by every member, so its scan seats the whole household, whatever `for` the request names")
    func recipeCooksForTheHousehold() async throws {
        let gateway = FakeGateway(workers: .hold)
        let (samsToken, samsSession, _) = gateway.signIn()
        let sam: HouseholdRouterTests.Person = (samsToken, samsSession.userId)
        let alex = try await HouseholdRouterTests.person(gateway, allergies: [.peanuts])
        try await gateway.test { client async throws in
            let household = try await HouseholdRouterTests.twoPeople(client, sam, alex)
            let plan = try await PlansRouterTests.outlinedPlan(gateway, client, token: sam.token, body: #"{"days": 1}"#)
            let meal = try #require(plan.schedule?.first)
            let path = PlansRouterTests.path(plan.id, meal: meal.id) + "?for=\(household.yourMemberId.uuidString)"
            #expect(try await client.execute(.get, path, token: sam.token).status == .accepted)
            #expect(gateway.workers.tables.last??.count == 2)
        }
    }

    /// A recipe for two of `ingredients`, each with its amount.
    static func recipe(_ name: String, _ ingredients: [(String, Double, QuantityUnit)]) -> Recipe {
        var recipe = CookableRouterTests.recipe(name, []).recipe
        recipe.servings = 2
        recipe.ingredients = ingredients.map {
            RecipeIngredient(id: UUID(), name: $0.0, isDetected: false, substitution: nil, amount: $0.1, unit: $0.2)
        }
        return recipe
    }

    @Test(
        "the week's shopping list sums 200 g + 1 cup rice across meals, less the pantry's, each line naming its meals; not before every recipe is written"
    )
    func weeksShoppingList() async throws {
        let gateway = FakeGateway(workers: .hold)
        let (token, session, _) = gateway.signIn()
        var rice = PantryScanRouterTests.item("Rice", useSoonBy: nil)
        (rice.quantity, rice.unit) = (100, .g)
        _ = try await gateway.pantry.add([rice], for: .own(session.userId), capacity: PantryController.capacity)
        var saved = CookableRouterTests.recipe("Rice bowl", [])
        saved.recipe = Self.recipe("Rice bowl", [("rice", 200, .g)])
        let bowl = saved
        _ = try await gateway.recipes.save(bowl, for: .own(session.userId), capacity: RecipesController.capacity)
        try await gateway.test { client async throws in
            let plan = try await PlansRouterTests.outlinedPlan(gateway, client, token: token, body: #"{"days": 2, "servings": 2}"#)
            let meals = try #require(plan.schedule)
            _ = try await PlansRouterTests.change(client, token: token, plan.id, meal: meals[0].id, #"{"recipeId": "\#(bowl.id)"}"#)
            let path = PlansRouterTests.path(plan.id) + "/shopping-list"
            let early = try await client.execute(.post, path, token: token)
            #expect(early.status == .conflict && early.errorCode == "scan_in_progress")
            let scan = try #require(try Self.recipe(of: try await Self.open(client, token: token, plan.id, meal: meals[1].id)).scanId)
            #expect(try await client.execute(.post, path, token: token).status == .conflict)
            gateway.plans.write(Self.recipe("Spinach pilaf", [("rice", 1, .cup), ("spinach", 150, .g)]), of: scan)
            let added = try await client.execute(.post, path, token: token)
            #expect(added.status == .ok, "\(String(buffer: added.body))")
            let addition = try KiwiJSON.decoder().decode(ShoppingListAddition.self, from: Data(added.body.readableBytesView))
            let items = Dictionary(uniqueKeysWithValues: addition.list.sections.flatMap(\.items).map { ($0.key, $0) })
            // 200 g and 1 cup (185 g of raw rice, USDA) are 385 g; less the pantry's 100 g, 285 g, which a cook weighs
            // to 10 g from 100 g up: 290 g.
            #expect(items["rice"]?.quantity == 290 && items["rice"]?.unit == .g, "\(String(describing: items["rice"]))")
            #expect(items["rice"]?.forRecipes == ["Rice bowl (\(meals[0].date) dinner)", "Spinach pilaf (\(meals[1].date) dinner)"])
            #expect(items["spinach"]?.quantity == 150 && items["spinach"]?.forRecipes == ["Spinach pilaf (\(meals[1].date) dinner)"])
            #expect(items.count == 2 && addition.conflicts.isEmpty)
        }
    }

    @Test("all recipes at once start a scan for each outlined meal without one, 202; asked again, they start nothing more")
    func allRecipesAtOnce() async throws {
        let gateway = FakeGateway(workers: .hold)
        let (token, _, quotaKey) = gateway.signIn()
        try await gateway.test { client async throws in
            let plan = try await PlansRouterTests.outlinedPlan(gateway, client, token: token, body: #"{"days": 2, "meals": ["lunch", "dinner"]}"#)
            let meals = try #require(plan.schedule)
            _ = try await client.execute(.delete, PlansRouterTests.path(plan.id, meal: meals[3].id), token: token)
            let opened = try #require(try Self.recipe(of: try await Self.open(client, token: token, plan.id, meal: meals[0].id)).scanId)
            let path = PlansRouterTests.path(plan.id) + "/recipes"
            let all = try await client.execute(.post, path, token: token)
            #expect(all.status == .accepted, "\(String(buffer: all.body))")
            let list = try KiwiJSON.decoder().decode(PlanMealRecipeList.self, from: Data(all.body.readableBytesView))
            #expect(list.meals.map(\.mealId) == meals.prefix(3).map(\.id) && list.meals.allSatisfy { $0.status == "writing" })
            #expect(list.meals.first?.scanId == opened && gateway.workers.scanIDs.count == 4)
            let again = try KiwiJSON.decoder().decode(
                PlanMealRecipeList.self,
                from: Data(try await client.execute(.post, path, token: token).body.readableBytesView)
            )
            #expect(again == list && gateway.workers.scanIDs.count == 4)
            #expect(try await gateway.used(by: quotaKey) == 1)
            let before = try await client.execute(
                .post,
                PlansRouterTests.path(try await PlansRouterTests.asked(client, token: token, body: "{}").id) + "/recipes",
                token: token
            )
            #expect(before.status == .conflict && before.errorCode == "scan_in_progress")
        }
    }
}
