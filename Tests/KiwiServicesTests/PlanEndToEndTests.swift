import Foundation
import KiwiAPIClient
import KiwiDevelopment
import KiwiModels
import KiwiTestSupport
import NIOHTTP1
import Testing

@testable import KiwiLLMStub

/// Meal plans (docs/architecture.md, "Meal plans") through the generated client, the auth service, the gateway,
/// RabbitMQ, a worker and the stub, which answers a plan with its canned week.
@Suite("End to end: meal plans", .serialized, .timeLimit(.minutes(3)))
struct PlanEndToEndTests {
    typealias CLI = CLITests.CLI

    @Test("a plan offers the items due first, first; its first meals use them up in that order; it counts as one scan")
    func planUsesUpWhatIsDueFirst() async throws {
        try await SystemRig.run { rig in
            let cli = try CLI(server: rig.gateway)
            #expect(try await cli.logIn().status == 0)
            let today = CalendarDay(utc: Date())
            for (name, days) in [("Rice", nil), ("Spinach", 1), ("Cream", 2), ("Mushrooms", 2)] as [(String, Int?)] {
                let bestBefore = days.map { ["--best-before", "\(today.adding(days: $0))"] } ?? []
                #expect(try await cli.run(["pantry", "add", name] + bestBefore).status == 0)
            }
            let client = try Self.client(server: rig.gateway, of: cli)
            let pantry = try await client.listPantry(query: .init(limit: 100)).ok.body.json.items

            let asked = try await client.createPlan(body: .json(.init(from: "\(today)", days: 3, meals: [.dinner], servings: 2)))
            let plan = try await Self.outlined(try asked.accepted.body.json.id, by: client)

            #expect(plan.status == .ready && plan.pantryWasEmpty == false)
            let request = try #require(rig.stub.snapshot.recent.last)
            #expect(request.imageCount == 0 && request.parameters.schemaName == "kiwi_meal_plan")
            #expect(request.parameters.planSlots == ["d1-dinner", "d2-dinner", "d3-dinner"])
            let text = try #require(request.parameters.userTexts.first)
            let offered = try #require(text.range(of: "(a JSON array): [", options: .backwards)).upperBound
            let names = pantry.map { text[offered...].range(of: "\"\($0.name)\"")?.lowerBound }
            #expect(names.allSatisfy { $0 != nil } && names == names.sorted { $0! < $1! }, "\(text)")
            #expect(pantry.prefix(2).map(\.name) == ["Spinach", "Cream"] || pantry.prefix(2).map(\.name) == ["Spinach", "Mushrooms"])
            let schedule = try #require(plan.schedule)
            #expect(schedule.map(\.date) == (0..<3).map { "\(today.adding(days: $0))" })
            // The stub uses up one offered item per meal, the first offered first.
            #expect(schedule.map { $0.outline?.usesUp.first } == pantry.prefix(3).map { $0.id })
            #expect(try await cli.scansLeft() == 3, "a plan costs one scan")

            let listed = try await client.listPlans(query: .init(from: "\(today)", to: "\(today.adding(days: 6))")).ok.body.json.plans
            #expect(listed.map(\.id) == [plan.id])
        }
    }

    @Test("kiwi plan prints each meal with the pantry items it uses up; kiwi plan show prints the latest again; shop lists its week")
    func planCommands() async throws {
        try await SystemRig.run { rig in
            let cli = try CLI(server: rig.gateway)
            #expect(try await cli.logIn().status == 0)
            let today = CalendarDay(utc: Date())
            #expect(try await cli.run(["pantry", "add", "Spinach", "--best-before", "\(today.adding(days: 1))"]).status == 0)
            let made = try await cli.run(["plan", "--days", "2", "--meals", "lunch", "dinner"])
            #expect(made.status == 0, "\(made.output)")
            #expect(made.output.contains("\(today) lunch: Lemon chicken traybake (35 min); uses up Spinach"), "\(made.output)")
            #expect(made.output.contains("\(today.adding(days: 1)) dinner: "), "\(made.output)")
            let shown = try await cli.run(["plan", "show"])
            #expect(shown.status == 0 && shown.output.contains("uses up Spinach"), "\(shown.output)")
            // No recipe is written yet: kiwi plan shop writes them all, following their scans, then fills the list.
            let shopped = try await cli.run(["plan", "shop"])
            #expect(shopped.status == 0 && shopped.output.contains("On your list for the week:"), "\(shopped.output)")
            #expect(shopped.output.contains("(\(today) lunch)"), "\(shopped.output)")
            #expect(try await cli.run(["plan", "--days", "15"]).status != 0)
        }
    }

