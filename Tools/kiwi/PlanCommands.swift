import ArgumentParser
import Foundation
import KiwiAPIClient
import KiwiModels

/// `kiwi plan`: a plan of the days ahead from the pantry, the soonest to use first (docs/architecture.md, "Meal
/// plans"); `kiwi plan show` prints one again; `move`, `swap`, `replace` and `remove` edit one of its meals; `recipe`
/// prints a meal's full recipe; `shop` puts the week on the shopping list.
struct PlanCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plan",
        abstract: "Plan the days ahead from your pantry, what to use soonest first. Counts as a scan.",
        subcommands: [Make.self, Show.self, Move.self, Swap.self, Replace.self, Remove.self, MealRecipe.self, Shop.self],
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
                let times = try meals.map(PlanCommand.mealTime)
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
                try await PlanCommand.print(
                    try await PlanCommand.plan(try await PlanCommand.id(id, client: client), client: client),
                    json: json,
                    client: client
                )
            }
        }
    }

    /// A meal of a plan, by its day and meal: `2026-12-01 dinner`.
    struct MealOptions: ParsableArguments {
        @Argument(help: "The meal's day, yyyy-MM-dd.") var day: String
        @Argument(help: "The meal: breakfast, lunch or dinner.") var meal: String
        @Option(help: "The plan's id; by default the latest made with a day in the next two weeks.") var plan: String?

        /// The plan and the id of the meal named.
        func resolved(_ client: Client) async throws -> (plan: String, meal: String) {
            let plan = try await PlanCommand.plan(try await PlanCommand.id(self.plan, client: client), client: client)
            guard let found = plan.schedule?.first(where: { $0.date == day && $0.meal.rawValue == meal }) else {
                throw CLIError("Plan \(plan.id) has no \(meal) on \(day); see its meals with `kiwi plan show \(plan.id)`.")
            }
            return (plan.id, found.id)
        }
    }

    /// `kiwi plan move DAY MEAL --to DAY [--as MEAL]`: moves a meal, exchanging it with the meal there.
    struct Move: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Move a meal to another day or meal of its plan; a meal there takes its place.")

        @OptionGroup var server: ServerOptions
        @OptionGroup var meal: MealOptions
        @Option(help: "The day to move it to, yyyy-MM-dd; its own by default.") var to: String?
        @Option(name: .customLong("as"), help: "The meal to move it to; its own by default.") var asMeal: String?

        func run() async throws {
            try await runReportingErrors {
                guard to != nil || asMeal != nil else { throw CLIError("Say where to: --to DAY, --as MEAL, or both.") }
                let (client, _) = try signedInClient(server)
                let (plan, meal) = try await self.meal.resolved(client)
                try await PlanCommand.change(
                    plan,
                    meal: meal,
                    .init(date: to, meal: try asMeal.map(PlanCommand.mealTime), recipeId: nil),
                    client: client
                )
            }
        }
    }

    /// `kiwi plan swap DAY MEAL RECIPE`: puts a recipe of the box in a meal's place.
    struct Swap: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Put a recipe of your recipe box in a meal's place.")

        @OptionGroup var server: ServerOptions
        @OptionGroup var meal: MealOptions
        @Argument(help: "The saved recipe's id, as `kiwi recipes` lists them.") var recipe: String

        func run() async throws {
            try await runReportingErrors {
                let recipe = try IDArgument.savedRecipe(recipe)
                let (client, _) = try signedInClient(server)
                let (plan, meal) = try await self.meal.resolved(client)
                try await PlanCommand.change(plan, meal: meal, .init(recipeId: recipe), client: client)
            }
        }
    }

    /// `kiwi plan replace DAY MEAL`: asks for another meal in its place, following the scan, and prints the plan then.
    struct Replace: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Ask Kiwi for another meal in this one's place. Counts as a scan.")

        @OptionGroup var server: ServerOptions
        @OptionGroup var meal: MealOptions

        func run() async throws {
            try await runReportingErrors {
                let (client, _, session) = try signedInSession(server)
                let (plan, meal) = try await self.meal.resolved(client)
                let scan: Components.Schemas.Scan
                switch try await client.replacePlanMeal(path: .init(id: plan, mealId: meal)) {
                case .accepted(let accepted): scan = try accepted.body.json
                case .ok(let ok): scan = try ok.body.json
                case let other: throw failure(other)
                }
                _ = try await ScanFollower(session: session, progress: ProgressLine()).result(of: scan.id, startedAs: scan)
                try await PlanCommand.print(try await PlanCommand.plan(plan, client: client), json: false, client: client)
            }
        }
    }

    /// `kiwi plan remove DAY MEAL`: leaves a meal empty.
    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove a meal from its plan, leaving it empty.")

        @OptionGroup var server: ServerOptions
        @OptionGroup var meal: MealOptions

        func run() async throws {
            try await runReportingErrors {
                let (client, _) = try signedInClient(server)
                let (plan, meal) = try await self.meal.resolved(client)
                switch try await client.removePlanMeal(path: .init(id: plan, mealId: meal)) {
                case .noContent: try await PlanCommand.print(try await PlanCommand.plan(plan, client: client), json: false, client: client)
                case let other: throw failure(other)
                }
            }
        }
    }

    /// `kiwi plan recipe DAY MEAL`: a meal's full recipe, following the scan that writes it the first time.
    struct MealRecipe: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "recipe",
            abstract: "Print a meal's full recipe; Kiwi writes it the first time, included in the plan."
        )

        @OptionGroup var server: ServerOptions
        @OptionGroup var meal: MealOptions

        func run() async throws {
            try await runReportingErrors {
                let (client, _, session) = try signedInSession(server)
                let (plan, meal) = try await self.meal.resolved(client)
                var answer = try await PlanCommand.recipe(of: meal, in: plan, client: client)
                if answer.status == .writing, let scan = answer.scanId {
                    _ = try await ScanFollower(session: session, progress: ProgressLine()).result(of: scan)
                    answer = try await PlanCommand.recipe(of: meal, in: plan, client: client)
                }
                guard let recipe = answer.recipe else {
                    throw CLIError(answer.withheldReason.map { "Kiwi withheld this meal's recipe: \($0)" } ?? "The recipe is still being written.")
                }
                Swift.print(([recipe.name + " — " + ScanPrinter.headline(recipe)] + ScanPrinter.recipeBody(recipe)).joined(separator: "\n"))
            }
        }
    }

    /// `kiwi plan shop [--plan ID]`: every meal's recipe written (following their scans), then what the week needs and
    /// the pantry lacks put on the shopping list.
    struct Shop: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Put what the plan's meals need and your pantry lacks on the shopping list, writing their recipes first."
        )

        @OptionGroup var server: ServerOptions
        @Option(help: "The plan's id; by default the latest made with a day in the next two weeks.") var plan: String?

        func run() async throws {
            try await runReportingErrors {
                let (client, _, session) = try signedInSession(server)
                let plan = try await PlanCommand.id(self.plan, client: client)
                let recipes: Components.Schemas.PlanMealRecipeList
                switch try await client.writePlanRecipes(path: .init(id: plan)) {
                case .ok(let ok): recipes = try ok.body.json
                case .accepted(let accepted): recipes = try accepted.body.json
                case let other: throw failure(other)
                }
                for scan in recipes.meals.filter({ $0.status == .writing }).compactMap(\.scanId) {
                    _ = try await ScanFollower(session: session, progress: ProgressLine()).result(of: scan)
                }
                let addition: Components.Schemas.ShoppingListAddition
                switch try await client.addPlanToShoppingList(path: .init(id: plan)) {
                case .ok(let ok): addition = try ok.body.json
                case let other: throw failure(other)
                }
                for line in RecipeLines.conflicts(addition.conflicts.map(\.reason)) { Swift.print(line) }
                guard !addition.added.isEmpty else {
                    Swift.print("Nothing to buy: your pantry has all the week needs.")
                    return
                }
                Swift.print("On your list for the week:")
                for item in addition.added {
                    Swift.print(
                        "  - \(RecipeLines.ingredient(item.name, amount: item.quantity, unit: item.unit)), for \(item.forRecipes.joined(separator: "; "))"
                    )
                }
                hint("See the list: kiwi shop")
            }
        }
    }

    /// Meal `meal` of plan `plan`'s recipe as it stands, its scan started when it has none.
    static func recipe(of meal: String, in plan: String, client: Client) async throws -> Components.Schemas.PlanMealRecipe {
        switch try await client.getPlanMealRecipe(path: .init(id: plan, mealId: meal)) {
        case .ok(let ok): return try ok.body.json
        case .accepted(let accepted): return try accepted.body.json
        case let other: throw failure(other)
        }
    }

    /// Changes meal `meal` of plan `plan` as `change` says, and prints the plan as it is then.
    static func change(_ plan: String, meal: String, _ change: Components.Schemas.PlanMealChange, client: Client) async throws {
        switch try await client.changePlanMeal(path: .init(id: plan, mealId: meal), body: .json(change)) {
        case .ok(let ok): try await print(try ok.body.json, json: false, client: client)
        case let other: throw failure(other)
        }
    }

    /// The id of plan `given`, checked; by default the latest made with a day in the next two weeks.
    static func id(_ given: String?, client: Client) async throws -> String {
        if let given { return try IDArgument.plan(given) }
        let plans: [Components.Schemas.MealPlan]
        switch try await client.listPlans() {
        case .ok(let ok): plans = try ok.body.json.plans
        case let other: throw failure(other)
        }
        guard let latest = plans.max(by: { $0.createdAt < $1.createdAt }) else {
            throw CLIError("You have no plan for the next two weeks. Make one: kiwi plan --days 7")
        }
        return latest.id
    }

    /// A meal's name as the API spells it.
    static func mealTime(_ name: String) throws -> Components.Schemas.MealTime {
        guard let meal = Components.Schemas.MealTime(rawValue: name) else { throw CLIError("\(name) is not a meal; say breakfast, lunch or dinner.") }
        return meal
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
                    let from = meal.recipeId == nil ? "" : ", from your recipe box"
                    return "\(outline.name) (\(outline.cookTimeMinutes) min\(from))"
                        + (used.isEmpty ? "" : "; uses up \(used.joined(separator: ", "))")
                } ?? "nothing planned: \(meal.emptyReason ?? "")"
            Swift.print("\(meal.date) \(meal.meal.rawValue): \(what)")
        }
        if plan.pantryWasEmpty { hint("Your pantry was empty: every meal is to shop for.") }
    }
}
