import Foundation
import KiwiDietGuard
import KiwiModels

/// Kiwi's own rules of a plan's outline (docs/architecture.md, "Meal plans"): what the contract cannot say, checked on
/// each meal against the meals already accepted (and a replacement's against the plan's other meals), whichever side of
/// it they are on:
/// - it keeps the profile (every member's allergies and diets, by the guard's lexicon, on its name, summary and main
///   ingredient) and its cook time;
/// - its main ingredient is not the day before's or the day after's;
/// - it uses up no item another meal uses up, and uses up its items in `useSoonBy` order with the other days: nothing
///   due sooner than an item used on an earlier day, nothing due later than one used on a later day (food that keeps
///   is due last).
struct PlanChecks: Sendable {
    let dietGuard: DietGuard
    let plan: PlanQuestion
    let profile: KitchenProfile?

    /// The meals of `meals` in order, each accepted when it breaks no rule with those accepted before it, and why each
    /// other one was not, by its id.
    func problems(in meals: [PlannedMeal]) -> [UUID: String] {
        var accepted: [PlannedMeal] = []
        var problems: [UUID: String] = [:]
        for meal in meals {
            if let problem = problem(of: meal, among: accepted) { problems[meal.id] = problem } else { accepted.append(meal) }
        }
        return problems
    }

    /// Why `meal` may not be planned beside `accepted`; nil when it may. An empty meal breaks nothing.
    func problem(of meal: PlannedMeal, among accepted: [PlannedMeal]) -> String? {
        guard let outline = meal.outline else { return nil }
        if let profile, let finding = dietGuard.finding(in: OutlineRecipe(outline), for: profile), !finding.violations.isEmpty {
            return dietGuard.reason(finding.violations)
        }
        if let most = profile?.maxCookTimeMinutes, outline.cookTimeMinutes > most {
            return "It takes \(outline.cookTimeMinutes) minutes, more than the profile's \(most)."
        }
        let main = IngredientKey.of(outline.mainIngredient)
        for other in accepted + plan.neighbours where other.id != meal.id {
            guard let theirs = other.outline else { continue }
            let days = meal.date.daysSince1970 - other.date.daysSince1970
            if abs(days) == 1, IngredientKey.of(theirs.mainIngredient) == main {
                return "Its main ingredient, \(outline.mainIngredient.lowercased()), is also the \(days > 0 ? "day before" : "day after")'s."
            }
            for item in outline.usesUp {
                if theirs.usesUp.contains(item) { return "It uses up \(name(of: item)), which \(other.date) \(other.meal.rawValue) uses up." }
                guard days != 0 else { continue }
                for their in theirs.usesUp {
                    // The item used on the later day may not be due sooner than the one used on the earlier day.
                    let (usedLater, usedEarlier) = days > 0 ? (item, their) : (their, item)
                    if Self.isSooner(plan.itemsByID[usedLater]?.useSoonBy, than: plan.itemsByID[usedEarlier]?.useSoonBy) {
                        return "It uses up \(name(of: item)) \(days > 0 ? "after" : "before") \(name(of: their)), "
                            + "which is to be used \(days > 0 ? "later" : "sooner")."
                    }
                }
            }
        }
        return nil
    }

    /// Whether a day to use by comes strictly before another; no day (food that keeps) comes last.
    private static func isSooner(_ one: CalendarDay?, than other: CalendarDay?) -> Bool {
        switch (one, other) {
        case (let one?, let other?): one < other
        case (.some, nil): true
        default: false
        }
    }

    private func name(of item: UUID) -> String {
        plan.itemsByID[item]?.name.lowercased() ?? "an item"
    }
}

/// An outline as the guard reads a recipe: its name, summary and main ingredient; it has no steps yet.
private struct OutlineRecipe: GuardedRecipe {
    let outline: MealOutline
    init(_ outline: MealOutline) { self.outline = outline }

    var name: String { outline.name }
    var summary: String { outline.summary }
    var ingredientNames: [String] { [outline.mainIngredient] }
    var canonicalNames: [String?] { [nil] }
    var ingredientQuantities: [String] { [] }
    var steps: [String] { [] }
    var substitutions: [String?] { [nil] }
    var makeItFasterTip: String? { nil }
    var allergens: [KitchenProfile.Allergen]? { nil }
}
