import Foundation
import Hummingbird
import KiwiModels
import KiwiScans
import KiwiServiceSupport

/// The full recipes of a plan's meals (docs/architecture.md, "Meal plans"): for a meal the person swapped a box recipe
/// in for, that recipe; for any other, the one a scan of the meal's own writes from its outline, free, as the plan's
/// price included it. The scan's worker writes the recipe with the scan's success, so it is read from the plan's store
/// afterwards, whoever's scan wrote it.
struct PlanMealRecipes: Sendable {
    let scans: ScanCoordinator
    let plans: any MealPlanStore
    let pantry: any PantryStore
    let recipes: any SavedRecipeStore

    /// The recipe of each of `meals` as it stands for `userID`: `ready`, `withheld`, or `writing` by one of their scans;
    /// a meal with none of these, or empty, has none.
    func standing(_ meals: [PlannedMeal], of plan: MealPlanRecord, in kitchen: Kitchen, for userID: UUID) async throws -> [UUID: PlanMealRecipe] {
        var written = try await plans.mealRecipes(of: plan.id)
        var standing: [UUID: PlanMealRecipe] = [:]
        for meal in meals where meal.outline != nil {
            if let recipeID = meal.recipeId, let saved = try await recipes.recipe(recipeID, of: kitchen) {
                standing[meal.id] = PlanMealRecipe(mealId: meal.id, status: Self.ready, recipe: saved.recipe)
                continue
            }
            if let done = Self.written(meal.id, in: written) {
                standing[meal.id] = done
                continue
            }
            // The newest of the caller's scans of this meal that is open. One that ended since the recipes were read
            // has written its recipe (or failed): they are read again.
            for record in written.filter({ $0.mealID == meal.id }).reversed() {
                guard let scan = try await scans.scan(record.scanID, of: userID) else { continue }
                if scan.state.isOpen {
                    standing[meal.id] = PlanMealRecipe(mealId: meal.id, status: Self.writing, scanId: scan.id)
                    break
                }
                if scan.state == .succeeded {
                    written = try await plans.mealRecipes(of: plan.id)
                    standing[meal.id] = Self.written(meal.id, in: written)
                    break
                }
            }
        }
        return standing
    }

    /// Starts the scan that writes `meal`'s recipe from its outline and the pantry items of `held` it uses up (`writing`).
    func start(
        _ meal: PlannedMeal,
        of plan: MealPlanRecord,
        holding held: [PantryItem],
        request: Request,
        context: GatewayRequestContext
    ) async throws -> PlanMealRecipe {
        guard let outline = meal.outline else { throw Self.empty }
        let items = held.filter { outline.usesUp.contains($0.id) }.map(OfferedPantryItem.init)
        let input = ScanInput(
            meal: MealRecipeRequest(meal: meal.meal, outline: outline, servings: plan.request.servings, items: items),
            planID: plan.id,
            mealID: meal.id
        )
        let plans = plans
        let started = try await scans.startMealRecipe(
            request,
            context: context,
            input: { input },
            keeping: { scan in try await plans.addMealRecipe(scan: scan.id, meal: meal.id, of: plan.id) }
        )
        return PlanMealRecipe(mealId: meal.id, status: Self.writing, scanId: started.scan.id)
    }

    /// The pantry items a meal's recipe may use up: those a plan was offered, the soonest to use.
    func held(in kitchen: Kitchen) async throws -> [PantryItem] {
        try await pantry.items(of: kitchen, after: nil, limit: PantryScanRequest.mostItems).items
    }

    /// The recipe of meal `mealID` that a scan wrote, or withheld; nil when none has.
    private static func written(_ mealID: UUID, in records: [MealRecipeRecord]) -> PlanMealRecipe? {
        guard let done = records.first(where: { $0.mealID == mealID && $0.isWritten }) else { return nil }
        guard let recipe = done.recipe else {
            return PlanMealRecipe(mealId: mealID, status: withheld, scanId: done.scanID, withheldReason: done.withheldReason)
        }
        return PlanMealRecipe(mealId: mealID, status: ready, recipe: recipe, scanId: done.scanID)
    }

    static let ready = "ready"
    static let writing = "writing"
    static let withheld = "withheld"

    static let empty = APIError(
        .conflict,
        .mealEmpty,
        "This meal is empty: put a recipe from the box in its place (PATCH /v1/plans/{id}/meals/{mealId}) first."
    )
}
