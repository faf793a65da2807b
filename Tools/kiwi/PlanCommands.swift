import ArgumentParser
import Foundation
import KiwiAPIClient
import KiwiModels

/// `kiwi plan`: a plan of the days ahead from the pantry, the soonest to use first (docs/architecture.md, "Meal
/// plans"); `kiwi plan show` prints one again.
struct PlanCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plan",
        abstract: "Plan the days ahead from your pantry, what to use soonest first. Counts as a scan.",
        subcommands: [Make.self, Show.self],
        defaultSubcommand: Make.self
    )

    /// `kiwi plan [--days N] [--meals M…] [--from DAY] [--servings N]`: asks for a plan, follows its scan, prints it.
    struct Make: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "make", abstract: "Ask for a plan and print it once it is outlined.")

        @OptionGroup var server: ServerOptions
        @Option(help: "How many days, 1 to 14.") var days = 7
        @Option(parsing: .upToNextOption, help: "The meals of each day: breakfast, lunch, dinner.") var meals: [String] = ["dinner"]
        @Option(help: "The first day, yyyy-MM-dd; today by default.") var from: String?
        @Option(help: "For how many people, 1 to 12; your profile's servings by default, else 2.") var servings: Int?
        @Flag(help: "Print the plan as JSON.") var json = false

        func run() async throws {
            try await runReportingErrors {
                let (client, _, session) = try signedInSession(server)
                let times = try meals.map { name in
                    guard let meal = Components.Schemas.MealTime(rawValue: name) else {
                        throw CLIError("\(name) is not a meal; say breakfast, lunch or dinner.")
                    }
                    return meal
                }
                let asked: Components.Schemas.MealPlan
                switch try await client.createPlan(body: .json(.init(from: from, days: days, meals: times, servings: servings))) {
                case .accepted(let accepted): asked = try accepted.body.json
                case let other: throw failure(other)
                }
                let progress = json ? nil : ProgressLine()
                if asked.status == .planning {
                    _ = try await ScanFollower(session: session, progress: progress).result(of: asked.id)
                }
                try await PlanCommand.print(try await PlanCommand.plan(asked.id, client: client), json: json, client: client)
            }
        }
    }

    /// `kiwi plan show [ID]`: a plan, by default the latest made with a day in the next two weeks.
    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print a plan: by default the latest made with a day in the next two weeks.")

        @OptionGroup var server: ServerOptions
        @Argument(help: "The plan's id.") var id: String?
        @Flag(help: "Print the plan as JSON.") var json = false

        func run() async throws {
            try await runReportingErrors {
                let (client, _) = try signedInClient(server)
                let id: String
                if let given = self.id {
                    id = try IDArgument.plan(given)
                } else {
                    let plans: [Components.Schemas.MealPlan]
                    switch try await client.listPlans() {
                    case .ok(let ok): plans = try ok.body.json.plans
                    case let other: throw failure(other)
                    }
                    guard let latest = plans.max(by: { $0.createdAt < $1.createdAt }) else {
                        throw CLIError("You have no plan for the next two weeks. Make one: kiwi plan --days 7")
                    }
                    id = latest.id
                }
                try await PlanCommand.print(try await PlanCommand.plan(id, client: client), json: json, client: client)
            }
        }
    }

    static func plan(_ id: String, client: Client) async throws -> Components.Schemas.MealPlan {
        switch try await client.getPlan(path: .init(id: id)) {
        case .ok(let ok): return try ok.body.json
        case let other: throw failure(other)
        }
    }

    /// The plan as text, a line a meal with the pantry items it uses up by name; or as JSON.
    static func print(_ plan: Components.Schemas.MealPlan, json: Bool, client: Client) async throws {
        guard !json else {
            Swift.print(String(decoding: try JSONEncoder.iso8601.encode(plan), as: UTF8.self))
            return
        }
        guard let schedule = plan.schedule else {
            throw plan.error.map { sentence($0, status: 200) } ?? CLIError("The plan is still being made; see it with `kiwi plan show \(plan.id)`.")
        }
        let names = Dictionary(try await Pantry.allItems(client).map { ($0.id, $0.name) }) { first, _ in first }
        Swift.print("Plan \(plan.id) from \(plan.from), \(plan.days) days, for \(plan.servings):")
        for meal in schedule {
            let what =
                meal.outline.map { outline in
                    let used = outline.usesUp.compactMap { names[$0] }
                    return "\(outline.name) (\(outline.cookTimeMinutes) min)" + (used.isEmpty ? "" : "; uses up \(used.joined(separator: ", "))")
                } ?? "nothing planned: \(meal.emptyReason ?? "")"
            Swift.print("\(meal.date) \(meal.meal.rawValue): \(what)")
        }
        if plan.pantryWasEmpty { hint("Your pantry was empty: every meal is to shop for.") }
    }
}
