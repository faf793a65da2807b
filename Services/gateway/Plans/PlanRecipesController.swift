import Foundation
import Hummingbird
import KiwiModels
import KiwiServiceSupport
import Logging

/// The full recipes of a plan's meals (docs/architecture.md, "Meal plans"), written when first opened, or all at once:
/// each by a text-only scan of its own, streamed like any scan and included in the plan's price (``PlanMealRecipes``).
struct PlanRecipesController: Sendable {
    let mealRecipes: PlanMealRecipes
    let plans: any MealPlanStore
    let households: any HouseholdStore

    func addRoutes(to group: RouterGroup<GatewayRequestContext>) {
        group.get("plans/:id/meals/:mealId", use: show)
        group.post("plans/:id/recipes", use: writeAll)
    }

    /// `GET /v1/plans/{id}/meals/{mealId}`: 200 with the meal's recipe (``PlanMealRecipe``), `ready` or `withheld`; or
    /// 202 `writing`, with the scan that writes it as `Location`, whose events (`GET /v1/scans/{scanId}/events`) stream
    /// it; the first request starts that scan. 409 `meal_empty` for an empty meal, `scan_in_progress` before the plan
    /// has meals.
    @Sendable func show(request: Request, context: GatewayRequestContext) async throws -> Response {
        let session = try context.authenticatedSession
        let (id, mealID) = (try context.pathID(else: Self.notFound), try context.pathID("mealId", else: PlanMealEdit.noSuchMeal))
        let kitchen = try await households.kitchen(of: session.userID)
        let (plan, schedule) = try await plans.outlined(id, of: kitchen)
        guard let meal = schedule.first(where: { $0.id == mealID }) else { throw PlanMealEdit.noSuchMeal }
        guard meal.outline != nil else { throw PlanMealRecipes.empty }
        let recipe: PlanMealRecipe
        if let standing = try await mealRecipes.shown([meal], of: plan, in: kitchen, for: session.userID)[meal.id] {
            recipe = standing
        } else {
            recipe = try await mealRecipes.start([meal], of: plan, in: kitchen, request: request, context: context)[meal.id]!
            context.logger.info("plan meal recipe started", metadata: ["planId": "\(id)", "mealId": "\(mealID)"])
        }
        guard recipe.status == PlanMealRecipes.writing, let scanID = recipe.scanId else { return try Response.json(recipe) }
        return try Response.json(recipe, status: .accepted, headers: [.location: "/v1/scans/\(scanID.uuidString.lowercased())"])
    }

    /// `POST /v1/plans/{id}/recipes`: every outlined meal's recipe (``PlanMealRecipeList``), in the plan's order, starting
    /// the scans of those that have none: 202 while any is `writing`, else 200. Asked again, it starts only what failed.
    @Sendable func writeAll(request: Request, context: GatewayRequestContext) async throws -> Response {
        let session = try context.authenticatedSession
        let id = try context.pathID(else: Self.notFound)
        let kitchen = try await households.kitchen(of: session.userID)
        let (plan, schedule) = try await plans.outlined(id, of: kitchen)
        let meals = schedule.filter { $0.outline != nil }
        var standing = try await mealRecipes.shown(meals, of: plan, in: kitchen, for: session.userID)
        let missing = meals.filter { standing[$0.id] == nil }
        if !missing.isEmpty {
            standing.merge(try await mealRecipes.start(missing, of: plan, in: kitchen, request: request, context: context)) { _, started in started }
            context.logger.info("plan meal recipes started", metadata: ["planId": "\(id)", "count": "\(missing.count)"])
        }
        let list = PlanMealRecipeList(meals: meals.compactMap { standing[$0.id] })
        let writing = list.meals.contains { $0.status == PlanMealRecipes.writing }
        return try Response.json(list, status: writing ? .accepted : .ok)
    }

    private static let notFound = PlansController.notFound
}
