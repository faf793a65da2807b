import Foundation
import HTTPTypes
import Hummingbird
import KiwiFood
import KiwiModels
import KiwiScans
import KiwiServiceSupport
import Logging
import NIOCore

/// The recipe box (`/v1/recipes`): a user keeps a recipe out of one of their scans, finds it again by name or
/// ingredient, notes and rates it, takes it to another app as schema.org JSON-LD or shares it as text, and deletes
/// it; `?cookable=true` ranks the recipes by what the pantry holds. Every recipe answered as JSON is checked against
/// the user's profile as it is now (``TodaysProfileCheck``). Another user's recipe is 404, like one that never was.
struct RecipesController: Sendable {
    let recipes: any SavedRecipeStore
    /// Whose kitchen's box a request works on: the household's, or the person's own.
    let households: any HouseholdStore
    let ledger: any ScanLedger
    /// What the user has at home, for `?cookable=true`.
    let pantry: any PantryStore
    let profileCheck: TodaysProfileCheck
    /// What every recipe shown is costed at.
    let kitchenPrices: KitchenPrices
    /// The base of the share links (`PUBLIC_BASE_URL`).
    let publicBaseURL: URL
    /// The time whose UTC day the pantry's ranking counts use-soon dates from (``GatewayDependencies/now``).
    let now: @Sendable () -> Date

    /// How many recipes one user may keep.
    static let capacity = 500
    /// The longest note, in characters (Unicode scalars, as JSON Schema's `maxLength` counts them).
    static let longestNote = 1000
    /// The longest `?q=`, in characters (Unicode scalars), surrounding spaces included.
    static let longestQuery = 100
    /// The largest body read: a note of ``longestNote`` characters, escaped, with room to spare.
    static let largestBody = 64 * 1024

    func addRoutes(to group: RouterGroup<GatewayRequestContext>) {
        group.post("recipes", use: save)
        group.get("recipes", use: list)
        group.get("recipes/:id", use: show)
        group.patch("recipes/:id", use: update)
        group.delete("recipes/:id", use: delete)
        group.post("recipes/:id/share", use: share)
        group.delete("recipes/:id/share", use: unshare)
    }

    /// `POST /v1/recipes` `{"scanId", "recipeId"}`: 201 with the saved recipe and its `Location`; 200 with the earlier
    /// copy when this recipe of this scan was saved before; 404 when the scan is gone or has no such recipe; 409
    /// while the scan is still open, or when the box is full.
    @Sendable func save(request: Request, context: GatewayRequestContext) async throws -> Response {
        let session = try context.authenticatedSession
        let asked = try await request.decodedBody(
            as: SaveRecipeRequest.self,
            largest: Self.largestBody,
            example: #"{"scanId": "…", "recipeId": "…"}"#
        )
        let (scan, result, recipe) = try await ledger.finishedRecipe(asked.recipeId, ofScan: asked.scanId, of: session.userID)
        let detected = Set(recipe.ingredients.filter(\.isDetected).map { $0.name.lowercased() })
        let copy = SavedRecipe(
            id: UUID(),
            scanId: scan.id,
            savedAt: Date(),
            recipe: recipe,
            detectedIngredients: result.ingredients.filter { detected.contains($0.name.lowercased()) },
            note: nil,
            rating: nil
        )
        let kitchen = try await households.kitchen(of: session.userID)
        switch try await recipes.save(copy, for: kitchen, capacity: Self.capacity) {
        case .saved(let saved):
            context.logger.info("recipe saved", metadata: ["savedRecipeId": "\(saved.id)"])
            let shown = try await self.shown(saved, of: session.userID, in: kitchen)
            return try Response.json(shown, status: .created, headers: [.location: Self.location(of: saved)])
        case .alreadySaved(let saved):
            return try Response.json(try await shown(saved, of: session.userID, in: kitchen), headers: [.location: Self.location(of: saved)])
        case .full:
            throw APIError(
                .conflict,
                .recipeBoxFull,
                "You keep \(Self.capacity) recipes, as many as Kiwi holds; delete some to save new ones."
            )
        }
    }

