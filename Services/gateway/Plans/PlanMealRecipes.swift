import Foundation
import Hummingbird
import KiwiFood
import KiwiModels
import KiwiScans
import KiwiServiceSupport

/// The full recipes of a plan's meals (docs/architecture.md, "Meal plans"): for a meal the person swapped a box recipe
/// in for, that recipe; for any other, the one a scan of the meal's own writes from its outline, free, as the plan's
/// price included it. The scan's worker writes the recipe with the scan's success, so it is read from the plan's store
/// afterwards, whoever's scan wrote it, and checked against the profile of the reader's table as it is then, and
/// shown costed at the kitchen's prices then (``KitchenPrices``).
struct PlanMealRecipes: Sendable {
    let scans: ScanCoordinator
    let plans: any MealPlanStore
    let pantry: any PantryStore
    let recipes: any SavedRecipeStore
    /// What every recipe shown is checked with.
    let profileCheck: TodaysProfileCheck
    /// What every recipe shown is costed at.
    let kitchenPrices: KitchenPrices

    /// The recipe of each of `meals` as it stands: `ready`, checked against the profile of `userID`'s table now;
    /// `withheld`; or `writing`, by anyone's open scan; a meal with none of these, or empty, has none.
    func standing(_ meals: [PlannedMeal], of plan: MealPlanRecord, in kitchen: Kitchen, for userID: UUID) async throws -> [UUID: PlanMealRecipe] {
        let written = try await plans.mealRecipes(of: plan.id)
        var standing: [UUID: PlanMealRecipe] = [:]
        for meal in meals where meal.outline != nil {
            let records = written.filter { $0.mealID == meal.id }
            if let recipeID = meal.recipeId, let saved = try await recipes.recipe(recipeID, of: kitchen) {
                standing[meal.id] = PlanMealRecipe(mealId: meal.id, status: Self.ready, recipe: saved.recipe)
            } else if let done = records.first(where: \.isWritten) {
                standing[meal.id] =
                    done.recipe.map { PlanMealRecipe(mealId: meal.id, status: Self.ready, recipe: $0, scanId: done.scanID) }
                    ?? PlanMealRecipe(mealId: meal.id, status: Self.withheld, scanId: done.scanID, withheldReason: done.withheldReason)
            } else if let open = records.last(where: \.isWriting) {
                standing[meal.id] = PlanMealRecipe(mealId: meal.id, status: Self.writing, scanId: open.scanID)
            }
        }
        // Every recipe shown meets the table as it is now: it was guarded for the table of its day.
        let ready = standing.values.filter { $0.recipe != nil }
        guard !ready.isEmpty else { return standing }
        let checked = try await profileCheck.checked(ready.compactMap(\.recipe), of: userID)
        for (shown, (_, conflicts)) in zip(ready, checked) { standing[shown.mealId]?.conflicts = conflicts }
        return standing
    }

    /// ``standing(_:of:in:for:)`` as the plan's routes show it: each ready recipe costed at what the pantry's food
    /// costs now.
    func shown(_ meals: [PlannedMeal], of plan: MealPlanRecord, in kitchen: Kitchen, for userID: UUID) async throws -> [UUID: PlanMealRecipe] {
        var shown = try await standing(meals, of: plan, in: kitchen, for: userID)
        guard shown.values.contains(where: { $0.recipe != nil }) else { return shown }
        let prices = try await kitchenPrices.priceList(of: kitchen)
        for (mealID, meal) in shown { shown[mealID]?.recipe?.cost = meal.recipe.flatMap { prices.cost(of: $0) } }
        return shown
    }

    /// Starts the scans that write `meals`' recipes (`writing`, by meal id), each from its outline and the kitchen's
    /// offered pantry items it uses up, read once for all of them.
    func start(
        _ meals: [PlannedMeal],
        of plan: MealPlanRecord,
        in kitchen: Kitchen,
        request: Request,
        context: GatewayRequestContext
    ) async throws -> [UUID: PlanMealRecipe] {
        let offered = try await pantry.offered(in: kitchen)
        let plans = plans
        var started: [UUID: PlanMealRecipe] = [:]
        for meal in meals {
            guard let outline = meal.outline else { throw Self.empty }
            let items = offered.filter { outline.usesUp.contains($0.id) }
            let input = ScanInput(
                meal: MealRecipeRequest(meal: meal.meal, outline: outline, servings: plan.request.servings, items: items),
                planID: plan.id,
                mealID: meal.id
            )
            let scan = try await scans.startMealRecipe(
                request,
                context: context,
                input: { input },
                keeping: { scan in try await plans.addMealRecipe(scan: scan.id, meal: meal.id, of: plan.id) }
            ).scan
            started[meal.id] = PlanMealRecipe(mealId: meal.id, status: Self.writing, scanId: scan.id)
        }
        return started
    }

    static let ready = "ready"
    static let writing = "writing"
    static let withheld = "withheld"

    static let empty = APIError(
        .conflict,
        .mealEmpty,
        "This meal is empty: ask for another meal in its place (POST /v1/plans/{id}/meals/{mealId}/replacement), or put a recipe from the box there (PATCH /v1/plans/{id}/meals/{mealId})."
    )
}
