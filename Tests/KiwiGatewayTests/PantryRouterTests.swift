import Foundation
import HTTPTypes
import HummingbirdTesting
import KiwiFood
import KiwiInternalAPI
import KiwiModels
import KiwiScans
import KiwiTestSupport
import NIOCore
import Testing

@testable import KiwiGateway

/// The pantry (`/v1/pantry`), in-process on fakes: adding by hand and from scans, merging by key, listing, editing,
/// deleting, the rules of every body (each broken one a 400 with nothing stored), the capacity, and that nobody
/// reaches another user's pantry.
@Suite("Gateway router: the pantry")
struct PantryRouterTests {
    static let today = FakeGateway.today
    static let answer = ScanResponse(
        ingredients: [
            Ingredient(id: UUID(), name: "Eggs", category: "Protein", confidence: 0.9),
            Ingredient(id: UUID(), name: "Baby spinach", category: "vegetable", confidence: 0.8),
            Ingredient(id: UUID(), name: "egg", category: "Protein", confidence: 0.5),
            Ingredient(id: UUID(), name: "Milk", category: "Dairy", confidence: 0.7),
        ],
        recipes: []
    )

    /// A gateway whose scans wait until a test answers them.
    static func gateway() -> FakeGateway {
        FakeGateway(workers: .hold)
    }

    /// Starts a scan of the caller's and, unless `outcome` is nil, has a worker answer it so.
    static func scan(
        _ gateway: FakeGateway,
        _ client: some TestClientProtocol,
        token: String,
        outcome: ScanOutcome? = .ok(answer)
    ) async throws -> UUID {
        let created = try await client.scan(testPhoto, token: token, path: "/v1/scans")
        let id = try KiwiJSON.decoder().decode(ScanResource.self, from: Data(created.body.readableBytesView)).id
        if let outcome { gateway.workers.answer(id, with: outcome) }
        return id
    }

    static func post(_ client: some TestClientProtocol, token: String, _ body: String) async throws -> TestResponse {
        try await client.execute(.post, "/v1/pantry/items", token: token, headers: [.contentType: "application/json"], body: ByteBuffer(string: body))
    }

    static func patch(_ client: some TestClientProtocol, token: String, _ id: UUID, _ body: String) async throws -> TestResponse {
        try await client.execute(.patch, path(of: id), token: token, headers: [.contentType: "application/json"], body: ByteBuffer(string: body))
    }

    /// `PATCH /v1/scans/{scan}/receipt/lines/{line}` with `body`.
    static func correct(_ client: some TestClientProtocol, token: String, _ scan: UUID, line: UUID, _ body: String) async throws -> TestResponse {
        try await client.execute(
            .patch,
            "/v1/scans/\(scan)/receipt/lines/\(line)",
            token: token,
            headers: [.contentType: "application/json"],
            body: ByteBuffer(string: body)
        )
    }