    /// `GET /v1/recipes?limit=&cursor=&q=&cookable=&sort=`: the user's saved recipes, newest first, a page at a time;
    /// with `q`, only those whose name or ingredients contain it (case-insensitively). `cookable=true` ranks them by
    /// what the pantry holds instead (``cookable(in:matching:order:page:)``), in the `sort` order asked
    /// (``PantryCoverage/Order``, `coverage` unless given); `cookable=false`, like none, is the plain list, which has no
    /// other order. Anything else is a 400: spelled exactly as a JSON boolean, like the API's other booleans.
    @Sendable func list(request: Request, context: GatewayRequestContext) async throws -> Response {
        let session = try context.authenticatedSession
        let query = request.uri.queryParameters
        let cookable = try query.flag("cookable")
        var order = PantryCoverage.Order.coverage
        if let asked = query["sort"] {
            guard cookable else { throw APIError.badRequest("sort orders the cookable list: send cookable=true with it.") }
            guard let chosen = PantryCoverage.Order(rawValue: String(asked)) else {
                throw APIError.badRequest("sort must be \(PantryCoverage.Order.allCases.map(\.rawValue).joined(separator: " or ")).")
            }
            order = chosen
        }
        let page = try PageRequest(query)
        if let asked = query["q"], asked.unicodeScalars.count > Self.longestQuery {
            throw APIError.badRequest("q may be at most \(Self.longestQuery) characters.")
        }
        let search = query["q"].map { String($0).trimmingCharacters(in: .whitespacesAndNewlines) }.flatMap { $0.isEmpty ? nil : $0 }
        let kitchen = try await households.kitchen(of: session.userID)
        if cookable { return try Response.json(try await self.cookable(in: kitchen, matching: search, order: order, page: page)) }
        let found = try await recipes.recipes(of: kitchen, matching: search, after: page.cursor, limit: page.limit)
        let shown = try await self.shown(found.recipes, of: session.userID, in: kitchen)
        return try Response.json(SavedRecipeList(recipes: shown, nextCursor: found.next?.token))
    }

    /// A page of the kitchen's recipes that match `search` and fit the table's profiles as they are now (none with a conflict),
    /// ranked by ``PantryCoverage`` in `order` against their whole pantry on today's UTC day. The box holds at most ``capacity``
    /// recipes and the pantry its capacity of items, so both are read whole and ranked in memory.
    ///
    /// The cursor keeps the PageCursor form, `<offset>.<id>`: the offset into the ranking where the next page starts,
    /// and the id of the recipe before it. The next page starts after that recipe where it is in the ranking now, so
    /// that a recipe saved or deleted between pages shifts nothing. When that recipe is gone (most likely deleted by
    /// the person reading the page), what followed it has moved up one place: the page starts at offset − 1. A
    /// ranking is of one moment: when the pantry changes between pages, a recipe may move past the cursor and be
    /// answered twice, or not at all.
    private func cookable(
        in kitchen: Kitchen,
        matching search: String?,
        order: PantryCoverage.Order,
        page: PageRequest
    ) async throws
        -> CookableRecipeList
    {
        var saved: [SavedRecipe] = []
        var cursor: PageCursor?
        repeat {
            let found = try await recipes.recipes(of: kitchen, matching: search, after: cursor, limit: PageRequest.largest)
            saved += found.recipes
            cursor = found.next
        } while cursor != nil
        let fitting = try await profileCheck.checked(saved, of: kitchen.member).filter(\.conflicts.isEmpty)
        let items = try await pantry.allItems(of: kitchen)
        let prices = try await kitchenPrices.priceList(of: kitchen)
        let ranking = PantryCoverage.ranked(fitting, pantry: items, today: CalendarDay(utc: now()), order: order).map { ranked in
            var costed = ranked
            costed.saved.recipe.cost = prices.cost(of: ranked.saved.recipe)
            return costed
        }
        let start =
            page.cursor.map { asked in
                ranking.firstIndex { $0.saved.id == asked.id }.map { $0 + 1 } ?? min(max(Int(asked.createdAtMicroseconds) - 1, 0), ranking.count)
            } ?? 0
        let end = min(start + page.limit, ranking.count)
        let next = end < ranking.count ? PageCursor(createdAtMicroseconds: Int64(end), id: ranking[end - 1].saved.id) : nil
        return CookableRecipeList(recipes: Array(ranking[start..<end]), nextCursor: next?.token)
    }

