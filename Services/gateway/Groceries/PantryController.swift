import Foundation
import HTTPTypes
import Hummingbird
import KiwiDietGuard
import KiwiFood
import KiwiModels
import KiwiScans
import KiwiServiceSupport
import Logging

/// The pantry (`/v1/pantry`): what the person has at home, filled from a scan's confirmed ingredients or by hand,
/// merged by ``IngredientKey`` so that "Tomatoes" and "tomato" are one item, listed soonest use-soon date first. Another
/// user's item is 404, like one that never was. Every rule of a request body is checked before anything is stored,
/// and an add is all or nothing.
struct PantryController: Sendable {
    let pantry: any PantryStore
    /// Whose kitchen's pantry a request works on: the household's, or the person's own.
    let households: any HouseholdStore
    /// Whose currency the first receipt sets.
    let profiles: any ProfileStore
    let ledger: any ScanLedger
    /// Told when a receipt prices food, so that shopping list streams show the new estimate at once.
    let listNews: ShoppingListNews
    let metrics: GatewayMetrics
    /// The time of an add and the UTC day a best-before date is bounded from (``GatewayDependencies/now``).
    let now: @Sendable () -> Date

    /// How many items one pantry may hold.
    static let capacity = 500
    /// The largest body read, as the recipe box's.
    static let largestBody = 64 * 1024

    func addRoutes(to group: RouterGroup<GatewayRequestContext>) {
        group.get("pantry", use: list)
        group.delete("pantry", use: clear)
        group.post("pantry/items", use: add)
        group.get("pantry/items/:id", use: show)
        group.patch("pantry/items/:id", use: update)
        group.delete("pantry/items/:id", use: delete)
    }

    /// `GET /v1/pantry?limit=&cursor=&useSoon=`: soonest `useSoonBy` first, food that keeps last, then by id; paged as
    /// the other lists, the cursor's number being the item's use-soon day in microseconds
    /// (``PantryPage/sortMicroseconds(of:)``). `useSoon=N` keeps only what is to be used within N days of today's UTC
    /// day, those past their day included: in this order they are the list's first items, so one more item than the
    /// page holds is read, to know whether any of them is left for a next page.
    @Sendable func list(request: Request, context: GatewayRequestContext) async throws -> Response {
        let session = try context.authenticatedSession
        let query = request.uri.queryParameters
        let page = try PageRequest(query)
        let useSoon = try query.wholeNumber("useSoon", in: 0...Self.longestUseSoon)
        let kitchen = try await households.kitchen(of: session.userID)
        guard let useSoon else {
            let found = try await pantry.items(of: kitchen, after: page.cursor, limit: page.limit)
            return try Response.json(PantryList(items: found.items, nextCursor: found.next?.token))
        }
        let last = CalendarDay(utc: now()).adding(days: useSoon)
        let due = try await pantry.items(of: kitchen, after: page.cursor, limit: page.limit + 1).items.prefix { item in
            item.useSoonBy.map { $0 <= last } ?? false
        }
        let items = Array(due.prefix(page.limit))
        let next = due.count > page.limit ? items.last.map { PageCursor(createdAtMicroseconds: PantryPage.sortMicroseconds(of: $0), id: $0.id) } : nil
        return try Response.json(PantryList(items: items, nextCursor: next?.token))
    }

    /// The most days `useSoon` may look ahead.
    static let longestUseSoon = 365

    /// `POST /v1/pantry/items?again=`: `{"scanId"}` adds a finished scan's ingredients, or a receipt scan's food lines
    /// (with `lines`, some of them; `again=true` even when another scan of the same receipt was added) (200
    /// `PantryItems`); `{"name", …}` adds one item by hand (201 with its `Location`, or 200 with the item its key found
    /// again). Members other than `scanId` (with `lines`), or `name` with `quantity`, `unit`, `bestBefore` and
    /// `category`, are 400.
    @Sendable func add(request: Request, context: GatewayRequestContext) async throws -> Response {
        let session = try context.authenticatedSession
        let again = try request.uri.queryParameters.flag("again")
        let body = try await request.decodedBody(as: PantryAddRequest.self, largest: Self.largestBody, example: PantryItemFields.example)
        let kitchen = try await households.kitchen(of: session.userID)
        switch body {
        case .scan(let id, let lines): return try await addScan(id, lines: lines, again: again, to: kitchen, context: context)
        case .byHand(let fields): return try await addByHand(fields, to: kitchen, context: context)
        }
    }