    static func addScan(_ client: some TestClientProtocol, token: String, _ scan: UUID) async throws -> TestResponse {
        try await post(client, token: token, #"{"scanId":"\#(scan.uuidString)"}"#)
    }

    static func path(of id: UUID) -> String {
        "/v1/pantry/items/\(id.uuidString.lowercased())"
    }

    static func decode<Body: Decodable>(_ answer: TestResponse, as type: Body.Type = Body.self) throws -> Body {
        try KiwiJSON.decoder().decode(Body.self, from: Data(answer.body.readableBytesView))
    }

    /// Adds `body` by hand and answers the item.
    static func added(_ client: some TestClientProtocol, token: String, _ body: String) async throws -> PantryItem {
        let answer = try await post(client, token: token, body)
        try #require(answer.status == .created || answer.status == .ok)
        return try decode(answer)
    }

    /// `count` items of keys of their own, straight into the fake store.
    static func fill(_ gateway: FakeGateway, for user: UUID, count: Int) async throws {
        let items = (0..<count).map { PantryItem.new(name: ("Item \($0)", "item \($0)"), section: .other, source: .manual, at: Date()) }
        _ = try await gateway.pantry.add(items, for: .own(user), capacity: PantryController.capacity)
    }

    // MARK: Adding by hand

    @Test("an item added by hand is 201 with its Location, trimmed, keyed, filed in its section, dated by its best-before")
    func addByHand() async throws {
        let gateway = Self.gateway()
        let (token, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            let bestBefore = Self.today.adding(days: 3)
            let answer = try await Self.post(
                client,
                token: token,
                #"{"name":"  Cherry Tomatoes ","quantity":4,"unit":"piece","bestBefore":"\#(bestBefore)"}"#
            )
            #expect(answer.status == .created)
            let item: PantryItem = try Self.decode(answer)
            #expect(answer.headers[.location] == Self.path(of: item.id))
            #expect(item.name == "Cherry Tomatoes" && item.key == "cherry tomato" && item.category == "Vegetable")
            #expect(item.quantity == 4 && item.unit == .piece)
            #expect(item.bestBefore == bestBefore && item.useSoonBy == bestBefore && !item.useSoonEstimated)
            #expect(item.source == .manual && item.scanId == nil)
            #expect(try Self.decode(try await client.execute(.get, Self.path(of: item.id), token: token)) == item)
        }
    }

    @Test("adding a name whose key the pantry has is 200 with that item, found again: its quantity updated, its name kept")
    func addByHandAgainMerges() async throws {
        let gateway = Self.gateway()
        let (token, session, _) = gateway.signIn()
        try await gateway.test { client async throws in
            let first = try await Self.added(client, token: token, #"{"name":"Tomatoes","quantity":4}"#)
            let answer = try await Self.post(client, token: token, #"{"name":"fresh tomato","quantity":500,"unit":"g"}"#)
            #expect(answer.status == .ok)
            #expect(answer.headers[.location] == Self.path(of: first.id))
            let merged: PantryItem = try Self.decode(answer)
            #expect(merged.id == first.id && merged.name == "Tomatoes" && merged.addedAt == first.addedAt)
            #expect(merged.quantity == 500 && merged.unit == .g)
            #expect(merged.lastSeenAt >= first.lastSeenAt)
        }
        #expect(gateway.pantry.count(of: session.userId) == 1)
    }

    @Test("fresh food without a best-before gets an estimated use-soon date; food that keeps gets none")
    func useSoonEstimate() async throws {
        let gateway = Self.gateway()
        let (token, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            let spinach = try await Self.added(client, token: token, #"{"name":"Spinach"}"#)
            #expect(spinach.useSoonBy == Self.today.adding(days: 5) && spinach.useSoonEstimated)
            let rice = try await Self.added(client, token: token, #"{"name":"Rice","quantity":1,"unit":"kg"}"#)
            #expect(rice.category == "Grain" && rice.useSoonBy == nil && !rice.useSoonEstimated)
        }
    }

    @Test("a category sent in any case files the item in that section, whatever its name says")
    func categoryGiven() async throws {
        let gateway = Self.gateway()
        let (token, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            let item = try await Self.added(client, token: token, #"{"name":"Oat milk","category":"bEvErAgE"}"#)
            #expect(item.category == "Beverage" && item.useSoonBy == nil)
        }
    }

    // MARK: Adding from a scan

    @Test("a succeeded scan's ingredients are added in one call, 200, each key once (the first), from the scan, by its categories")
    func addFromScan() async throws {
        let gateway = Self.gateway()
        let (token, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            let scan = try await Self.scan(gateway, client, token: token)
            let answer = try await Self.addScan(client, token: token, scan)
            #expect(answer.status == .ok)
            let items = try Self.decode(answer, as: PantryItems.self).items
            #expect(items.map(\.name) == ["Eggs", "Baby spinach", "Milk"])
            #expect(items.map(\.key) == ["egg", "spinach", "milk"])
            #expect(items.map(\.category) == ["Protein", "Vegetable", "Dairy"])
            #expect(items.allSatisfy { $0.source == .scan && $0.scanId == scan })
            #expect(items.map(\.useSoonBy) == [21, 5, 7].map { Self.today.adding(days: $0) })
        }
    }

    @Test("adding the same scan twice gives the same set of items")
    func addFromScanTwice() async throws {
        let gateway = Self.gateway()
        let (token, session, _) = gateway.signIn()
        try await gateway.test { client async throws in
            let scan = try await Self.scan(gateway, client, token: token)
            let first = try Self.decode(try await Self.addScan(client, token: token, scan), as: PantryItems.self).items
            let again = try Self.decode(try await Self.addScan(client, token: token, scan), as: PantryItems.self).items
            #expect(again.map(\.id) == first.map(\.id))
        }
        #expect(gateway.pantry.count(of: session.userId) == 3)
    }

    /// A receipt scan's answer: milk twice, a weight-priced line, a bag and a discount.
    static func receiptAnswer(date: String? = "2026-06-14") -> ScanResponse {
        let lines = [
            ReceiptLine(id: UUID(), text: "WHOLE MILK 1L", kind: .food, name: "Whole milk", quantity: 1, unit: .l, unitPrice: 1.19, total: 1.19),
            ReceiptLine(id: UUID(), text: "WHOLE MILK 1L", kind: .food, name: "Whole milk", quantity: 1, unit: .l, unitPrice: 1.19, total: 1.19),
            ReceiptLine(id: UUID(), text: "BANANAS 0.734kg", kind: .food, name: "Bananas", quantity: 0.734, unit: .kg, unitPrice: 2.99, total: 2.19),
            ReceiptLine(id: UUID(), text: "CARRIER BAG", kind: .other, total: 0.20),
            ReceiptLine(id: UUID(), text: "MULTIBUY", kind: .discount, total: -0.30),
        ]
        let receipt = ReceiptAnswer(storeName: "FreshMart", date: date, time: "18:42", currency: "EUR", lines: lines, total: 4.47)
        return ScanResponse(ingredients: [], recipes: [], mode: .receipt, receipt: receipt)
    }

    @Test("a receipt scan's food lines are added, what was bought summed and added to what the pantry holds; the rest left out")
    func addFromReceipt() async throws {
        let gateway = Self.gateway()
        let (token, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            _ = try await Self.added(client, token: token, #"{"name": "whole milk", "quantity": 500, "unit": "ml"}"#)
            let scan = try await Self.scan(gateway, client, token: token, outcome: .ok(Self.receiptAnswer()))
            let answer = try await Self.addScan(client, token: token, scan)
            #expect(answer.status == .ok)
            let items = try Self.decode(answer, as: PantryItems.self).items
            #expect(items.map(\.key) == ["milk", "banana"])
            #expect(items.map(\.quantity) == [2500, 0.734] && items.map(\.unit) == [.ml, .kg])
            #expect(items[1].useSoonBy == CalendarDay("2026-06-14")!.adding(days: 5) && items[1].scanId == scan)
            let again = try Self.decode(try await Self.addScan(client, token: token, scan), as: PantryItems.self).items
            #expect(again == items, "adding the receipt again adds nothing twice")
        }
    }

    @Test("a receipt added to the pantry reaches the shopping list's stream at once, with the estimate its prices give")
    func receiptReachesTheListStream() async throws {
        let gateway = FakeGateway(workers: .hold, listStreamLifetime: .seconds(3))
        let (token, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            let bananas = ByteBuffer(string: #"{"name": "Bananas"}"#)
            #expect(try await client.execute(.post, "/v1/shopping-list/items", token: token, body: bananas).status == .ok)
            let scan = try await Self.scan(gateway, client, token: token, outcome: .ok(Self.receiptAnswer()))
            let adding = Task {
                while gateway.listNews.watchedKitchens == 0 { try await Task.sleep(for: .milliseconds(5)) }
                #expect(try await Self.addScan(client, token: token, scan).status == .ok)
            }
            // The stream ends after 3 s, before its first recheck: only news brings the second list.
            let stream = try await client.execute(.get, "/v1/shopping-list/events", token: token)
            try await adding.value
            let lists = try serverSentEvents(in: String(buffer: stream.body)).compactMap { $0["data"] }.map { data in
                try KiwiJSON.decoder().decode(ShoppingList.self, from: Data(data.utf8))
            }
            #expect(lists.map(\.estimatedCost?.currency) == [nil, "EUR"])
        }
    }

    @Test("lines picks some of a receipt's food lines; a line that is not one is 400, and lines with a fridge scan 400")
    func addReceiptLines() async throws {
        let gateway = Self.gateway()
        let (token, session, _) = gateway.signIn()
        let answer = Self.receiptAnswer()
        let lines = try #require(answer.receipt?.lines)
        try await gateway.test { client async throws in
            let scan = try await Self.scan(gateway, client, token: token, outcome: .ok(answer))
            let picked = try await Self.post(client, token: token, #"{"scanId":"\#(scan)","lines":["\#(lines[2].id)"]}"#)
            #expect(try Self.decode(picked, as: PantryItems.self).items.map(\.key) == ["banana"])
            let bag = try await Self.post(client, token: token, #"{"scanId":"\#(scan)","lines":["\#(lines[3].id)"]}"#)
            #expect(bag.status == .badRequest && bag.errorCode == "bad_request")
            let fridge = try await Self.scan(gateway, client, token: token)
            let notReceipt = try await Self.post(client, token: token, #"{"scanId":"\#(fridge)","lines":["\#(lines[0].id)"]}"#)
            #expect(notReceipt.status == .badRequest)
        }
        #expect(gateway.pantry.count(of: session.userId) == 1)
    }

    @Test("the first receipt added sets the profile's currency; a currency the person chose stays")
    func firstReceiptSetsCurrency() async throws {
        let gateway = Self.gateway()
        let (token, _, _) = gateway.signIn()
        let (chooser, chosen, _) = gateway.signIn()
        try await gateway.profiles.save(KitchenProfile(allergies: [.milk], currency: "GBP"), for: chosen.userId)
        try await gateway.test { client async throws in
            for caller in [token, chooser] {
                let scan = try await Self.scan(gateway, client, token: caller, outcome: .ok(Self.receiptAnswer()))
                #expect(try await Self.addScan(client, token: caller, scan).status == .ok)
            }
            let profile = try await client.execute(.get, "/v1/profile", token: token)
            #expect(try Self.decode(profile, as: KitchenProfile.self) == KitchenProfile(currency: "EUR"))
            #expect(try await gateway.profiles.profile(of: chosen.userId) == KitchenProfile(allergies: [.milk], currency: "GBP"))
        }
    }

    @Test("another scan of the same receipt is 409 receipt_already_added naming the first, and again=true adds it")
    func sameReceiptTwice() async throws {
        let gateway = Self.gateway()
        let (token, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            let first = try await Self.scan(gateway, client, token: token, outcome: .ok(Self.receiptAnswer()))
            let second = try await Self.scan(gateway, client, token: token, outcome: .ok(Self.receiptAnswer()))
            _ = try await Self.addScan(client, token: token, first)
            let refused = try await Self.addScan(client, token: token, second)
            #expect(refused.status == .conflict && refused.errorCode == "receipt_already_added")
            #expect(try refused.json()["scanId"] as? String == first.uuidString.lowercased())
            let forced = try await client.execute(
                .post,
                "/v1/pantry/items?again=true",
                token: token,
                headers: [.contentType: "application/json"],
                body: ByteBuffer(string: #"{"scanId":"\#(second)"}"#)
            )
            #expect(forced.status == .ok)
            #expect(try Self.decode(forced, as: PantryItems.self).items.map(\.quantity) == [4, 1.468])
        }
    }

    @Test("a receipt's food line corrected before adding is kept in the scan, and added as corrected")
    func correctBeforeAdding() async throws {
        let gateway = Self.gateway()
        let (token, _, _) = gateway.signIn()
        let answer = Self.receiptAnswer()
        let bananas = try #require(answer.receipt?.lines[2])
        try await gateway.test { client async throws in
            let scan = try await Self.scan(gateway, client, token: token, outcome: .ok(answer))
            let corrected = try await Self.correct(client, token: token, scan, line: bananas.id, #"{"name": "Plantains", "quantity": 0.743}"#)
            #expect(corrected.status == .ok)
            let line = try Self.decode(corrected, as: ScanResource.self).result?.receipt?.lines[2]
            #expect(line?.name == "Plantains" && line?.quantity == 0.743 && line?.unit == .kg && line?.text == bananas.text)
            let items = try Self.decode(try await Self.addScan(client, token: token, scan), as: PantryItems.self).items
            #expect(items.map(\.name) == ["Whole milk", "Plantains"] && items[1].quantity == 0.743)
        }
    }

    @Test("a food line's corrected name drops the English name the model gave the old one; other corrections keep it")
    func correctedNameDropsEnglishName() throws {
        let line = ReceiptLine(
            id: UUID(),
            text: "TOMATEN 500G",
            kind: .food,
            name: "Tomaten",
            quantity: 500,
            unit: .g,
            total: 1.99,
            canonicalName: "tomatoes"
        )
        let receipt = ReceiptAnswer(storeName: nil, date: nil, time: nil, currency: "EUR", lines: [line], total: 1.99)
        let renamed = try #require(ReceiptLineCorrection(name: "Zwiebeln").applied(to: receipt, line: line.id)?.lines.first)
        #expect(renamed.name == "Zwiebeln" && renamed.canonicalName == nil)
        #expect(ReceiptLineCorrection(quantity: 400).applied(to: receipt, line: line.id)?.lines.first?.canonicalName == "tomatoes")
    }

    @Test("a food line corrected to another unit loses the unit price it had, and the pantry prices it by its total")
    func correctedUnitDropsUnitPrice() async throws {
        let gateway = Self.gateway()
        let (token, _, _) = gateway.signIn()
        let answer = Self.receiptAnswer()
        let bananas = try #require(answer.receipt?.lines[2])
        try await gateway.test { client async throws in
            let scan = try await Self.scan(gateway, client, token: token, outcome: .ok(answer))
            let corrected = try await Self.correct(client, token: token, scan, line: bananas.id, #"{"quantity": 6, "unit": "piece"}"#)
            let line = try Self.decode(corrected, as: ScanResource.self).result?.receipt?.lines[2]
            #expect(line?.unit == .piece && line?.unitPrice == nil && line?.total == 2.19)
            let items = try Self.decode(try await Self.addScan(client, token: token, scan), as: PantryItems.self).items
            #expect(items[1].price == PantryPrice(amount: 2.19 / 6, unit: .piece, currency: "EUR"))
        }
    }

    @Test(
        "correcting a line that is not a food line, of another's scan or of no receipt is 404; an empty or broken body 400",
        arguments: ["bag", "other user", "fridge scan", "empty body", "unknown member", "no letter", "unknown unit", "null quantity"]
    )
    func correctionRefusals(_ case: String) async throws {
        let gateway = Self.gateway()
        let (token, _, _) = gateway.signIn()
        let (other, _, _) = gateway.signIn()
        let answer = Self.receiptAnswer()
        let lines = try #require(answer.receipt?.lines)
        try await gateway.test { client async throws in
            let receipt = try await Self.scan(gateway, client, token: token, outcome: .ok(answer))
            let fridge = try await Self.scan(gateway, client, token: token)
            let (scan, line, body, caller, status): (UUID, UUID, String, String, HTTPResponse.Status) =
                switch `case` {
                case "bag": (receipt, lines[3].id, #"{"quantity": 2}"#, token, .notFound)
                case "other user": (receipt, lines[0].id, #"{"quantity": 2}"#, other, .notFound)
                case "fridge scan": (fridge, lines[0].id, #"{"quantity": 2}"#, token, .notFound)
                case "empty body": (receipt, lines[0].id, "{}", token, .badRequest)
                case "unknown member": (receipt, lines[0].id, #"{"total": 2}"#, token, .badRequest)
                case "unknown unit": (receipt, lines[0].id, #"{"unit": "bushel"}"#, token, .badRequest)
                case "null quantity": (receipt, lines[0].id, #"{"quantity": null}"#, token, .badRequest)
                default: (receipt, lines[0].id, #"{"name": "  ..  "}"#, token, .badRequest)
                }
            let answered = try await Self.correct(client, token: caller, scan, line: line, body)
            #expect(answered.status == status, "\(String(buffer: answered.body))")
            #expect(!String(buffer: answered.body).contains("or null"), "a correction cannot clear a line's member")
            let stored = try Self.decode(try await client.execute(.get, "/v1/scans/\(receipt)", token: token), as: ScanResource.self)
            #expect(stored.result == answer, "nothing changed")
        }
    }

    @Test("a receipt without food lines is 409 scan_has_no_ingredients, and adds nothing")
    func receiptWithoutFood() async throws {
        let gateway = Self.gateway()
        let (token, session, _) = gateway.signIn()
        var withoutFood = Self.receiptAnswer()
        withoutFood.receipt?.lines.removeAll { $0.kind == .food }
        let answer = withoutFood
        try await gateway.test { client async throws in
            let scan = try await Self.scan(gateway, client, token: token, outcome: .ok(answer))
            let refused = try await Self.addScan(client, token: token, scan)
            #expect(refused.status == .conflict && refused.errorCode == "scan_has_no_ingredients")
        }
        #expect(gateway.pantry.count(of: session.userId) == 0)
    }

    @Test("a refinement's confirmed list is what its scan id adds")
    func addFromRefinement() async throws {
        let gateway = Self.gateway()
        let (token, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            let parent = try await Self.scan(gateway, client, token: token)
            let refined = try await client.refine(parent, ["Leeks"], token: token)
            let refinement = try Self.decode(refined, as: ScanResource.self).id
            let leeks = Ingredient(id: UUID(), name: "Leeks", category: "Vegetable", confidence: 1)
            gateway.workers.answer(refinement, with: .ok(ScanResponse(ingredients: [leeks], recipes: [])))
            let items = try Self.decode(try await Self.addScan(client, token: token, refinement), as: PantryItems.self).items
            #expect(items.map(\.name) == ["Leeks"])
            #expect(items.first?.scanId == refinement)
        }
    }

    @Test("a scan still open is 409 scan_in_progress, and adds nothing")
    func addFromOpenScan() async throws {
        let gateway = Self.gateway()
        let (token, session, _) = gateway.signIn()
        try await gateway.test { client async throws in
            let scan = try await Self.scan(gateway, client, token: token, outcome: nil)
            let answer = try await Self.addScan(client, token: token, scan)
            #expect(answer.status == .conflict)
            #expect(answer.errorCode == "scan_in_progress")
        }
        #expect(gateway.pantry.count(of: session.userId) == 0)
    }

    @Test(
        "a failed scan, a dish scan or one that found nothing is 409 scan_has_no_ingredients",
        arguments: [
            ScanOutcome.error(ScanFailure(.invalidModelResponse, "")), .ok(ScanResponse(ingredients: [], recipes: [], mode: .dish)),
            .ok(ScanResponse(ingredients: [], recipes: [])),
        ]
    )
    func addFromScanWithoutIngredients(_ outcome: ScanOutcome) async throws {
        let gateway = Self.gateway()
        let (token, session, _) = gateway.signIn()
        try await gateway.test { client async throws in
            let scan = try await Self.scan(gateway, client, token: token, outcome: outcome)
            let answer = try await Self.addScan(client, token: token, scan)
            #expect(answer.status == .conflict)
            #expect(answer.errorCode == "scan_has_no_ingredients")
        }
        #expect(gateway.pantry.count(of: session.userId) == 0)
    }

    @Test("another user's scan, or no scan, is 404")
    func addFromAnotherUsersScan() async throws {
        let gateway = Self.gateway()
        let (token, _, _) = gateway.signIn()
        let (other, otherSession, _) = gateway.signIn()
        try await gateway.test { client async throws in
            let scan = try await Self.scan(gateway, client, token: token)
            #expect(try await Self.addScan(client, token: other, scan).status == .notFound)
            #expect(try await Self.addScan(client, token: token, UUID()).status == .notFound)
        }
        #expect(gateway.pantry.count(of: otherSession.userId) == 0)
    }

    // MARK: Listing

    @Test("the list runs soonest use-soon date first, food that keeps last, a page at a time")
    func listPages() async throws {
        let gateway = Self.gateway()
        let (token, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            for body in [
                #"{"name":"Rice"}"#, #"{"name":"Yoghurt","bestBefore":"\#(Self.today.adding(days: 9))"}"#, #"{"name":"Chicken"}"#,
                #"{"name":"Milk","bestBefore":"\#(Self.today)"}"#,
            ] {
                _ = try await Self.added(client, token: token, body)
            }
            let first = try Self.decode(try await client.execute(.get, "/v1/pantry?limit=3", token: token), as: PantryList.self)
            #expect(first.items.map(\.name) == ["Milk", "Chicken", "Yoghurt"])
            let cursor = try #require(first.nextCursor)
            #expect(cursor == "\(Int64(Self.today.adding(days: 9).daysSince1970) * 86_400_000_000).\(first.items[2].id.uuidString.lowercased())")
            let second = try Self.decode(try await client.execute(.get, "/v1/pantry?limit=3&cursor=\(cursor)", token: token), as: PantryList.self)
            #expect(second.items.map(\.name) == ["Rice"])
            #expect(second.nextCursor == nil)
        }
    }

    @Test("useSoon=N lists only what is to be used within N days, soonest first, a page at a time, with no cursor after the last")
    func listUseSoon() async throws {
        let gateway = Self.gateway()
        let (token, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            for (name, days) in [("Rice", nil), ("Yoghurt", 9), ("Milk", 0), ("Feta", 3), ("Cheddar", 4)] {
                let bestBefore = days.map { #","bestBefore":"\#(Self.today.adding(days: $0))""# } ?? ""
                _ = try await Self.added(client, token: token, #"{"name":"\#(name)"\#(bestBefore)}"#)
            }
            func list(_ query: String) async throws -> PantryList {
                try Self.decode(try await client.execute(.get, "/v1/pantry?\(query)", token: token))
            }
            let first = try await list("useSoon=3&limit=1")
            #expect(first.items.map(\.name) == ["Milk"])
            let second = try await list("useSoon=3&limit=1&cursor=\(try #require(first.nextCursor))")
            #expect(second.items.map(\.name) == ["Feta"] && second.nextCursor == nil)
            let whole = try await list("useSoon=4&limit=3")
            #expect(whole.items.map(\.name) == ["Milk", "Feta", "Cheddar"] && whole.nextCursor == nil)
            #expect(try await list("useSoon=0").items.map(\.name) == ["Milk"])
        }
    }

    @Test("a useSoon that is not a whole number from 0 to 365 is 400", arguments: ["-1", "366", "3.5", "three", ""])
    func listRefusesBadUseSoon(useSoon: String) async throws {
        let gateway = Self.gateway()
        let (token, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            #expect(try await client.execute(.get, "/v1/pantry?useSoon=\(useSoon)", token: token).status == .badRequest)
        }
    }

    @Test("a limit or cursor out of the rules is 400")
    func listRefusesBadPaging() async throws {
        let gateway = Self.gateway()
        let (token, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            for query in ["limit=0", "limit=101", "cursor=yesterday"] {
                #expect(try await client.execute(.get, "/v1/pantry?\(query)", token: token).status == .badRequest)
            }
        }
    }

    // MARK: Editing

    @Test("PATCH sets each field sent, keeps the others, and works out the key and use-soon date again")
    func patchSetsFields() async throws {
        let gateway = Self.gateway()
        let (token, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            let item = try await Self.added(client, token: token, #"{"name":"Tomatoes","quantity":4,"unit":"piece"}"#)
            let bestBefore = Self.today.adding(days: 2)
            let answer = try await Self.patch(
                client,
                token: token,
                item.id,
                #"{"name":"Cherry tomatoes","quantity":6,"bestBefore":"\#(bestBefore)"}"#
            )
            #expect(answer.status == .ok)
            let patched: PantryItem = try Self.decode(answer)
            #expect(patched.id == item.id && patched.name == "Cherry tomatoes" && patched.key == "cherry tomato")
            #expect(patched.quantity == 6 && patched.unit == .piece && patched.category == "Vegetable")
            #expect(patched.useSoonBy == bestBefore && !patched.useSoonEstimated)
            #expect(try Self.decode(try await client.execute(.get, Self.path(of: item.id), token: token)) == patched)
        }
    }

    @Test("PATCH with null clears the quantity with its unit, and the best-before back to an estimate")
    func patchNullClears() async throws {
        let gateway = Self.gateway()
        let (token, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            let body = #"{"name":"Spinach","quantity":200,"unit":"g","bestBefore":"\#(Self.today.adding(days: 1))"}"#
            let item = try await Self.added(client, token: token, body)
            let patched: PantryItem = try Self.decode(try await Self.patch(client, token: token, item.id, #"{"quantity":null,"bestBefore":null}"#))
            #expect(patched.quantity == nil && patched.unit == nil && patched.bestBefore == nil)
            #expect(patched.useSoonBy == Self.today.adding(days: 5) && patched.useSoonEstimated)
        }
    }

    @Test("a new name keeps the item's category unless one is sent")
    func patchNameKeepsCategory() async throws {
        let gateway = Self.gateway()
        let (token, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            let item = try await Self.added(client, token: token, #"{"name":"Spinach"}"#)
            let renamed: PantryItem = try Self.decode(try await Self.patch(client, token: token, item.id, #"{"name":"Rice"}"#))
            #expect(renamed.category == "Vegetable")
            let moved: PantryItem = try Self.decode(try await Self.patch(client, token: token, item.id, #"{"category":"grain"}"#))
            #expect(moved.category == "Grain" && moved.useSoonBy == nil)
        }
    }

    @Test("renaming onto another item's key is 409 pantry_item_exists, and changes nothing")
    func patchOntoAnotherKey() async throws {
        let gateway = Self.gateway()
        let (token, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            let eggs = try await Self.added(client, token: token, #"{"name":"Eggs"}"#)
            _ = try await Self.added(client, token: token, #"{"name":"Milk"}"#)
            let answer = try await Self.patch(client, token: token, eggs.id, #"{"name":"milk"}"#)
            #expect(answer.status == .conflict)
            #expect(answer.errorCode == "pantry_item_exists")
            #expect(try Self.decode(try await client.execute(.get, Self.path(of: eggs.id), token: token)) == eggs)
        }
    }

    @Test(
        "a PATCH that breaks a rule is 400, and the item is unchanged",
        arguments: [
            #"{"name":null}"#, #"{"category":null}"#, #"{"unit":"g"}"#, #"{"quantity":null,"unit":"g"}"#, #"{"scanId":"x"}"#,
            #"{"name":"Eg\rgs"}"#, #"{"quantity":0}"#, "[]",
        ]
    )
    func patchRefusals(_ body: String) async throws {
        let gateway = Self.gateway()
        let (token, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            let item = try await Self.added(client, token: token, #"{"name":"Rice"}"#)
            let answer = try await Self.patch(client, token: token, item.id, body)
            #expect(answer.status == .badRequest)
            #expect(answer.errorCode == "bad_request")
            #expect(try Self.decode(try await client.execute(.get, Self.path(of: item.id), token: token)) == item)
        }
    }

    // MARK: Deleting

    @Test("DELETE of an item is 204, and then it is gone: 404")
    func deleteOne() async throws {
        let gateway = Self.gateway()
        let (token, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            let item = try await Self.added(client, token: token, #"{"name":"Rice"}"#)
            #expect(try await client.execute(.delete, Self.path(of: item.id), token: token).status == .noContent)
            #expect(try await client.execute(.delete, Self.path(of: item.id), token: token).status == .notFound)
            #expect(try await client.execute(.get, Self.path(of: item.id), token: token).status == .notFound)
        }
    }

    @Test("DELETE /v1/pantry is 204 and empties the pantry")
    func clearPantry() async throws {
        let gateway = Self.gateway()
        let (token, session, _) = gateway.signIn()
        try await gateway.test { client async throws in
            for name in ["Rice", "Milk"] { _ = try await Self.added(client, token: token, #"{"name":"\#(name)"}"#) }
            #expect(try await client.execute(.delete, "/v1/pantry", token: token).status == .noContent)
            #expect(try Self.decode(try await client.execute(.get, "/v1/pantry", token: token), as: PantryList.self).items.isEmpty)
        }
        #expect(gateway.pantry.count(of: session.userId) == 0)
    }

    @Test("deleting the account empties the pantry")
    func accountDeletionEmptiesPantry() async throws {
        let gateway = Self.gateway()
        let (token, session, _) = gateway.signIn()
        try await gateway.test { client async throws in
            _ = try await Self.added(client, token: token, #"{"name":"Rice"}"#)
            #expect(try await client.execute(.delete, "/v1/account", token: token).status == .ok)
        }
        #expect(gateway.pantry.count(of: session.userId) == 0)
    }

    @Test("another user's item is 404 to read, edit or delete, and stays as it was")
    func anotherUsersItem() async throws {
        let gateway = Self.gateway()
        let (token, _, _) = gateway.signIn()
        let (other, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            let item = try await Self.added(client, token: token, #"{"name":"Rice"}"#)
            #expect(try await client.execute(.get, Self.path(of: item.id), token: other).status == .notFound)
            #expect(try await Self.patch(client, token: other, item.id, #"{"quantity":2}"#).status == .notFound)
            #expect(try await client.execute(.delete, Self.path(of: item.id), token: other).status == .notFound)
            #expect(try Self.decode(try await client.execute(.get, Self.path(of: item.id), token: token)) == item)
        }
    }

    @Test("a method the pantry's paths do not take is 405 naming those they do")
    func wrongMethodIs405() async throws {
        let gateway = Self.gateway()
        let (token, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            for (method, path, allowed) in [(HTTPRequest.Method.put, "/v1/pantry", "GET, HEAD, DELETE"), (.get, "/v1/pantry/items", "POST")] {
                let answer = try await client.execute(method, path, token: token)
                #expect(answer.status == .methodNotAllowed)
                #expect(answer.headers[.allow] == allowed)
            }
        }
    }

    // MARK: Bad input

    /// Bodies that break one rule each, and a word the answer's message must have to say which.
    static let refusedBodies: [(body: String, says: String)] = [
        (#"{"name":"\#(String(repeating: "a", count: 101))"}"#, "1 to 100"),
        (#"{"name":"   "}"#, "1 to 100"),
        (#"{"name":"Milk\u0000"}"#, "U+0000"),
        (#"{"name":"Milk\nand honey"}"#, "control characters"),
        (#"{"name":"Milk\u0007"}"#, "control characters"),
        (#"{"name":"--"}"#, "letter or digit"),
        (#"{"name":42}"#, "name must be a string"),
        (#"{"name":"Milk","unit":"gallon"}"#, "g, kg, ml"),
        (#"{"name":"Salt","quantity":1,"unit":"to taste"}"#, "g, kg, ml"),
        (#"{"name":"Milk","quantity":2,"unit":"fl oz"}"#, "g, kg, ml"),
        (#"{"name":"Milk","unit":"l"}"#, "send a quantity"),
        (#"{"name":"Milk","quantity":0}"#, "greater than 0"),
        (#"{"name":"Milk","quantity":-1}"#, "greater than 0"),
        (#"{"name":"Milk","quantity":100001}"#, "at most 100000"),
        (#"{"name":"Milk","quantity":"2"}"#, "quantity must be a number"),
        (#"{"name":"Milk","bestBefore":"\#(today.adding(days: -2))"}"#, "bestBefore must be from"),
        (#"{"name":"Milk","bestBefore":"\#(today.adding(days: 1828))"}"#, "5 years"),
        (#"{"name":"Milk","bestBefore":"2026-02-30"}"#, "yyyy-MM-dd"),
        (#"{"name":"Milk","bestBefore":"27/11/2026"}"#, "yyyy-MM-dd"),
        (#"{"name":"Milk","category":"Frozen"}"#, "category must be one of"),
        (#"{"name":"Milk","brand":"Kiwi"}"#, "brand is not a member"),
        (#"{"name":"Milk","name":"Eggs"}"#, "one JSON object"),
        (#"{"name":"Milk","scanId":"\#(UUID().uuidString)"}"#, "not both"),
        (#"{"scanId":"\#(UUID().uuidString)","quantity":2}"#, "quantity goes with name"),
        (#"{"scanId":"yesterday's"}"#, "a UUID"),
        ("{}", "Send scanId or name"),
        (#"["Milk"]"#, "one JSON object"),
        ("Milk", "one JSON object"),
        (#"{"name":"\#(String(repeating: "a", count: 70_000))"}"#, "64 KiB"),
        (#"{"items":[\#(Array(repeating: #"{"name":"Milk"}"#, count: 10_000).joined(separator: ","))]}"#, "64 KiB"),
        (#"{"name":[\#(Array(repeating: "0", count: 10_000).joined(separator: ","))]}"#, "name must be a string"),
    ]

    @Test("a body that breaks a rule is a 400 that says which, and nothing is stored", arguments: refusedBodies)
    func badInputRefused(_ body: String, says: String) async throws {
        let gateway = Self.gateway()
        let (token, session, _) = gateway.signIn()
        try await gateway.test { client async throws in
            let answer = try await Self.post(client, token: token, body)
            #expect(answer.status == .badRequest)
            #expect(answer.errorCode == "bad_request")
            let message = try answer.json()["message"] as? String
            #expect(message?.contains(says) == true, "\(message ?? "no message")")
        }
        #expect(gateway.pantry.count(of: session.userId) == 0)
    }

    @Test("a best-before of yesterday or of five years ahead is taken")
    func bestBeforeBounds() async throws {
        let gateway = Self.gateway()
        let (token, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            for (name, day) in [("Milk", Self.today.adding(days: -1)), ("Honey", Self.today.adding(days: 1827))] {
                #expect(try await Self.post(client, token: token, #"{"name":"\#(name)","bestBefore":"\#(day)"}"#).status == .created)
            }
        }
    }

    // MARK: Capacity

    @Test("a full pantry refuses a new item with 400 pantry_full, and still finds one it has again")
    func fullPantryRefusesNewItem() async throws {
        let gateway = Self.gateway()
        let (token, session, _) = gateway.signIn()
        try await Self.fill(gateway, for: session.userId, count: PantryController.capacity)
        try await gateway.test { client async throws in
            let answer = try await Self.post(client, token: token, #"{"name":"Flour"}"#)
            #expect(answer.status == .badRequest)
            #expect(answer.errorCode == "pantry_full")
            #expect(try await Self.post(client, token: token, #"{"name":"Item 7","quantity":2}"#).status == .ok)
        }
        #expect(gateway.pantry.count(of: session.userId) == PantryController.capacity)
    }

    @Test("a scan whose ingredients would take the pantry past its bound adds none of them")
    func scanPastCapacityAddsNone() async throws {
        let gateway = Self.gateway()
        let (token, session, _) = gateway.signIn()
        try await Self.fill(gateway, for: session.userId, count: PantryController.capacity - 1)
        try await gateway.test { client async throws in
            let scan = try await Self.scan(gateway, client, token: token)
            let answer = try await Self.addScan(client, token: token, scan)
            #expect(answer.status == .badRequest)
            #expect(answer.errorCode == "pantry_full")
        }
        #expect(gateway.pantry.count(of: session.userId) == PantryController.capacity - 1)
    }
}
