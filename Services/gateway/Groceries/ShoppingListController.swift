import Foundation
import HTTPTypes
import Hummingbird
import KiwiFood
import KiwiModels
import KiwiServiceSupport
import Logging
import NIOCore

/// The shopping list (`/v1/shopping-list`): what the person means to buy, filled from a recipe with what the pantry
/// lacks or by hand, merged by ``IngredientKey`` across recipes, grouped by store section; ticked off in the shop and
/// moved into the pantry in one call. Another user's item is 404, like one that never was. Every rule of a request
/// body is checked before anything is stored, and an add is all or nothing.
struct ShoppingListController: Sendable {
    let shoppingList: any ShoppingListStore
    /// Whose kitchen's list a request works on: the household's, or the person's own.
    let households: any HouseholdStore
    let recipes: any SavedRecipeStore
    let ledger: any ScanLedger
    let pantry: any PantryStore
    let profileCheck: TodaysProfileCheck
    /// What is left to buy is estimated at.
    let kitchenPrices: KitchenPrices
    /// The plans whose week a list is filled from, and their meals' recipes.
    let plans: any MealPlanStore
    let mealRecipes: PlanMealRecipes
    /// Every change is announced to the streams of the kitchen's list, on every gateway.
    let news: ShoppingListNews
    /// How long one event stream lasts before it ends and the client reconnects (``GatewayDependencies/listStreamLifetime``).
    let streamLifetime: Duration
    let metrics: GatewayMetrics
    /// When an item is added (``GatewayDependencies/now``).
    let now: @Sendable () -> Date

    /// How many items one list may hold, as many as a pantry.
    static let capacity = 500
    /// The largest body read, as the pantry's.
    static let largestBody = 64 * 1024

    func addRoutes(to group: RouterGroup<GatewayRequestContext>) {
        group.get("shopping-list", use: show)
        group.get("shopping-list/events", use: events)
        group.delete("shopping-list", use: clear)
        group.post("shopping-list/items", use: add)
        group.patch("shopping-list/items/:id", use: check)
        group.delete("shopping-list/items/:id", use: delete)
        group.post("shopping-list/checked/pantry", use: moveCheckedToPantry)
        group.post("plans/:id/shopping-list", use: addPlan)
    }