    /// `GET /v1/pantry/items/{id}`: the item the `Location` of its add names.
    @Sendable func show(request: Request, context: GatewayRequestContext) async throws -> Response {
        let session = try context.authenticatedSession
        let id = try context.pathID(else: Self.notFound)
        guard let item = try await pantry.item(id, of: try await households.kitchen(of: session.userID)) else { throw Self.notFound }
        return try Response.json(item)
    }

    /// `PATCH /v1/pantry/items/{id}`, a JSON merge patch of `name`, `quantity`, `unit`, `bestBefore` and `category`:
    /// `null` clears `quantity` (and its unit with it), `unit` or `bestBefore`; `name` and `category` cannot be cleared.
    /// A new name gives the item its key, keeping its category unless one is sent; the use-soon date is worked out
    /// again. 409 `pantry_item_exists` when another item has the new key. The last write wins.
    @Sendable func update(request: Request, context: GatewayRequestContext) async throws -> Response {
        let session = try context.authenticatedSession
        let id = try context.pathID(else: Self.notFound)
        let fields = try await request.decodedBody(as: PantryItemFields.self, largest: Self.largestBody, example: PantryItemFields.example)
        let bestBefore = try fields.checkedBestBefore(today: CalendarDay(utc: now()))
        let kitchen = try await households.kitchen(of: session.userID)
        guard var item = try await pantry.item(id, of: kitchen) else { throw Self.notFound }
        if let name = fields.name { (item.name, item.key) = (name.text, name.key) }
        if let section = fields.section { item.category = section.rawValue }
        item.quantity = fields.quantity.applied(to: item.quantity)
        // A unit says what the quantity counts: clearing the quantity clears its unit, unless a unit is sent too.
        item.unit = fields.quantity == .clear && fields.unit == .keep ? nil : fields.unit.applied(to: item.unit)
        guard item.unit == nil || item.quantity != nil else { throw PantryItemFields.unitWithoutQuantity }
        item.bestBefore = bestBefore.applied(to: item.bestBefore)
        item.workOutUseSoon()
        switch try await pantry.replace(item, of: kitchen) {
        case .replaced(let replaced):
            return try Response.json(replaced)
        case .notFound:
            throw Self.notFound
        case .keyTaken:
            throw APIError(
                .conflict,
                .pantryItemExists,
                "Your pantry has another item called \(item.key); change that one, or delete it first."
            )
        }
    }

    /// `DELETE /v1/pantry/items/{id}`: 204.
    @Sendable func delete(request: Request, context: GatewayRequestContext) async throws -> Response {
        let session = try context.authenticatedSession
        let id = try context.pathID(else: Self.notFound)
        guard try await pantry.delete(id, of: try await households.kitchen(of: session.userID)) else { throw Self.notFound }
        context.logger.info("pantry item deleted", metadata: ["pantryItemId": "\(id)"])
        return Response(status: .noContent)
    }

    /// `DELETE /v1/pantry`: 204, the pantry empty.
    @Sendable func clear(request: Request, context: GatewayRequestContext) async throws -> Response {
        let session = try context.authenticatedSession
        try await pantry.deleteAll(of: try await households.kitchen(of: session.userID))
        context.logger.info("pantry cleared")
        return Response(status: .noContent)
    }

    /// Adds the ingredients of the caller's finished scan (a refinement's are its confirmed list), the first of each
    /// key only, or a receipt scan's food lines (``addReceipt(_:of:lines:again:to:context:)``). An ingredient whose
    /// name breaks a name rule is left out rather than refusing the rest.
    private func addScan(_ scanID: UUID, lines: [UUID]?, again: Bool, to kitchen: Kitchen, context: GatewayRequestContext) async throws -> Response {
        let scan = try await ledger.finishedScan(scanID, of: kitchen.member, use: "add its ingredients")
        if let receipt = scan.result?.receipt {
            return try await addReceipt(receipt, of: scan, lines: lines, again: again, to: kitchen, context: context)
        }
        guard lines == nil else {
            throw APIError.badRequest(
                "lines picks lines of a receipt scan's receipt; this scan has none (it is not a receipt's, or its result is no longer kept)."
            )
        }
        let addedAt = now()
        var keys: Set<String> = []
        let items = (scan.result.flatMap { $0.mode == .dish ? nil : $0.ingredients } ?? []).compactMap { ingredient -> PantryItem? in
            guard let name = try? PantryItemFields.checkedName(ingredient.name, keyedBy: ingredient.canonicalName), keys.insert(name.key).inserted
            else { return nil }
            return PantryItem.new(name: name, section: StoreSection(category: ingredient.category), source: .scan, scanId: scanID, at: addedAt)
        }
        guard !items.isEmpty else {
            throw APIError(
                .conflict,
                .scanHasNoIngredients,
                "The scan has no ingredients to add: it failed, it was of a dish, or it found none."
            )
        }
        let added = try await pantry.add(items, for: kitchen, metrics: metrics, context: context)
        return try Response.json(PantryItems(items: added))
    }