    @Test("kiwi plan move and remove edit the latest plan's meals, named by day and meal, and recipe prints one's full recipe")
    func planEditCommands() async throws {
        try await SystemRig.run { rig in
            let cli = try CLI(server: rig.gateway)
            #expect(try await cli.logIn().status == 0)
            let today = CalendarDay(utc: Date())
            #expect(try await cli.run(["plan", "--days", "2", "--from", "\(today)"]).status == 0)
            let moved = try await cli.run(["plan", "move", "\(today)", "dinner", "--to", "\(today.adding(days: 1))"])
            #expect(moved.status == 0, "\(moved.output)")
            #expect(moved.output.contains("\(today) dinner: Mushroom risotto"), "\(moved.output)")
            #expect(moved.output.contains("\(today.adding(days: 1)) dinner: Lemon chicken traybake"), "\(moved.output)")
            let removed = try await cli.run(["plan", "remove", "\(today)", "dinner"])
            #expect(removed.output.contains("\(today) dinner: nothing planned: You removed this meal."), "\(removed.output)")
            let missing = try await cli.run(["plan", "remove", "\(today)", "lunch"])
            #expect(missing.status != 0 && missing.output.contains("has no lunch on \(today)"), "\(missing.output)")
            let recipe = try await cli.run(["plan", "recipe", "\(today.adding(days: 1))", "dinner"])
            #expect(recipe.status == 0 && recipe.output.contains(" min, ") && recipe.output.contains("  - "), "\(recipe.output)")
            let empty = try await cli.run(["plan", "recipe", "\(today)", "dinner"])
            #expect(empty.status != 0 && empty.output.contains("This meal is empty"), "\(empty.output)")
        }
    }

    @Test("a plan of an empty pantry plans meals to shop for, and says the pantry was empty")
    func emptyPantryStillPlans() async throws {
        try await SystemRig.run { rig in
            let cli = try CLI(server: rig.gateway)
            #expect(try await cli.logIn().status == 0)
            let client = try Self.client(server: rig.gateway, of: cli)
            let asked = try await client.createPlan(body: .json(.init(days: 2, meals: [.lunch, .dinner])))
            let plan = try await Self.outlined(try asked.accepted.body.json.id, by: client)
            #expect(plan.status == .ready && plan.pantryWasEmpty)
            #expect(plan.schedule?.map(\.meal) == [.lunch, .dinner, .lunch, .dinner])
            #expect(plan.schedule?.allSatisfy { $0.outline?.usesUp == [] } == true)
        }
    }

    @Test("a plan of more than 14 days, or more than three meals a day, is 400 and costs nothing")
    func tooLongOrTooManyMealsIsRefused() async throws {
        try await SystemRig.run { rig in
            let cli = try CLI(server: rig.gateway)
            #expect(try await cli.logIn().status == 0)
            let client = try Self.client(server: rig.gateway, of: cli)
            let long = try await client.createPlan(body: .json(.init(days: 15)))
            #expect(try long.badRequest.body.json.error == "bad_request")
            let many = try await client.createPlan(body: .json(.init(meals: [.breakfast, .lunch, .dinner, .dinner])))
            #expect(try many.badRequest.body.json.message.contains("three meals a day"))
            #expect(try await cli.scansLeft() == 4)
        }
    }