    /// `GET /v1/shopping-list`: the list grouped by section (``ShoppingListExport/list(_:at:)``), as JSON or — as `Accept`
    /// asks, negotiated as a saved recipe's forms are — the share text (`text/plain`); 406 for anything else.
    @Sendable func show(request: Request, context: GatewayRequestContext) async throws -> Response {
        let session = try context.authenticatedSession
        let format = RecipeFormat.preferred(by: request.headers[values: .accept], offered: [.json, .text])
        guard let format else {
            throw APIError(.notAcceptable, .notAcceptable, "The shopping list is available as application/json or text/plain.")
        }
        let list = try await currentList(of: try await households.kitchen(of: session.userID))
        guard format == .text else { return try Response.json(list) }
        return Response(
            status: .ok,
            headers: [.contentType: "text/plain; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: ShoppingListExport.plainText(list)))
        )
    }

    /// `GET /v1/shopping-list/events` (docs/architecture.md, "Households"): server-sent events. A `list` event, the list
    /// as `GET /v1/shopping-list` answers it, when the stream opens and whenever the list changes, by any member on any
    /// gateway. An event's id names the list's state (``ShoppingListEvent``): a client reconnecting with
    /// `Last-Event-ID` gets the list only if it changed since. A comment every ``ShoppingListNews/recheckInterval``
    /// without news keeps idle proxies from closing the stream; the list is read then too, in case news was lost. The
    /// kitchen is resolved again on each reading, so that a member who leaves streams their own list from then on.
    /// The stream ends after ``streamLifetime``, and `EventSource` reconnects, showing the session again.
    @Sendable func events(request: Request, context: GatewayRequestContext) async throws -> Response {
        let session = try context.authenticatedSession
        let lastSeen = request.headers[.lastEventID]?.trimmingCharacters(in: .whitespaces)
        // Resolved before the 200, so that a store that is down is a 503 rather than a stream that ends at once.
        let opened = try await households.kitchen(of: session.userID)
        let ends = ContinuousClock.now + streamLifetime
        let (households, news) = (households, news)
        let body = ResponseBody { writer in
            var (kitchen, seen) = (opened, lastSeen)
            while ContinuousClock.now < ends {
                let moved = try await news.watching(kitchen.id) { watch -> Kitchen? in
                    while ContinuousClock.now < ends {
                        let event = ShoppingListEvent(kitchen: kitchen.id, list: try await currentList(of: kitchen))
                        if event.id != seen {
                            try await writer.write(event.buffer)
                            seen = event.id
                        }
                        let heard = await watch.next(within: min(ShoppingListNews.recheckInterval, ends - ContinuousClock.now))
                        try Task.checkCancellation()
                        if !heard { try await writer.write(ByteBuffer(string: ": still here\n\n")) }
                        let now = try await households.kitchen(of: session.userID)
                        if now.id != kitchen.id { return now }
                    }
                    return nil
                }
                guard let moved else { break }
                kitchen = moved
            }
            try await writer.finish(nil)
        }
        return Response(
            status: .ok,
            headers: [.contentType: "text/event-stream", .cacheControl: "no-cache", .xAccelBuffering: "no"],
            body: body
        )
    }

    /// `POST /v1/shopping-list/items`: `{"recipeId"}` (a saved recipe) or `{"scanId", "recipeId"}` (a recipe of a
    /// finished scan) adds the recipe's ingredients the pantry lacks, with how much to buy (what the recipe needs less
    /// what the pantry holds), staples never, and answers the recipe's
    /// `conflicts` with the profile as it is now (``TodaysProfileCheck``), for the client to warn before the shop;
    /// `{"name", "section"?}` adds one by hand. Either way 200 ``ShoppingListAddition``: the same answer for both, so
    /// a client reads one shape; an item whose key the list has gains the recipe instead of a copy, so the same add
    /// twice changes nothing.
    @Sendable func add(request: Request, context: GatewayRequestContext) async throws -> Response {
        let session = try context.authenticatedSession
        let items: [ShoppingListItem]
        var held: [String: Quantity] = [:]
        var conflicts: [RecipeConflict] = []
        let body = try await request.decodedBody(as: ShoppingListAddRequest.self, largest: Self.largestBody, example: #"{"name": "Milk"}"#)
        let kitchen = try await households.kitchen(of: session.userID)
        switch body {
        case .recipe(let recipeID, let scanID):
            let recipe = try await recipe(recipeID, scanID: scanID, in: kitchen)
            conflicts = try await profileCheck.checked(recipe, of: session.userID).conflicts
            (items, held) = try await neededIngredients(of: [(recipe, recipe.name)], in: kitchen)
        case .byHand(let name, let section):
            items = [Self.item(name, section: section ?? StoreSection(key: name.key), for: [], at: now())]
        }
        let added = try await store(items, holding: held, in: kitchen, context: context)
        await news.announcer.announce(kitchen.id)
        let list = try await currentList(of: kitchen)
        return try Response.json(ShoppingListAddition(added: added, list: list, conflicts: conflicts))
    }

    /// `POST /v1/plans/{id}/shopping-list` (docs/architecture.md, "Meal plans"): adds what the plan's meals need and the
    /// pantry lacks, as a recipe's add does, each ingredient summed across the meals in one unit and listing the meals it
    /// is for ("Leek risotto (2026-12-01 dinner)"); a box recipe is scaled to the plan's servings first. 200
    /// ``ShoppingListAddition``, with each recipe's `conflicts` with the profile as it is now. Every outlined meal's
    /// recipe must be written first (`POST /v1/plans/{id}/recipes`): 409 `scan_in_progress` otherwise, adding nothing; a
    /// withheld one adds nothing.
    @Sendable func addPlan(request: Request, context: GatewayRequestContext) async throws -> Response {
        let session = try context.authenticatedSession
        let id = try context.pathID(else: PlansController.notFound)
        let kitchen = try await households.kitchen(of: session.userID)
        let (plan, schedule) = try await plans.outlined(id, of: kitchen)
        let meals = schedule.filter { $0.outline != nil }
        let standing = try await mealRecipes.standing(meals, of: plan, in: kitchen, for: session.userID)
        guard meals.allSatisfy({ standing[$0.id].map { $0.status != PlanMealRecipes.writing } ?? false }) else {
            throw APIError(
                .conflict,
                .scanInProgress,
                "Not every meal's recipe is written yet: write them (POST /v1/plans/{id}/recipes), then ask again once each is ready."
            )
        }
        let servings = plan.request.servings
        var recipes: [(Recipe, String)] = []
        var conflicts: [RecipeConflict] = []
        for meal in meals {
            guard let shown = standing[meal.id], let recipe = shown.recipe else { continue }
            let label = "\(recipe.name) (\(meal.date) \(meal.meal.rawValue))"
            recipes.append((recipe.servings == servings ? recipe : RecipeScaler.scale(recipe, to: servings, units: nil) ?? recipe, label))
            conflicts += (shown.conflicts ?? []).map { conflict in
                var conflict = conflict
                conflict.reason = "\(label): \(conflict.reason)"
                return conflict
            }
        }
        let (items, held) = try await neededIngredients(of: recipes, in: kitchen)
        let added = try await store(items, holding: held, in: kitchen, context: context)
        await news.announcer.announce(kitchen.id)
        let list = try await currentList(of: kitchen)
        context.logger.info("plan added to the shopping list", metadata: ["planId": "\(id)", "meals": "\(recipes.count)"])
        return try Response.json(ShoppingListAddition(added: added, list: list, conflicts: conflicts))
    }

    /// `PATCH /v1/shopping-list/items/{id}` `{"checked": true|false}`: ticks the item off or on; 200 with the item.
    @Sendable func check(request: Request, context: GatewayRequestContext) async throws -> Response {
        let session = try context.authenticatedSession
        let id = try context.pathID(else: Self.notFound)
        let checked = try await request.decodedBody(as: ShoppingListCheckRequest.self, largest: Self.largestBody, example: #"{"checked": true}"#)
        let kitchen = try await households.kitchen(of: session.userID)
        guard let item = try await shoppingList.setChecked(id, checked.checked, of: kitchen) else { throw Self.notFound }
        await news.announcer.announce(kitchen.id)
        return try Response.json(item)
    }

    /// `DELETE /v1/shopping-list/items/{id}`: 204.
    @Sendable func delete(request: Request, context: GatewayRequestContext) async throws -> Response {
        let session = try context.authenticatedSession
        let id = try context.pathID(else: Self.notFound)
        let kitchen = try await households.kitchen(of: session.userID)
        guard try await shoppingList.delete([id], of: kitchen) == 1 else { throw Self.notFound }
        await news.announcer.announce(kitchen.id)
        context.logger.info("shopping list item deleted", metadata: ["shoppingListItemId": "\(id)"])
        return Response(status: .noContent)
    }

    /// `DELETE /v1/shopping-list`: 204, the list empty.
    @Sendable func clear(request: Request, context: GatewayRequestContext) async throws -> Response {
        let session = try context.authenticatedSession
        let kitchen = try await households.kitchen(of: session.userID)
        try await shoppingList.deleteAll(of: kitchen)
        await news.announcer.announce(kitchen.id)
        context.logger.info("shopping list cleared")
        return Response(status: .noContent)
    }

    /// `POST /v1/shopping-list/checked/pantry`: adds every ticked item to the pantry (by hand, in its section, seen
    /// now), all or none (400 `pantry_full` moves nothing), and only then takes those items off the list: 200
    /// `PantryItems`. An item new to the pantry takes the quantity bought, in metric units as a pantry keeps them; one
    /// the pantry holds keeps its own: added to it, the amount bought would count twice when a move stopped between
    /// its steps is run again. Stopped between the two steps, the items
    /// stay ticked on the list and are in the pantry; the retry finds them there again (the pantry merges by key) and
    /// takes them off.
    @Sendable func moveCheckedToPantry(request: Request, context: GatewayRequestContext) async throws -> Response {
        let session = try context.authenticatedSession
        let kitchen = try await households.kitchen(of: session.userID)
        let checked = try await shoppingList.items(of: kitchen).filter(\.checked)
        guard !checked.isEmpty else { return try Response.json(PantryItems(items: [])) }
        let addedAt = now()
        let held = Set(try await pantry.allItems(of: kitchen).map(\.key))
        let items = checked.map { item in
            var bought = PantryItem.new(name: (item.name, item.key), section: StoreSection(category: item.section), source: .manual, at: addedAt)
            if !held.contains(item.key), let quantity = Self.pantryQuantity(of: item) {
                (bought.quantity, bought.unit) = (quantity.amount, quantity.unit)
            }
            return bought
        }
        let moved = try await pantry.add(items, for: kitchen, metrics: metrics, context: context)
        let removed = try await shoppingList.delete(checked.map(\.id), of: kitchen)
        await news.announcer.announce(kitchen.id)
        context.logger.info("shopping list items moved to the pantry", metadata: ["count": "\(removed)"])
        return try Response.json(PantryItems(items: moved))
    }

    /// The kitchen's list as it is now, grouped, with what is left to buy estimated at its prices.
    private func currentList(of kitchen: Kitchen) async throws -> ShoppingList {
        ShoppingListExport.list(try await shoppingList.items(of: kitchen), at: try await kitchenPrices.priceList(of: kitchen))
    }

    /// What was bought of `item` as a pantry keeps it: metric, rounded, in one of ``QuantityUnit/pantryUnits``; nil
    /// when the item has no quantity.
    private static func pantryQuantity(of item: ShoppingListItem) -> Quantity? {
        guard let measure = item.measure else { return nil }
        let metric = RecipeScaler.rounded(RecipeScaler.convert(measure, to: .metric))
        return QuantityUnit.pantryUnits.contains(metric.unit) ? metric : nil
    }

    /// The recipe a request names: the kitchen's saved recipe, or with `scanID` one of the caller's finished scan's
    /// (404 and 409 `scan_in_progress` as `POST /v1/recipes`).
    private func recipe(_ recipeID: UUID, scanID: UUID?, in kitchen: Kitchen) async throws -> Recipe {
        if let scanID { return try await ledger.finishedRecipe(recipeID, ofScan: scanID, of: kitchen.member).recipe }
        guard let saved = try await recipes.recipe(recipeID, of: kitchen) else {
            throw APIError(.notFound, .notFound, "There is no such saved recipe.")
        }
        return saved.recipe
    }

    /// New items for the ingredients of `recipes` that are not staples: one per key, in the recipes' order, for what the
    /// recipes' lines of that key need together (``ShoppingQuantity``), each listing the labels of the recipes that need
    /// it; and what the pantry holds of those keys, for the
    /// store to take off (``ShoppingListStore/add(_:holding:for:capacity:)``). A key the pantry holds without an
    /// amount, or in one that cannot be compared with the need, is left out: the person has some. An ingredient whose
    /// name breaks a name rule is left out rather than refusing the rest, as a scan's are from the pantry.
    private func neededIngredients(
        of recipes: [(recipe: Recipe, label: String)],
        in kitchen: Kitchen
    ) async throws -> (items: [ShoppingListItem], held: [String: Quantity]) {
        let pantryItems = Dictionary(try await pantry.allItems(of: kitchen).map { ($0.key, $0) }) { first, _ in first }
        var needs: [(name: (text: String, key: String), quantities: [Quantity?], labels: [String])] = []
        for (recipe, label) in recipes {
            for ingredient in recipe.ingredients {
                guard let name = try? PantryItemFields.checkedName(ingredient.name, keyedBy: ingredient.canonicalName),
                    !PantryStaples.contains(key: name.key)
                else { continue }
                let quantity = ingredient.unit == .toTaste ? Quantity(1, .toTaste) : ingredient.amount.map { Quantity($0, ingredient.unit ?? .piece) }
                if let at = needs.firstIndex(where: { $0.name.key == name.key }) {
                    needs[at].quantities.append(quantity)
                    if !needs[at].labels.contains(label) { needs[at].labels.append(label) }
                } else {
                    needs.append((name, [quantity], [label]))
                }
            }
        }
        let addedAt = now()
        var held: [String: Quantity] = [:]
        let items = needs.compactMap { name, quantities, labels -> ShoppingListItem? in
            let needed = quantities.contains(nil) ? nil : ShoppingQuantity.sum(quantities.compactMap { $0 }, key: name.key)
            if let item = pantryItems[name.key] {
                guard let needed, let amount = item.quantity else { return nil }
                let have = Quantity(amount, item.unit ?? .piece)
                guard ShoppingQuantity.sum([needed, have], key: name.key) != nil else { return nil }
                held[name.key] = have
            }
            var item = Self.item(name, section: StoreSection(key: name.key), for: labels, at: addedAt)
            (item.quantity, item.unit) = (needed?.amount, needed?.unit)
            return item
        }
        return (items, held)
    }

    private static func item(_ name: (text: String, key: String), section: StoreSection, for recipes: [String], at now: Date) -> ShoppingListItem {
        ShoppingListItem(id: UUID(), name: name.text, key: name.key, section: section.rawValue, checked: false, forRecipes: recipes, addedAt: now)
    }

    /// Adds `items`, less what the pantry holds (`held`), all or none (400 `shopping_list_full`), counting the new ones.
    private func store(
        _ items: [ShoppingListItem],
        holding held: [String: Quantity],
        in kitchen: Kitchen,
        context: GatewayRequestContext
    ) async throws -> [ShoppingListItem] {
        switch try await shoppingList.add(items, holding: held, for: kitchen, capacity: Self.capacity) {
        case .added(let stored):
            let new = Set(items.map(\.id)).intersection(stored.map(\.id)).count
            metrics.shoppingListAdded(newItems: new)
            context.logger.info("shopping list items added", metadata: ["new": "\(new)", "found": "\(stored.count - new)"])
            return stored
        case .full:
            throw APIError(
                .badRequest,
                .shoppingListFull,
                "A shopping list holds at most \(Self.capacity) items, and these would take yours past it; nothing was added. Remove some first."
            )
        }
    }

    private static let notFound = APIError(.notFound, .notFound, "There is no such shopping list item.")
}

/// The body of `POST /v1/shopping-list/items`: a recipe (`{"recipeId"}` saved, `{"scanId", "recipeId"}` of a finished
/// scan) or one item typed by hand (`{"name", "section"?}`, the pantry's name rules; `section` one of the sections in
/// any case, else where the name's key is typically sold). Any other member, or a mix of the two, is 400.
enum ShoppingListAddRequest: Decodable {
    case recipe(UUID, scanID: UUID?)
    case byHand(name: (text: String, key: String), section: StoreSection?)

    init(from decoder: any Decoder) throws {
        let body = try decoder.container(keyedBy: BodyMember.self)
        try body.refuseMembers(otherThan: ["recipeId", "scanId", "name", "section"])
        switch (try body.id("recipeId"), body.has("name")) {
        case (let recipeID?, false):
            if body.has("section") {
                throw APIError.badRequest("section goes with name, not with recipeId: a recipe's ingredients are listed where they are sold.")
            }
            self = .recipe(recipeID, scanID: try body.id("scanId"))
        case (_?, true):
            throw APIError.badRequest(#"Send either recipeId or name, not both: {"recipeId": "…"} or {"name": "Milk"}."#)
        case (nil, true):
            if body.has("scanId") { throw APIError.badRequest("scanId goes with recipeId, to name one of the scan's recipes.") }
            let name = try PantryItemFields.checkedName(try body.value("name", else: PantryItemFields.nameNeeded)!)
            self = .byHand(name: name, section: try body.section("section"))
        case (nil, false):
            throw APIError.badRequest(#"Send recipeId (and scanId for a scan's recipe) or name: {"recipeId": "…"} or {"name": "Milk"}."#)
        }
    }
}

/// The body of `PATCH /v1/shopping-list/items/{id}`: `{"checked": true|false}`.
struct ShoppingListCheckRequest: Decodable {
    var checked: Bool

    init(from decoder: any Decoder) throws {
        let body = try decoder.container(keyedBy: BodyMember.self)
        try body.refuseMembers(otherThan: ["checked"])
        let rule = APIError.badRequest(#"checked must be true or false: {"checked": true}."#)
        guard let checked: Bool = try body.value("checked", else: rule) else { throw rule }
        self.checked = checked
    }
}