    /// Adds a receipt's food lines (docs/architecture.md, "Receipts in the pantry"): what was bought adds to what the
    /// pantry holds, and its use-soon date is estimated from the day of the purchase. The receipt's currency becomes
    /// the person's profile's, if it names none. Its prices change the shopping list's estimate: the list's streams hear.
    private func addReceipt(
        _ receipt: ReceiptAnswer,
        of scan: ScanRecord,
        lines: [UUID]?,
        again: Bool,
        to kitchen: Kitchen,
        context: GatewayRequestContext
    ) async throws -> Response {
        let addedAt = now()
        let day = PantryPurchases.purchaseDay(of: receipt, today: CalendarDay(utc: addedAt))
        let purchases = try PantryPurchases.purchases(of: receipt, scanID: scan.id, picked: lines, boughtOn: day, at: addedAt)
        guard !purchases.isEmpty else {
            throw APIError(.conflict, .scanHasNoIngredients, "The receipt has no food lines to add to the pantry: nothing was added.")
        }
        let addition = ReceiptAddition(scanID: scan.id, fingerprint: PantryPurchases.fingerprint(of: receipt), again: again)
        let added = try await pantry.addPurchases(purchases, from: addition, for: kitchen, metrics: metrics, context: context)
        // The first receipt a person adds says what they pay in, unless they chose: costs are counted in it. A retry
        // after a failure here adds nothing twice, and sets it then.
        try await profiles.adoptCurrency(receipt.currency, for: kitchen.member)
        await listNews.announcer.announce(kitchen.id)
        return try Response.json(PantryItems(items: added))
    }

    private func addByHand(_ fields: PantryItemFields, to kitchen: Kitchen, context: GatewayRequestContext) async throws -> Response {
        guard let name = fields.name else { throw PantryItemFields.nameNeeded }
        let (quantity, unit) = (fields.quantity.applied(to: nil), fields.unit.applied(to: nil))
        guard unit == nil || quantity != nil else { throw PantryItemFields.unitWithoutQuantity }
        let addedAt = now()
        let bestBefore = try fields.checkedBestBefore(today: CalendarDay(utc: addedAt))
        let item = PantryItem.new(
            name: name,
            section: fields.section ?? StoreSection(key: name.key),
            quantity: quantity,
            unit: unit,
            bestBefore: bestBefore.applied(to: nil),
            source: .manual,
            at: addedAt
        )
        let stored = try await pantry.add([item], for: kitchen, metrics: metrics, context: context)[0]
        return try Response.json(
            stored,
            status: stored.id == item.id ? .created : .ok,
            headers: [.location: "/v1/pantry/items/\(stored.id.uuidString.lowercased())"]
        )
    }

    private static let notFound = APIError(.notFound, .notFound, "There is no such pantry item.")
}

/// The body of `POST /v1/pantry/items`: a finished scan's ingredients (`{"scanId"}`, with `lines` some of a receipt's
/// lines), or one item typed by hand (`{"name", …}`, ``PantryItemFields``). Any other member, or a mix of the two, is 400.
enum PantryAddRequest: Decodable {
    case scan(UUID, lines: [UUID]?)
    case byHand(PantryItemFields)

    /// The most lines one add may pick: a receipt's.
    static let mostLines = ReceiptAnswerContract.lineCount.upperBound
    private static let linesRule = APIError.badRequest("lines must be a list of 1 to \(mostLines) line ids of the scan's receipt.")