    @Test("a plan's calendar feed parses with icalendar, an event per meal at the profile's meal time in its zone; revoked, it is gone")
    func calendarFeedRoundTrips() async throws {
        let python = try testTool("KIWI_TEST_PYTHON")
        let reader = ServiceProcess.checkout.appending(path: "Tests/Scripts/read_calendar.py").path
        try await SystemRig.run { rig in
            let token = try await rig.signIn()
            let profile = Array(#"{"mealTimes": {"dinner": "18:30"}, "timeZone": "Europe/Berlin"}"#.utf8)
            #expect(try await rig.send(.PUT, "/v1/profile", token: token, contentType: "application/json", body: profile).status == 200)
            let body = Array(#"{"from": "2026-12-30", "days": 3, "meals": ["lunch", "dinner"]}"#.utf8)
            let asked = try await rig.send(.POST, "/v1/plans", token: token, contentType: "application/json", body: body)
            let id = try #require(try asked.json()["id"] as? String)
            let plan = try await Self.outlined(id, by: KiwiAPI.client(serverURL: rig.gateway, sessionToken: token))
            let schedule = try #require(plan.schedule)
            let made = try await rig.send(.POST, "/v1/plans/\(id)/calendar", token: token)
            #expect(made.status == 201)
            let link = try KiwiJSON.decoder().decode(PlanCalendarLink.self, from: made.body).url

            let feed = try await rig.send(.GET, link.path)
            #expect(feed.status == 200 && feed.headers.first(name: "Content-Type") == "text/calendar; charset=utf-8")
            let run = try await runProgram(python, [reader], input: feed.body)
            try #require(run.status == 0, "\(run.output)")
            let events = try JSONDecoder().decode([[String: String]].self, from: Data(run.output.utf8))
            #expect(events.map { $0["uid"] } == schedule.map { "\($0.id)@kiwi" })
            #expect(events.map { $0["summary"] } == schedule.map { $0.outline?.name })
            // Berlin is an hour ahead of UTC in winter: lunch at the standard 12:30, dinner at the profile's 18:30.
            #expect(events.prefix(2).map { $0["start"] } == ["2026-12-30T11:30:00Z", "2026-12-30T17:30:00Z"])
            #expect(events.allSatisfy { $0["url"]?.hasSuffix("/v1/plans/\(id)") == true })

            #expect(try await rig.send(.DELETE, "/v1/plans/\(id)/calendar", token: token).status == 204)
            #expect(try await rig.send(.GET, link.path).status == 404)
        }
    }

    @Test("a meal moved onto another exchanges places with it, and a removed meal is empty, as PostgreSQL keeps them")
    func editsAreKept() async throws {
        try await SystemRig.run { rig in
            let token = try await rig.signIn()
            let asked = try await rig.send(.POST, "/v1/plans", token: token, contentType: "application/json", body: Array(#"{"days": 2}"#.utf8))
            let id = try #require(try asked.json()["id"] as? String)
            let client = KiwiAPI.client(serverURL: rig.gateway, sessionToken: token)
            let meals = try #require(try await Self.outlined(id, by: client).schedule)
            let body = Array(#"{"date": "\#(meals[1].date)"}"#.utf8)
            let moved = try await rig.send(.PATCH, "/v1/plans/\(id)/meals/\(meals[0].id)", token: token, contentType: "application/json", body: body)
            #expect(moved.status == 200, "\(String(decoding: moved.body, as: UTF8.self))")
            #expect(try await rig.send(.DELETE, "/v1/plans/\(id)/meals/\(meals[1].id)", token: token).status == 204)
            let kept = try #require(try await client.getPlan(path: .init(id: id)).ok.body.json.schedule)
            #expect(kept.map(\.id) == [meals[1].id, meals[0].id])
            #expect(kept.map(\.outline?.name) == [nil, meals[0].outline?.name] && kept[0].emptyReason == "You removed this meal.")
        }
    }

    @Test("an opened meal's recipe is streamed by a free scan of its own, kept and read back; all at once writes the rest, once")
    func mealRecipesAreWritten() async throws {
        try await SystemRig.run { rig in
            let cli = try CLI(server: rig.gateway)
            #expect(try await cli.logIn().status == 0)
            let today = CalendarDay(utc: Date())
            #expect(try await cli.run(["pantry", "add", "Spinach", "--best-before", "\(today.adding(days: 1))"]).status == 0)
            let client = try Self.client(server: rig.gateway, of: cli)
            let token = try #require(try JSONDecoder().decode([String: String].self, from: Data(contentsOf: cli.sessionFile))["sessionToken"])
            let spinach = try #require(try await client.listPantry(query: .init(limit: 100)).ok.body.json.items.first)
            let asked = try await client.createPlan(body: .json(.init(from: "\(today)", days: 2, meals: [.dinner], servings: 3)))
            let plan = try await Self.outlined(try asked.accepted.body.json.id, by: client)
            let meals = try #require(plan.schedule)
            #expect(meals.first?.outline?.usesUp == [spinach.id])

            let path = "/v1/plans/\(plan.id)/meals/\(meals[0].id)"
            let opened = try await rig.send(.GET, path, token: token)
            #expect(opened.status == 202, "\(String(decoding: opened.body, as: UTF8.self))")
            let scan = try #require(opened.headers.first(name: "Location"))
            let events = serverSentEvents(in: String(decoding: try await rig.send(.GET, scan + "/events", token: token).body, as: UTF8.self))
            // Its elements stream as the worker checks them, unless the scan ends before the stream opens: the result,
            // which is always the last event, holds the one recipe either way.
            let result = try #require(events.last?["data"].map { try JSONSerialization.jsonObject(with: Data($0.utf8)) } as? [String: Any])
            #expect(events.last?["event"] == "result" && ((result["result"] as? [String: Any])?["recipes"] as? [Any])?.count == 1, "\(events)")
            let request = try #require(rig.stub.snapshot.recent.last)
            #expect(request.parameters.schemaName == "kiwi_meal_recipe" && request.parameters.mostRecipes == 1)
            #expect(request.parameters.userTexts.first?.contains(#""name":"\#(meals[0].outline?.name ?? "")""#) == true)
            #expect(request.parameters.userTexts.first?.contains("Spinach") == true)

            let written = try await rig.send(.GET, path, token: token)
            #expect(written.status == 200, "\(String(decoding: written.body, as: UTF8.self))")
            let recipe = try #require(try written.json()["recipe"] as? [String: Any])
            #expect(try written.json()["status"] as? String == "ready" && recipe["usesUp"] as? [String] == [spinach.id])
            #expect((recipe["ingredients"] as? [Any])?.isEmpty == false)

            let all = try await rig.send(.POST, "/v1/plans/\(plan.id)/recipes", token: token)
            #expect(all.status == 202, "\(String(decoding: all.body, as: UTF8.self))")
            let deadline = ContinuousClock.now + .seconds(60)
            var again = try await rig.send(.POST, "/v1/plans/\(plan.id)/recipes", token: token)
            while again.status == 202 && ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(200))
                again = try await rig.send(.POST, "/v1/plans/\(plan.id)/recipes", token: token)
            }
            let listed = try #require(try again.json()["meals"] as? [[String: Any]])
            #expect(again.status == 200 && listed.map { $0["status"] as? String } == ["ready", "ready"])
            #expect(rig.stub.snapshot.recent.filter { $0.parameters.schemaName == "kiwi_meal_recipe" }.count == 2)
            #expect(try await cli.scansLeft() == 3, "a plan's recipes are included in its price")

            let shopped = try await cli.run(["plan", "shop", "--plan", plan.id])
            #expect(shopped.status == 0 && shopped.output.contains("On your list for the week:"), "\(shopped.output)")
            let list = try await client.getShoppingList().ok.body.json.sections.flatMap(\.items)
            #expect(!list.isEmpty && list.allSatisfy { !$0.forRecipes.isEmpty })
            #expect(list.contains { $0.forRecipes.contains { $0.hasSuffix("(\(meals[0].date) dinner)") } }, "\(list)")
        }
    }

    @Test("kiwi plan replace asks for another meal: one whose main ingredient is the day before's fails, not counted, and changes nothing")
    func replacementIsHeldToThePlan() async throws {
        try await SystemRig.run { rig in
            let cli = try CLI(server: rig.gateway)
            #expect(try await cli.logIn().status == 0)
            let today = CalendarDay(utc: Date())
            #expect(try await cli.run(["plan", "--days", "2", "--from", "\(today)"]).status == 0)
            let second = today.adding(days: 1)
            #expect(try await cli.run(["plan", "recipe", "\(second)", "dinner"]).status == 0)
            let before = try await Self.client(server: rig.gateway, of: cli).listPlans().ok.body.json.plans.first?.schedule
            // The stub plans the one slot with its first meal, chicken, as the day before: held to the plan, twice.
            let replaced = try await cli.run(["plan", "replace", "\(second)", "dinner"])
            #expect(replaced.status != 0, "\(replaced.output)")
            #expect(replaced.output.contains("not counted") && replaced.output.contains("invalid_model_response"), "\(replaced.output)")
            let after = try await Self.client(server: rig.gateway, of: cli).listPlans().ok.body.json.plans.first?.schedule
            #expect(after == before)
            #expect(rig.stub.snapshot.recent.last?.parameters.userTexts.first?.contains(#"It replaces "Mushroom risotto""#) == true)
            let recipe = try await cli.run(["plan", "recipe", "\(second)", "dinner"])
            #expect(recipe.status == 0, "the meal keeps its recipe: \(recipe.output)")
            #expect(try await cli.scansLeft() == 3, "a failed replacement is not counted")
        }
    }

    /// A client signed in as `cli`'s user.
    static func client(server: URL, of cli: CLI) throws -> Client {
        let session = try JSONDecoder().decode([String: String].self, from: Data(contentsOf: cli.sessionFile))
        return KiwiAPI.client(serverURL: server, sessionToken: try #require(session["sessionToken"]))
    }

    /// Plan `id` once it is no longer `planning`.
    static func outlined(_ id: String, by client: Client) async throws -> Components.Schemas.MealPlan {
        let deadline = ContinuousClock.now + .seconds(60)
        while true {
            let plan = try await client.getPlan(path: .init(id: id)).ok.body.json
            if plan.status != .planning || ContinuousClock.now > deadline { return plan }
            try await Task.sleep(for: .milliseconds(100))
        }
    }
}
