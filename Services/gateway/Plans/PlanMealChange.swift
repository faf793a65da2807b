import Foundation
import Hummingbird
import KiwiModels
import KiwiServiceSupport

/// The body of `PATCH /v1/plans/{id}/meals/{mealId}` (docs/architecture.md, "Meal plans"): `date` and `meal` move the
/// meal to another of the plan's slots, exchanging it with the meal there; `recipeId` puts a recipe of the box in its
/// place. Any of them, at least one; any other member is 400 `bad_request`.
struct PlanMealChange: Decodable, Sendable {
    var date: CalendarDay?
    var meal: MealTime?
    var recipeID: UUID?

    static let example = #"{"date": "2026-12-01", "meal": "lunch"}"#

    init(from decoder: any Decoder) throws {
        let body = try decoder.container(keyedBy: BodyMember.self)
        try body.refuseMembers(otherThan: ["date", "meal", "recipeId"])
        date = try body.value("date", else: APIError.badRequest("date must be a date, yyyy-MM-dd."))
        meal = try body.value("meal", else: APIError.badRequest("meal must be breakfast, lunch or dinner."))
        recipeID = try body.value("recipeId", else: APIError.badRequest("recipeId must be the id of a recipe in the box."))
        guard date != nil || meal != nil || recipeID != nil else {
            throw APIError.badRequest("The body must give date, meal or recipeId, such as \(Self.example).")
        }
    }
}

/// A person's edit of one meal of an outlined plan, applied to its schedule under the plan's lock
/// (``MealPlanStore/editSchedule(of:in:_:)``). The person's choices are theirs: Kiwi's rules of plans (``PlanChecks``
/// in the worker) are not held against them, but a recipe put in a meal's place must suit everyone at the table, as
/// the controller checks before the edit.
enum PlanMealEdit: Sendable {
    /// Moves the meal to `date`'s `meal` (each its own when left out); with `recipe`, the meal becomes that recipe of
    /// the box.
    case change(date: CalendarDay?, meal: MealTime?, recipe: SavedRecipe?)
    /// Leaves the meal empty, for the person to fill.
    case remove

    /// A meal a person removed says so.
    static let removedReason = "You removed this meal."

    /// `schedule` with meal `id` edited, in the plan's order; throws 404 for a meal the plan does not have and 400 for a
    /// slot outside it.
    func applied(to schedule: [PlannedMeal], meal id: UUID, of request: PlanRequest) throws -> [PlannedMeal] {
        guard let index = schedule.firstIndex(where: { $0.id == id }) else { throw Self.noSuchMeal }
        var schedule = schedule
        switch self {
        case .remove:
            schedule[index].outline = nil
            schedule[index].recipeId = nil
            schedule[index].emptyReason = Self.removedReason
        case .change(let date, let meal, let recipe):
            let target = request.slot(on: date ?? schedule[index].date, meal ?? schedule[index].meal)
            guard request.slots.contains(target) else {
                let last = request.dates.upperBound
                let meals = request.meals.map(\.rawValue).joined(separator: ", ")
                throw APIError.badRequest("date and meal must name one of the plan's meals: a day from \(request.from) to \(last), and \(meals).")
            }
            if let recipe {
                schedule[index].outline = Self.outline(of: recipe.recipe)
                schedule[index].recipeId = recipe.id
                schedule[index].emptyReason = nil
            }
            let leaving = request.slot(on: schedule[index].date, schedule[index].meal)
            // The meal in the slot it moves to takes the slot it leaves.
            for other in schedule.indices where request.slot(on: schedule[other].date, schedule[other].meal) == target {
                (schedule[other].date, schedule[other].meal) = (request.date(of: leaving), leaving.meal)
            }
            (schedule[index].date, schedule[index].meal) = (request.date(of: target), target.meal)
        }
        return schedule.sorted { ($0.date, $0.meal) < ($1.date, $1.meal) }
    }

    /// A box recipe as a meal's outline: its name, its first ingredient as what it is built on, its summary and time,
    /// each cut to the outline's bounds. It uses up nothing of the pantry that the plan counted on.
    static func outline(of recipe: Recipe) -> MealOutline {
        MealOutline(
            name: String(recipe.name.prefix(100)),
            mainIngredient: String((recipe.ingredients.first?.name ?? recipe.name).prefix(60)),
            summary: String(recipe.summary.prefix(200)),
            cookTimeMinutes: min(max(recipe.cookTimeMinutes, 1), 240),
            usesUp: []
        )
    }

    static let noSuchMeal = APIError(.notFound, .notFound, "The plan has no such meal.")
}