    /// `GET /v1/recipes/{id}?servings=&units=`: the saved recipe as the API's JSON, checked against the profile as it
    /// is now, or — as `Accept` asks — schema.org/Recipe JSON-LD (`application/ld+json`) or a short text for sharing
    /// (`text/plain`), both for other people and apps, so without the owner's conflicts; in every form scaled to
    /// `servings` and converted to `units` when asked (``RecipeScaling``), else to the units of the reader's profile.
    @Sendable func show(request: Request, context: GatewayRequestContext) async throws -> Response {
        let scaling = try RecipeScaling(request)
        let (own, kitchen) = try await ownRecipe(context)
        let profileUnits = scaling.units == nil ? try await profileCheck.units(of: try context.authenticatedSession.userID) : nil
        let saved = try scaling.apply(to: own, profileUnits: profileUnits)
        switch RecipeFormat.preferred(by: request.headers[values: .accept]) {
        case .json:
            return try Response.json(try await shown(saved, of: try context.authenticatedSession.userID, in: kitchen))
        case .jsonLD:
            return Response(
                status: .ok,
                headers: [.contentType: "application/ld+json; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: try RecipeExport.jsonLD(saved)))
            )
        case .text:
            return Response(
                status: .ok,
                headers: [.contentType: "text/plain; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: RecipeExport.plainText(saved)))
            )
        case nil:
            throw APIError(
                .notAcceptable,
                .notAcceptable,
                "A saved recipe is available as application/json, application/ld+json or text/plain."
            )
        }
    }

    /// `PATCH /v1/recipes/{id}` `{"note": …, "rating": …}`: sets the user's note (up to ``longestNote`` characters)
    /// and rating (1 to 5); `null` clears one, a key left out keeps it. Answers the saved recipe as it is now.
    @Sendable func update(request: Request, context: GatewayRequestContext) async throws -> Response {
        let session = try context.authenticatedSession
        let id = try context.pathID(else: Self.notFound)
        let patch = try await request.decodedBody(as: SavedRecipePatch.self, largest: Self.largestBody, example: #"{"note": "…", "rating": 4}"#)
        if case .set(let note) = patch.changes.note, note.unicodeScalars.count > Self.longestNote {
            throw APIError.badRequest("note may be at most \(Self.longestNote) characters.")
        }
        if case .set(let rating) = patch.changes.rating, !(1...5).contains(rating) {
            throw SavedRecipePatch.ratingRule
        }
        let kitchen = try await households.kitchen(of: session.userID)
        guard let updated = try await recipes.update(id, of: kitchen, patch.changes) else { throw Self.notFound }
        return try Response.json(try await shown(updated, of: session.userID, in: kitchen))
    }

    /// `DELETE /v1/recipes/{id}`: 204.
    @Sendable func delete(request: Request, context: GatewayRequestContext) async throws -> Response {
        let session = try context.authenticatedSession
        let id = try context.pathID(else: Self.notFound)
        guard try await recipes.delete(id, of: try await households.kitchen(of: session.userID)) else { throw Self.notFound }
        context.logger.info("saved recipe deleted", metadata: ["savedRecipeId": "\(id)"])
        return Response(status: .noContent)
    }

    /// `POST /v1/recipes/{id}/share`: 201 with the link of the recipe's new public page, or 200 with the link it
    /// has already. The token in the link is 256 random bits.
    @Sendable func share(request: Request, context: GatewayRequestContext) async throws -> Response {
        let session = try context.authenticatedSession
        let id = try context.pathID(else: Self.notFound)
        let token = SharePageController.newToken()
        guard let share = try await recipes.share(id, of: try await households.kitchen(of: session.userID), token: token) else { throw Self.notFound }
        let link = share.link(at: publicBaseURL)
        if share.token == token { context.logger.info("saved recipe shared", metadata: ["savedRecipeId": "\(id)"]) }
        return try Response.json(link, status: share.token == token ? .created : .ok)
    }

    /// `DELETE /v1/recipes/{id}/share`: 204; the page is gone at once, on every gateway (each page view reads the
    /// database). Unsharing a recipe that is not shared is 204 too.
    @Sendable func unshare(request: Request, context: GatewayRequestContext) async throws -> Response {
        let session = try context.authenticatedSession
        let id = try context.pathID(else: Self.notFound)
        guard try await recipes.unshare(id, of: try await households.kitchen(of: session.userID)) else { throw Self.notFound }
        return Response(status: .noContent)
    }

    private static let notFound = APIError(.notFound, .notFound, "There is no such saved recipe.")

    private static func location(of recipe: SavedRecipe) -> String {
        "/v1/recipes/\(recipe.id.uuidString.lowercased())"
    }

    /// The saved recipe of the caller's kitchen named in the path; 404 for anything else.
    private func ownRecipe(_ context: GatewayRequestContext) async throws -> (recipe: SavedRecipe, kitchen: Kitchen) {
        let session = try context.authenticatedSession
        let id = try context.pathID(else: Self.notFound)
        let kitchen = try await households.kitchen(of: session.userID)
        guard let recipe = try await recipes.recipe(id, of: kitchen) else { throw Self.notFound }
        return (recipe, kitchen)
    }

    /// Saved recipes as the box shows them to `userID`: checked against their table's profile as it is now
    /// (``TodaysProfileCheck``), each with what it costs at the kitchen's pantry prices now (``RecipeCosting``, the pantry
    /// read once); never stored.
    private func shown(_ saved: [SavedRecipe], of userID: UUID, in kitchen: Kitchen) async throws -> [SavedRecipe] {
        let checked = try await profileCheck.checked(saved, of: userID)
        guard !checked.isEmpty else { return [] }
        let prices = try await kitchenPrices.priceList(of: kitchen)
        return checked.map { recipe in
            var shown = recipe
            shown.recipe.cost = prices.cost(of: recipe.recipe)
            return shown
        }
    }

    /// One saved recipe as ``shown(_:of:in:)-([SavedRecipe],_,_)`` shows it.
    private func shown(_ saved: SavedRecipe, of userID: UUID, in kitchen: Kitchen) async throws -> SavedRecipe {
        try await shown([saved], of: userID, in: kitchen)[0]
    }
}

/// The forms `GET /v1/recipes/{id}` answers in.
enum RecipeFormat: Sendable, Hashable {
    case json
    case jsonLD
    case text

    /// The form `Accept` prefers of those `offered` (RFC 9110 §12.5.1: the highest `q`, the first among equals; `*/*`,
    /// `application/*` and no `Accept` at all mean JSON); nil when it accepts none of them. A shopping list offers no
    /// JSON-LD: `offered` keeps a range of a form it lacks from hiding a lower-`q` one it has.
    static func preferred(by accept: [String], offered: Set<RecipeFormat> = [.json, .jsonLD, .text]) -> RecipeFormat? {
        let ranges = accept.flatMap { $0.split(separator: ",") }.map { String($0).trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard !ranges.isEmpty else { return .json }
        var best: (format: RecipeFormat, quality: Double)?
        for range in ranges {
            let parts = range.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            let quality = parts.dropFirst().first { $0.lowercased().hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            let format: RecipeFormat? =
                switch parts[0].lowercased() {
                case "application/json", "application/*", "*/*": .json
                case "application/ld+json": .jsonLD
                case "text/plain", "text/*": .text
                default: nil
                }
            if let format, offered.contains(format), quality > 0, quality > (best?.quality ?? 0) { best = (format, quality) }
        }
        return best?.format
    }
}

/// The body of `PATCH /v1/recipes/{id}`, read as a JSON merge patch: a key left out keeps its field, `null` clears
/// it, and a key other than `note` and `rating` is refused.
struct SavedRecipePatch: Decodable {
    var changes = SavedRecipeChanges()

    init(from decoder: any Decoder) throws {
        let body = try decoder.container(keyedBy: BodyMember.self)
        try body.refuseMembers(otherThan: ["note", "rating"])
        changes.note = try body.change("note", else: APIError.badRequest("note must be a string, or null to clear it."))
        changes.rating = try body.change("rating", else: Self.ratingRule)
    }

    static let ratingRule = APIError.badRequest("rating must be a whole number from 1 to 5, or null to clear it.")
}
