import Foundation

/// A meal of the day a plan fills (docs/architecture.md, "Meal plans").
public enum MealTime: String, Codable, Hashable, Sendable, CaseIterable, Comparable {
    case breakfast
    case lunch
    case dinner

    public static func < (lhs: MealTime, rhs: MealTime) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// What a plan is asked for (`POST /v1/plans`), carried by its scan's job: which days, which meals of each, for how
/// many.
public struct PlanRequest: Codable, Hashable, Sendable {
    /// The first day.
    public var from: CalendarDay
    public var days: Int
    /// The meals of each day, in the day's order, each once.
    public var meals: [MealTime]
    public var servings: Int

    /// The longest plan: two weeks.
    public static let mostDays = 14

    public init(from: CalendarDay, days: Int, meals: [MealTime], servings: Int) {
        self.from = from
        self.days = days
        self.meals = meals.sorted()
        self.servings = servings
    }

    /// Every meal of the plan, day by day, each day's in order.
    public var slots: [PlanSlot] {
        (0..<days).flatMap { day in meals.map { PlanSlot(day: day, meal: $0) } }
    }

    /// The days the plan covers, the first first.
    public var dates: ClosedRange<CalendarDay> { from...from.adding(days: days - 1) }

    /// The slot of `date`'s `meal`, counted from the plan's first day; one of ``slots`` only when the plan has it.
    public func slot(on date: CalendarDay, _ meal: MealTime) -> PlanSlot {
        PlanSlot(day: date.daysSince1970 - from.daysSince1970, meal: meal)
    }

    /// The day of `slot`.
    public func date(of slot: PlanSlot) -> CalendarDay {
        from.adding(days: slot.day)
    }
}

/// One meal of a plan: a day (counted from the plan's first, 0 first) and a meal of it.
public struct PlanSlot: Hashable, Sendable {
    public var day: Int
    public var meal: MealTime

    public init(day: Int, meal: MealTime) {
        self.day = day
        self.meal = meal
    }

    /// How the model knows the slot (`d1-dinner`): short, and readable in a repair's problem.
    public var label: String { "d\(day + 1)-\(meal.rawValue)" }
}

/// A planned meal's outline: what to cook, without the full recipe.
public struct MealOutline: Codable, Hashable, Sendable {
    public var name: String
    /// What the meal is built on ("chicken thighs"): no two days running have the same.
    public var mainIngredient: String
    /// One line on the meal.
    public var summary: String
    public var cookTimeMinutes: Int
    /// The pantry items it uses up, by id; each item is used up by one meal of the plan at most.
    public var usesUp: [UUID]

    public init(name: String, mainIngredient: String, summary: String, cookTimeMinutes: Int, usesUp: [UUID]) {
        self.name = name
        self.mainIngredient = mainIngredient
        self.summary = summary
        self.cookTimeMinutes = cookTimeMinutes
        self.usesUp = usesUp
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(mainIngredient, forKey: .mainIngredient)
        try container.encode(summary, forKey: .summary)
        try container.encode(cookTimeMinutes, forKey: .cookTimeMinutes)
        try container.encode(usesUp.map { $0.uuidString.lowercased() }, forKey: .usesUp)
    }
}

/// One meal of a plan: its outline, or why it was left empty for the person to fill.
public struct PlannedMeal: Codable, Hashable, Sendable, Identifiable {
    /// Stable for the plan's slot: the same in every attempt of the plan's model call.
    public var id: UUID
    public var date: CalendarDay
    public var meal: MealTime
    /// Absent when the meal was left empty.
    public var outline: MealOutline?
    /// Why the meal is empty: what the model's meal broke, after one repair, or that the person removed it.
    public var emptyReason: String?
    /// The recipe-box recipe the person put in this meal's place; its outline is that recipe's.
    public var recipeId: UUID?

    public init(id: UUID, date: CalendarDay, meal: MealTime, outline: MealOutline?, emptyReason: String? = nil, recipeId: UUID? = nil) {
        self.id = id
        self.date = date
        self.meal = meal
        self.outline = outline
        self.emptyReason = emptyReason
        self.recipeId = recipeId
    }
}

/// What a planned meal's full recipe is written from (`GET /v1/plans/{id}/meals/{mealId}`), carried by its scan's job:
/// the meal's outline, for how many, and the pantry items it uses up, which the recipe names in `usesUp`.
public struct MealRecipeRequest: Codable, Hashable, Sendable {
    public var meal: MealTime
    public var outline: MealOutline
    public var servings: Int
    /// The items of the outline's `usesUp` the pantry still holds, soonest to use first.
    public var items: [OfferedPantryItem]

