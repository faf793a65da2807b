import Foundation
import Hummingbird
import KiwiModels
import KiwiScans
import KiwiServiceSupport
import Logging

/// `/v1/plans` (docs/architecture.md, "Meal plans"): a kitchen's plans of the days ahead, each outlined by one scan
/// from the pantry, soonest to use first, and charged as one. A plan is the kitchen's: every member of a household
/// reads it, and it is guarded for all of them; the person who asked also follows its scan's events.
struct PlansController: Sendable {
    let scans: ScanCoordinator
    let plans: any MealPlanStore
    /// How a plan reads, as its scan stands.
    let presenter: MealPlanPresenter
    let households: any HouseholdStore
    let pantry: any PantryStore
    let recipes: any SavedRecipeStore
    /// Whose time zone says what today is, and whose servings a plan is for unless it says.
    let profiles: any ProfileStore
    /// What a box recipe put in a meal's place is checked with.
    let profileCheck: TodaysProfileCheck
    /// The base of the calendar links (`PUBLIC_BASE_URL`).
    let publicBaseURL: URL
    let now: @Sendable () -> Date

    func addRoutes(to group: RouterGroup<GatewayRequestContext>) {
        group.post("plans", use: create)
        group.get("plans", use: list)
        group.get("plans/:id", use: show)
        group.patch("plans/:id/meals/:mealId", use: changeMeal)
        group.delete("plans/:id/meals/:mealId", use: removeMeal)
        group.post("plans/:id/meals/:mealId/replacement", use: replaceMeal)
        group.post("plans/:id/calendar", use: makeCalendar)
        group.delete("plans/:id/calendar", use: revokeCalendar)
    }

    /// `POST /v1/plans` (``PlanRequestBody``): 202 with the plan, `planning`, and its `Location`; its scan's events
    /// (`GET /v1/scans/{id}/events`, the plan's id) say when it is outlined. A retry with the same `Idempotency-Key`
    /// answers the plan it started. Refused as a scan is (429, 503) before anything is kept.
    @Sendable func create(request: Request, context: GatewayRequestContext) async throws -> Response {
        let session = try context.authenticatedSession
        let kitchen = try await households.kitchen(of: session.userID)
        let createdAt = Date()
        let body = try await request.decodedBody(as: PlanRequestBody.self, largest: 1024, example: PlanRequestBody.example)
        let profile = try await profiles.profile(of: session.userID)
        let asked = try body.request(today: today(in: profile), profile: profile)
        let items = try await pantry.offered(in: kitchen)
        let record = { @Sendable (scan: ScanRecord) in
            MealPlanRecord(id: scan.id, createdBy: session.userID, request: asked, pantryWasEmpty: items.isEmpty, createdAt: createdAt)
        }
        let started = try await scans.startPlan(request, context: context) {
            ScanInput(plan: asked, pantry: items, digest: body.digest)
        } keeping: { scan in
            try await plans.create(record(scan), for: kitchen)
        }
        if case .repeated(let scan) = started {
            // Kept already, unless the first request stopped before it could: then it is kept now, and its scan fails.
            try await plans.create(record(scan), for: kitchen)
        }
        guard let plan = try await plans.plan(started.scan.id, of: kitchen) else { throw Self.notFound }
        var headers = HTTPFields()
        headers[.location] = "/v1/plans/\(plan.id.uuidString.lowercased())"
        return try Response.json(try await presenter.shown(plan, of: kitchen), status: .accepted, headers: headers)
    }

    /// `GET /v1/plans/{id}`: the plan, and its meals once outlined.
    @Sendable func show(request: Request, context: GatewayRequestContext) async throws -> Response {
        let session = try context.authenticatedSession
        let id = try context.pathID(else: Self.notFound)
        let kitchen = try await households.kitchen(of: session.userID)
        guard let plan = try await plans.plan(id, of: kitchen) else { throw Self.notFound }
        return try Response.json(try await presenter.shown(plan, of: kitchen))
    }

    /// `GET /v1/plans?from=&to=`: the kitchen's plans with a day from `from` (today in the caller's time zone, by
    /// default) to `to` (two weeks on), the earliest first; at most ``mostListed``.
    @Sendable func list(request: Request, context: GatewayRequestContext) async throws -> Response {
        let session = try context.authenticatedSession
        let query = request.uri.queryParameters
        let from: CalendarDay
        if let asked = try Self.day(query["from"], named: "from") {
            from = asked
        } else {
            from = today(in: try await profiles.profile(of: session.userID))
        }
        let to = try Self.day(query["to"], named: "to") ?? from.adding(days: PlanRequest.mostDays - 1)
        guard from <= to, to.daysSince1970 - from.daysSince1970 <= 366 else {
            throw APIError.badRequest("to must be on or after from, and within a year of it.")
        }
        let kitchen = try await households.kitchen(of: session.userID)
        var shown: [MealPlan] = []
        for plan in try await plans.plans(of: kitchen, overlapping: from...to, limit: Self.mostListed) {
            shown.append(try await presenter.shown(plan, of: kitchen))
        }
        return try Response.json(MealPlanList(plans: shown))
    }