    init(from decoder: any Decoder) throws {
        let body = try decoder.container(keyedBy: BodyMember.self)
        try body.refuseMembers(otherThan: ["scanId", "lines"] + PantryItemFields.members)
        switch (try body.id("scanId"), body.has("name")) {
        case (let scanID?, false):
            // The item's other members describe one item typed by hand: with a scan they would say nothing.
            if let member = body.allKeys.first(where: { !["scanId", "lines"].contains($0.stringValue) }) {
                throw APIError.badRequest("\(member.stringValue) goes with name, not with scanId: a scan's ingredients are added as they are.")
            }
            let lines: [UUID]? = try body.value("lines", else: Self.linesRule)
            if let lines, !(1...Self.mostLines).contains(lines.count) { throw Self.linesRule }
            self = .scan(scanID, lines: lines)
        case (_?, true):
            throw APIError.badRequest(#"Send either scanId or name, not both: {"scanId": "…"} or {"name": "Tomatoes"}."#)
        case (nil, true):
            self = .byHand(try PantryItemFields(from: decoder))
        case (nil, false):
            throw APIError.badRequest(#"Send scanId or name: {"scanId": "…"} or {"name": "Tomatoes", "quantity": 4}."#)
        }
    }
}

/// The members of a pantry item a request sets (`name`, `quantity`, `unit`, `bestBefore`, `category`), each checked
/// by its rule (docs/architecture.md, "The pantry and the shopping list"). A member left out is `.keep`; `null` is
/// `.clear`, which `name` and `category` refuse; any other member is 400.
struct PantryItemFields: Decodable {
    static let members = ["name", "quantity", "unit", "bestBefore", "category"]
    /// The body the messages of a body that is not JSON show.
    static let example = #"{"name": "Tomatoes", "quantity": 4}"#
    /// The longest name, in Unicode scalars once trimmed (as JSON Schema's `maxLength` counts), as the model's
    /// ingredient names.
    static let longestName = 100
    /// The largest quantity: more than any kitchen holds in any unit, small enough to catch a typo.
    static let largestQuantity = 100_000.0
    /// How far ahead a best-before date may be: 5 years, leap days included.
    static let furthestBestBeforeDays = 1827

    var name: (text: String, key: String)?
    var quantity: FieldChange<Double> = .keep
    var unit: FieldChange<QuantityUnit> = .keep
    var bestBefore: FieldChange<CalendarDay> = .keep
    var section: StoreSection?

    static let unitWithoutQuantity = APIError.badRequest("unit says what quantity counts: send a quantity with it.")
    static let nameNeeded = APIError.badRequest("name must be a string such as \"Tomatoes\".")
    static let unknownUnit = APIError.badRequest("unit must be one of \(QuantityUnit.pantryUnits.map(\.rawValue).joined(separator: ", ")), or null.")
    private static let quantityRule = APIError.badRequest("quantity must be a number greater than 0 and at most 100000, or null.")
    private static let dateForm = APIError.badRequest("bestBefore must be a date written yyyy-MM-dd, or null.")

    /// `number` as a pantry's quantity: greater than 0 and at most ``largestQuantity``; else throws `rule`.
    static func checkedQuantity(_ number: Double, else rule: APIError) throws -> Double {
        guard number > 0 && number <= largestQuantity else { throw rule }
        return number
    }

    /// The pantry unit named `text` (``QuantityUnit/pantryUnits``); else throws `rule`.
    static func checkedUnit(_ text: String, else rule: APIError) throws -> QuantityUnit {
        guard let known = QuantityUnit(rawValue: text), QuantityUnit.pantryUnits.contains(known) else { throw rule }
        return known
    }

    /// Reads and checks each member; a best-before date's bounds are ``checkedBestBefore(today:)``'s.
    init(from decoder: any Decoder) throws {
        let body = try decoder.container(keyedBy: BodyMember.self)
        try body.refuseMembers(otherThan: Self.members)
        if let text: String = try body.value("name", else: Self.nameNeeded) { name = try Self.checkedName(text) }
        quantity = try (body.change("quantity", else: Self.quantityRule) as FieldChange<Double>).map {
            try Self.checkedQuantity($0, else: Self.quantityRule)
        }
        unit = try (body.change("unit", else: Self.unknownUnit) as FieldChange<String>).map { try Self.checkedUnit($0, else: Self.unknownUnit) }
        bestBefore = try (body.change("bestBefore", else: Self.dateForm) as FieldChange<String>).map { text in
            guard let day = CalendarDay(text) else { throw Self.dateForm }
            return day
        }
        section = try body.section("category")
    }

    /// The best-before change sent, a 400 unless its date is from yesterday (it is still yesterday for a person west of
    /// UTC) to ``furthestBestBeforeDays`` after `today`, the request's UTC day.
    func checkedBestBefore(today: CalendarDay) throws -> FieldChange<CalendarDay> {
        try bestBefore.map { day in
            let (earliest, latest) = (today.adding(days: -1), today.adding(days: Self.furthestBestBeforeDays))
            guard day >= earliest, day <= latest else {
                throw APIError.badRequest("bestBefore must be from \(earliest) to \(latest) (5 years ahead); \(day) is not.")
            }
            return day
        }
    }

    /// `text` trimmed of surrounding white space, with its key; a 400 naming the rule it breaks: 1 to ``longestName``
    /// characters, none of them control characters or line breaks, and a letter or digit to make a key of. Food an
    /// answer also named in plain English (``EnglishNamed``) is keyed by `englishName`, so that "Tomaten" and "tomatoes"
    /// are one item; by its text when that name makes no key.
    static func checkedName(_ text: String, keyedBy englishName: String? = nil) throws -> (text: String, key: String) {
        let trimmed: String
        switch TypedName.trimmed(text, lengths: 1...longestName) {
        case .success(let name): trimmed = name
        case .failure(.length): throw APIError.badRequest("name must be 1 to \(longestName) characters once trimmed of surrounding spaces.")
        case .failure(.lineBreakOrControl): throw APIError.badRequest("name must not hold control characters such as line breaks.")
        }
        let key =
            englishName.map(IngredientKey.of).flatMap { $0.isEmpty || $0.unicodeScalars.count > 2 * longestName ? nil : $0 }
            ?? IngredientKey.of(trimmed)
        guard !key.isEmpty else { throw APIError.badRequest("name must contain a letter or digit.") }
        // The table's bound on keys: a name's key is longer than the name only where folding expands a character.
        guard key.unicodeScalars.count <= 2 * longestName else {
            throw APIError.badRequest("name must be 1 to \(longestName) characters once trimmed of surrounding spaces.")
        }
        return (trimmed, key)
    }
}

extension PantryItem {
    /// A new item added now: by hand or from a scan here, or moved from the shopping list. Its
    /// use-soon date is worked out (``workOutUseSoon()``).
    static func new(
        name: (text: String, key: String),
        section: StoreSection,
        quantity: Double? = nil,
        unit: QuantityUnit? = nil,
        bestBefore: CalendarDay? = nil,
        source: PantrySource,
        scanId: UUID? = nil,
        at now: Date
    ) -> PantryItem {
        var item = PantryItem(
            id: UUID(),
            name: name.text,
            key: name.key,
            category: section.rawValue,
            quantity: quantity,
            unit: unit,
            bestBefore: bestBefore,
            source: source,
            scanId: scanId,
            addedAt: now,
            lastSeenAt: now
        )
        item.workOutUseSoon()
        return item
    }

    /// Sets `useSoonBy` to the best-before date, or for fresh food without one to the estimate of ``ShelfLife`` from
    /// the UTC day it was added (marked `useSoonEstimated`); nil for food that keeps.
    mutating func workOutUseSoon() {
        let estimate = ShelfLife.estimatedUseBy(key: key, section: StoreSection(category: category), addedOn: CalendarDay(utc: addedAt))
        useSoonBy = bestBefore ?? estimate
        useSoonEstimated = bestBefore == nil && estimate != nil
    }
}

extension KeyedDecodingContainer<BodyMember> {
    /// Member `name` as a store section, matched in any case; nil when it is left out. Any other text, `null`
    /// included, is a 400: a person's typo must be refused, not filed under Other.
    func section(_ name: String) throws -> StoreSection? {
        let wrong = APIError.badRequest("\(name) must be one of \(StoreSection.allCases.map(\.rawValue).joined(separator: ", ")) (in any case).")
        return try value(name, else: wrong).map { (text: String) in
            guard let known = StoreSection(named: text) else { throw wrong }
            return known
        }
    }
}
