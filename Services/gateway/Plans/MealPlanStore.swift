import Foundation
import KiwiModels

/// A kitchen's meal plan as the store keeps it: what was asked for, and its meals once its scan outlined them.
struct MealPlanRecord: Sendable, Hashable {
    /// Also its scan's id.
    var id: UUID
    /// Who asked for it, whose scan it is, until they leave its kitchen (nil).
    var createdBy: UUID?
    var request: PlanRequest
    var pantryWasEmpty: Bool
    var createdAt: Date
    /// Nil until the plan's scan succeeds: the worker writes them with its outcome.
    var schedule: [PlannedMeal]?
}

/// A planned meal's full recipe as the store keeps it: the scan that writes it, whether it is still open, and once it
/// succeeded, the recipe, or why the guard withheld it; read in one statement, as the scan ends with the recipe written.
struct MealRecipeRecord: Sendable, Hashable {
    var mealID: UUID
    var scanID: UUID
    var recipe: Recipe?
    var withheldReason: String?
    /// Whether its scan is `queued` or `running`, whoever's it is.
    var isWriting = false

    /// Whether its scan succeeded: the recipe was written, or withheld.
    var isWritten: Bool { recipe != nil || withheldReason != nil }
}

/// The kitchens' meal plans (`/v1/plans`). Real: ``PostgresMealPlanStore`` (the `meal_plans` table); fake:
/// `FakeMealPlanStore`. Every lookup is by the kitchen too: another kitchen's plan is one that does not exist.
protocol MealPlanStore: Sendable {
    /// Keeps `plan` for the kitchen, before its scan's job leaves; a plan of that id already kept stays as it is, so that
    /// a retried request adds nothing.
    func create(_ plan: MealPlanRecord, for kitchen: Kitchen) async throws
    func plan(_ id: UUID, of kitchen: Kitchen) async throws -> MealPlanRecord?
    /// The kitchen's plans with a day in `days`, the earliest first day first, then the newest; at most `limit`.
    func plans(of kitchen: Kitchen, overlapping days: ClosedRange<CalendarDay>, limit: Int) async throws -> [MealPlanRecord]
    func deleteAll(of kitchen: Kitchen) async throws
    /// Edits plan `id`'s meals under the plan's lock, so that two edits at once both land: `edit` gets the plan as it is
    /// and returns its meals as they become. An error it throws changes nothing and is thrown. Returns the plan as
    /// edited; nil when the kitchen has no such plan.
    func editSchedule(
        of id: UUID,
        in kitchen: Kitchen,
        _ edit: @escaping @Sendable (MealPlanRecord) throws -> [PlannedMeal]
    ) async throws -> MealPlanRecord?
    /// Gives the plan a calendar feed of the token whose SHA-256 is `tokenDigest`, revoking any before; nil revokes
    /// it. False when the kitchen has no such plan.
    func setCalendar(_ tokenDigest: Data?, of id: UUID, in kitchen: Kitchen) async throws -> Bool
    /// The plan whose calendar feed's token has SHA-256 `tokenDigest`.
    func plan(calendar tokenDigest: Data) async throws -> MealPlanRecord?
    /// Ties scan `scanID` to meal `mealID` of plan `planID`, before the scan's job leaves: the worker writes the meal's
    /// recipe there with the scan's success.
    func addMealRecipe(scan scanID: UUID, meal mealID: UUID, of planID: UUID) async throws
    /// The recipes of plan `planID`'s meals, written or being written, the oldest first.
    func mealRecipes(of planID: UUID) async throws -> [MealRecipeRecord]
    /// Forgets the recipes of meal `mealID` of plan `planID`: it became another meal.
    func forgetMealRecipes(of mealID: UUID, in planID: UUID) async throws
    /// Ties scan `scanID` to meal `mealID` of plan `planID` as its replacement, before the scan's job leaves: the worker
    /// puts the new meal in its place with the scan's success, and forgets its recipes.
    func addReplacement(scan scanID: UUID, meal mealID: UUID, of planID: UUID) async throws
}