    static let mostListed = 50

    /// `PATCH /v1/plans/{id}/meals/{mealId}` (``PlanMealChange``): 200 with the plan as edited. A box recipe is checked
    /// against the profile of everyone at the table now: one that breaks it is 409 `recipe_breaks_profile`, saying
    /// why. A plan without meals yet is 409 `scan_in_progress`.
    @Sendable func changeMeal(request: Request, context: GatewayRequestContext) async throws -> Response {
        let session = try context.authenticatedSession
        let (id, mealID) = (try context.pathID(else: Self.notFound), try context.pathID("mealId", else: PlanMealEdit.noSuchMeal))
        let change = try await request.decodedBody(as: PlanMealChange.self, largest: 4096, example: PlanMealChange.example)
        let kitchen = try await households.kitchen(of: session.userID)
        let (read, schedule) = try await plans.outlined(id, of: kitchen)
        // The meal and its slot first: a recipe is refused only for a change that could otherwise be made.
        _ = try PlanMealEdit.change(date: change.date, meal: change.meal, recipe: nil).applied(to: schedule, meal: mealID, of: read.request)
        var recipe: SavedRecipe?
        if let recipeID = change.recipeID {
            guard let saved = try await recipes.recipe(recipeID, of: kitchen) else { throw Self.noSuchRecipe }
            let conflicts = try await profileCheck.checked(saved.recipe, of: session.userID).conflicts
            guard conflicts.isEmpty else {
                throw APIError(
                    .conflict,
                    .recipeBreaksProfile,
                    "This recipe does not suit everyone at the table: \(conflicts.map(\.reason).joined(separator: " "))"
                )
            }
            recipe = saved
        }
        let plan = try await edited(id, in: kitchen, meal: mealID, .change(date: change.date, meal: change.meal, recipe: recipe))
        // The meal is the box recipe now: what was written for its outline no longer is its recipe.
        if recipe != nil { try await plans.forgetMealRecipes(of: mealID, in: id) }
        context.logger.info("plan meal changed", metadata: ["planId": "\(id)", "mealId": "\(mealID)"])
        return try Response.json(try await presenter.shown(plan, of: kitchen))
    }

    /// `DELETE /v1/plans/{id}/meals/{mealId}`: 204; the meal is left empty, saying the person removed it, for them to
    /// fill. A plan without meals yet is 409 `scan_in_progress`.
    @Sendable func removeMeal(request: Request, context: GatewayRequestContext) async throws -> Response {
        let session = try context.authenticatedSession
        let (id, mealID) = (try context.pathID(else: Self.notFound), try context.pathID("mealId", else: PlanMealEdit.noSuchMeal))
        _ = try await edited(id, in: try await households.kitchen(of: session.userID), meal: mealID, .remove)
        try await plans.forgetMealRecipes(of: mealID, in: id)
        context.logger.info("plan meal removed", metadata: ["planId": "\(id)", "mealId": "\(mealID)"])
        return Response(status: .noContent)
    }

