import Foundation
import HTTPTypes
import HummingbirdTesting
import KiwiInternalAPI
import KiwiModels
import KiwiScans
import KiwiTestSupport
import NIOCore
import Testing

@testable import KiwiGateway

/// `/v1/plans` in-process on fakes (docs/architecture.md, "Meal plans"): what a plan's job asks for, how its body is
/// checked, what it costs, and its calendar.
@Suite("Gateway router: meal plans")
struct PlansRouterTests {
    static func ask(_ client: some TestClientProtocol, token: String, body: String, key: String? = nil) async throws -> TestResponse {
        var headers: HTTPFields = [.contentType: "application/json"]
        if let key { headers[HTTPField.Name("Idempotency-Key")!] = key }
        return try await client.execute(.post, "/v1/plans", token: token, headers: headers, body: ByteBuffer(string: body))
    }

    @Test("a plan is 202, planning, at its Location; its job asks for the plan with the pantry's items and no names; it costs a scan")
    func planIsAScan() async throws {
        let gateway = FakeGateway(workers: .hold)
        let (token, session, quotaKey) = gateway.signIn()
        let spinach = PantryScanRouterTests.item("Spinach", useSoonBy: FakeGateway.today.adding(days: 1))
        _ = try await gateway.pantry.add([spinach], for: .own(session.userId), capacity: PantryController.capacity)
        try await gateway.test { client async throws in
            let answer = try await Self.ask(client, token: token, body: #"{"days": 3, "meals": ["dinner", "lunch"], "servings": 4}"#)
            #expect(answer.status == .accepted)
            let plan = try KiwiJSON.decoder().decode(MealPlan.self, from: Data(answer.body.readableBytesView))
            #expect(plan.status == "planning" && plan.meals == [.lunch, .dinner] && plan.from == FakeGateway.today && !plan.pantryWasEmpty)
            #expect(answer.headers[.location] == "/v1/plans/\(plan.id.uuidString.lowercased())")
            #expect(gateway.workers.scanIDs == [plan.id])
            #expect(gateway.workers.plans == [PlanRequest(from: FakeGateway.today, days: 3, meals: [.lunch, .dinner], servings: 4)])
            #expect(gateway.workers.pantries.first??.map(\.id) == [spinach.id] && gateway.workers.ingredients == [nil])
            #expect(try await gateway.used(by: quotaKey) == 1)
        }
    }

    @Test("a retry with the same key is the same plan and one scan; the same key with another body is 422")
    func retryIsTheSamePlan() async throws {
        let gateway = FakeGateway(workers: .hold)
        let (token, _, quotaKey) = gateway.signIn()
        try await gateway.test { client async throws in
            let first = try await Self.ask(client, token: token, body: #"{"days": 2}"#, key: "plan-1")
            let again = try await Self.ask(client, token: token, body: #"{"days": 2}"#, key: "plan-1")
            #expect(first.status == .accepted && again.status == .accepted)
            #expect(first.headers[.location] == again.headers[.location])
            #expect(try await gateway.used(by: quotaKey) == 1 && gateway.workers.scanIDs.count == 1)
            #expect(try await Self.ask(client, token: token, body: #"{"days": 3}"#, key: "plan-1").status == .unprocessableContent)
        }
    }

    @Test(
        "a body that breaks a rule is 400 and starts nothing",
        arguments: [
            #"{"days": 15}"#, #"{"days": 0}"#, #"{"meals": ["breakfast", "lunch", "dinner", "supper"]}"#, #"{"meals": ["lunch", "lunch"]}"#,
            #"{"meals": []}"#, #"{"servings": 13}"#, #"{"from": "2026-02-30"}"#, #"{"from": "2000-01-01"}"#, #"{"days": 7, "note": "hi"}"#, "[]",
        ]
    )
    func badBodyIsRefused(body: String) async throws {
        let gateway = FakeGateway(workers: .hold)
        let (token, _, quotaKey) = gateway.signIn()
        try await gateway.test { client async throws in
            let answer = try await Self.ask(client, token: token, body: body)
            #expect(answer.status == .badRequest, "\(String(buffer: answer.body))")
            #expect(gateway.workers.scanIDs.isEmpty)
            #expect(try await gateway.used(by: quotaKey) == 0)
        }
    }

    @Test("a plan read just before its scan ends with its meals is shown ready, not failed")
    func planOutlinedBetweenReadsIsReady() async throws {
        let gateway = FakeGateway(workers: .hold)
        let (token, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            let plan = try KiwiJSON.decoder().decode(
                MealPlan.self,
                from: Data(try await Self.ask(client, token: token, body: "{}").body.readableBytesView)
            )
            let meals = [PlannedMeal(id: UUID(), date: plan.from, meal: .dinner, outline: nil, emptyReason: "It contains fish.")]
            gateway.plans.afterNextRead {
                // The worker's end: the meals and the scan's success in one transaction.
                gateway.plans.outline(plan.id, with: meals)
                gateway.workers.answer(plan.id, with: .ok(ScanResponse(ingredients: [], recipes: [], plan: MealPlanOutline(meals: meals))))
            }
            let shown = try await client.execute(.get, "/v1/plans/\(plan.id.uuidString.lowercased())", token: token)
            let read = try KiwiJSON.decoder().decode(MealPlan.self, from: Data(shown.body.readableBytesView))
            #expect(read.status == "ready" && read.schedule == meals, "\(String(buffer: shown.body))")
        }
    }

    @Test("a calendar needs the plan's meals: 409 before, then a link shown once whose feed a new link or a delete revokes")
    func calendarNeedsMeals() async throws {
        let gateway = FakeGateway(workers: .hold)
        let (token, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            let plan = try KiwiJSON.decoder().decode(
                MealPlan.self,
                from: Data(try await Self.ask(client, token: token, body: "{}").body.readableBytesView)
            )
            let path = "/v1/plans/\(plan.id.uuidString.lowercased())/calendar"
            #expect(try await client.execute(.post, path, token: token).status == .conflict)
            let meal = PlannedMeal(id: UUID(), date: plan.from, meal: .dinner, outline: nil, emptyReason: "It contains fish.")
            gateway.plans.outline(plan.id, with: [meal])
            let made = try await client.execute(.post, path, token: token)
            #expect(made.status == .created)
            let first = try KiwiJSON.decoder().decode(PlanCalendarLink.self, from: Data(made.body.readableBytesView)).url.path
            let feed = try await client.execute(.get, first, token: nil)
            #expect(feed.status == .ok && feed.headers[.contentType] == "text/calendar; charset=utf-8")
            #expect(String(buffer: feed.body).contains("SUMMARY:Dinner: nothing planned yet"))
            let second = try KiwiJSON.decoder().decode(
                PlanCalendarLink.self,
                from: Data(try await client.execute(.post, path, token: token).body.readableBytesView)
            )
            #expect(try await client.execute(.get, first, token: nil).status == .notFound)
            #expect(try await client.execute(.delete, path, token: token).status == .noContent)
            #expect(try await client.execute(.get, second.url.path, token: nil).status == .notFound)
        }
    }
}