    public init(meal: MealTime, outline: MealOutline, servings: Int, items: [OfferedPantryItem]) {
        self.meal = meal
        self.outline = outline
        self.servings = servings
        self.items = items
    }
}

/// What a replacement of one planned meal is asked from (`POST /v1/plans/{id}/meals/{mealId}/replacement`), carried by
/// its scan's job: a plan of that one slot, from the pantry items no other meal uses up, beside the plan's other meals,
/// whose main ingredients it may not repeat the day before or after.
public struct MealReplacement: Codable, Hashable, Sendable {
    /// The one slot: the meal's day and meal, for the plan's servings.
    public var request: PlanRequest
    /// The name of the meal replaced, for the model not to plan again; nil for an empty meal.
    public var replaced: String?
    /// The plan's other outlined meals.
    public var others: [PlannedMeal]
    /// The pantry's items no other meal uses up, soonest to use first.
    public var items: [OfferedPantryItem]

    public init(request: PlanRequest, replaced: String?, others: [PlannedMeal], items: [OfferedPantryItem]) {
        self.request = request
        self.replaced = replaced
        self.others = others
        self.items = items
    }
}

/// A planned meal's full recipe as the API shows it (`GET /v1/plans/{id}/meals/{mealId}`, `POST /v1/plans/{id}/recipes`):
/// `ready` with the recipe (the box's, for a meal the person swapped in), `writing` while the scan that writes it runs
/// (its events are `GET /v1/scans/{scanId}/events`), or `withheld` when the guard withheld what was written, saying why.
public struct PlanMealRecipe: Codable, Hashable, Sendable {
    public var mealId: UUID
    public var status: String
    public var recipe: Recipe?
    /// The scan that writes it (`writing`), or wrote it.
    public var scanId: UUID?
    public var withheldReason: String?
    /// Where a `ready` recipe breaks the profile of the reader's table as it is now (docs/architecture.md, "Saved recipes
    /// meet today's profile"): it was guarded for the table of the day it was written.
    public var conflicts: [RecipeConflict]?

    public init(
        mealId: UUID,
        status: String,
        recipe: Recipe? = nil,
        scanId: UUID? = nil,
        withheldReason: String? = nil,
        conflicts: [RecipeConflict]? = nil
    ) {
        self.mealId = mealId
        self.status = status
        self.recipe = recipe
        self.scanId = scanId
        self.withheldReason = withheldReason
        self.conflicts = conflicts
    }
}

/// Every outlined meal's full recipe (`POST /v1/plans/{id}/recipes`), in the plan's order.
public struct PlanMealRecipeList: Codable, Hashable, Sendable {
    public var meals: [PlanMealRecipe]

    public init(meals: [PlanMealRecipe]) {
        self.meals = meals
    }
}

/// A plan's scan's answer (``ScanResponse/plan``): its meals, in order.
public struct MealPlanOutline: Codable, Hashable, Sendable {
    public var meals: [PlannedMeal]

    public init(meals: [PlannedMeal]) {
        self.meals = meals
    }
}

/// A meal plan as the API shows it (`/v1/plans`): what was asked for, and once outlined, its meals.
public struct MealPlan: Codable, Hashable, Sendable, Identifiable {
    /// Also the id of the scan that outlines it: its event stream is `GET /v1/scans/{id}/events`.
    public var id: UUID
    /// `planning` while its scan runs, `ready` once outlined, `failed` when the scan failed (and was not counted).
    public var status: String
    public var from: CalendarDay
    public var days: Int
    public var meals: [MealTime]
    public var servings: Int
    /// Whether the pantry was empty when the plan was asked for: its meals are then all to buy for.
    public var pantryWasEmpty: Bool
    public var createdAt: Date
    /// The meals, day by day; absent until the plan is outlined.
    public var schedule: [PlannedMeal]?
    /// Why a failed plan failed.
    public var error: ErrorBody?

    public init(
        id: UUID,
        status: String,
        request: PlanRequest,
        pantryWasEmpty: Bool,
        createdAt: Date,
        schedule: [PlannedMeal]? = nil,
        error: ErrorBody? = nil
    ) {
        self.id = id
        self.status = status
        from = request.from
        days = request.days
        meals = request.meals
        servings = request.servings
        self.pantryWasEmpty = pantryWasEmpty
        self.createdAt = createdAt
        self.schedule = schedule
        self.error = error
    }
}

/// The kitchen's plans that overlap some days (`GET /v1/plans`), the earliest first.
public struct MealPlanList: Codable, Hashable, Sendable {
    public var plans: [MealPlan]

    public init(plans: [MealPlan]) {
        self.plans = plans
    }
}

/// A plan's private calendar feed (`POST /v1/plans/{id}/calendar`): shown once, as only its digest is kept.
public struct PlanCalendarLink: Codable, Hashable, Sendable {
    /// The feed anyone with the link can subscribe to: `PUBLIC_BASE_URL` + `/c/{token}`.
    public var url: URL

    public init(url: URL) {
        self.url = url
    }
}