    /// `POST /v1/plans/{id}/meals/{mealId}/replacement`: 202 with the scan that outlines a new meal in this one's place
    /// (or fills an empty one), at its `Location`: one text-only call, counted as a scan, held to Kiwi's rules of plans
    /// beside the plan's other meals and using up only what none of them does. The worker puts the new meal in the old
    /// one's place with the scan's success, keeping its id, day and meal, and forgetting its recipe; its events stream
    /// it as a plan's `meal`. Refused as a scan is (429, 503); 409 `scan_in_progress` before the plan has meals. A retry
    /// with the same `Idempotency-Key` answers the same scan.
    @Sendable func replaceMeal(request: Request, context: GatewayRequestContext) async throws -> Response {
        let session = try context.authenticatedSession
        let (id, mealID) = (try context.pathID(else: Self.notFound), try context.pathID("mealId", else: PlanMealEdit.noSuchMeal))
        let kitchen = try await households.kitchen(of: session.userID)
        let (plan, schedule) = try await plans.outlined(id, of: kitchen)
        guard let meal = schedule.first(where: { $0.id == mealID }) else { throw PlanMealEdit.noSuchMeal }
        let others = schedule.filter { $0.id != mealID && $0.outline != nil }
        let used = Set(others.flatMap { $0.outline?.usesUp ?? [] })
        let offered = try await pantry.offered(in: kitchen)
        let replacement = MealReplacement(
            request: PlanRequest(from: meal.date, days: 1, meals: [meal.meal], servings: plan.request.servings),
            replaced: meal.outline?.name,
            others: others,
            items: offered.filter { !used.contains($0.id) }
        )
        let plans = plans
        let started = try await scans.startPlan(request, context: context) {
            ScanInput(replacement: replacement, planID: id, mealID: mealID)
        } keeping: { scan in
            try await plans.addReplacement(scan: scan.id, meal: mealID, of: id)
        }
        if case .repeated(let scan) = started { try await plans.addReplacement(scan: scan.id, meal: mealID, of: id) }
        context.logger.info("plan meal replacement started", metadata: ["planId": "\(id)", "mealId": "\(mealID)"])
        let scan = started.scan
        return try Response.json(scan.resource, status: scan.state.isOpen ? .accepted : .ok, headers: [.location: scan.location])
    }

    /// Plan `id` with `edit` applied to meal `mealID`, under the plan's lock.
    private func edited(_ id: UUID, in kitchen: Kitchen, meal mealID: UUID, _ edit: PlanMealEdit) async throws -> MealPlanRecord {
        let plan = try await plans.editSchedule(of: id, in: kitchen) { plan in
            guard let schedule = plan.schedule else { throw Self.notOutlined }
            return try edit.applied(to: schedule, meal: mealID, of: plan.request)
        }
        guard let plan else { throw Self.notFound }
        return plan
    }

    /// `POST /v1/plans/{id}/calendar`: 201 with a new private feed's link (``PlanCalendarFeed``), shown this once; a
    /// feed made before is revoked. 409 `scan_in_progress` while the plan has no meals.
    @Sendable func makeCalendar(request: Request, context: GatewayRequestContext) async throws -> Response {
        let session = try context.authenticatedSession
        let id = try context.pathID(else: Self.notFound)
        let kitchen = try await households.kitchen(of: session.userID)
        _ = try await plans.outlined(id, of: kitchen)
        let token = SharePageController.newToken()
        guard try await plans.setCalendar(PlanCalendarFeed.digest(of: token), of: id, in: kitchen) else { throw Self.notFound }
        context.logger.info("plan calendar made", metadata: ["planId": "\(id)"])
        return try Response.json(PlanCalendarLink(url: publicBaseURL.appending(path: "c/\(token)")), status: .created)
    }

    /// `DELETE /v1/plans/{id}/calendar`: 204; the feed is gone at once, on every gateway. A plan without one is 204 too.
    @Sendable func revokeCalendar(request: Request, context: GatewayRequestContext) async throws -> Response {
        let session = try context.authenticatedSession
        let id = try context.pathID(else: Self.notFound)
        guard try await plans.setCalendar(nil, of: id, in: try await households.kitchen(of: session.userID)) else { throw Self.notFound }
        return Response(status: .noContent)
    }

    /// Today in the time zone of `profile` (UTC without one).
    private func today(in profile: KitchenProfile?) -> CalendarDay {
        CalendarDay(now(), in: (profile ?? KitchenProfile()).zone)
    }

    private static func day(_ text: Substring?, named name: String) throws -> CalendarDay? {
        guard let text else { return nil }
        guard let day = CalendarDay(String(text)) else { throw APIError.badRequest("\(name) must be a date, yyyy-MM-dd.") }
        return day
    }

    static let notFound = APIError(.notFound, .notFound, "There is no such plan.")
    static let notOutlined = APIError(
        .conflict,
        .scanInProgress,
        "The plan has no meals yet: wait until it is ready (GET /v1/plans/{id})."
    )
    private static let noSuchRecipe = APIError(.notFound, .notFound, "There is no such recipe in the recipe box.")
}

extension MealPlanStore {
    /// The kitchen's plan `id` with its meals, for a request that needs them: 404 without the plan, 409
    /// `scan_in_progress` before it has meals.
    func outlined(_ id: UUID, of kitchen: Kitchen) async throws -> (plan: MealPlanRecord, schedule: [PlannedMeal]) {
        guard let plan = try await plan(id, of: kitchen) else { throw PlansController.notFound }
        guard let schedule = plan.schedule else { throw PlansController.notOutlined }
        return (plan, schedule)
    }
}
