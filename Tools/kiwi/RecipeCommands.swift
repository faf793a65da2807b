import ArgumentParser
import Foundation
import KiwiAPIClient
import OpenAPIRuntime

/// `kiwi save SCAN RECIPE`: keeps a recipe of a scan in the recipe box. RECIPE is the number `kiwi scan` printed
/// before it, or its id; a number is looked up in the scan (`GET /v1/scans/{id}`) and the recipe saved by its id.
struct Save: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Keep a recipe of one of your scans in your recipe box.",
        discussion: "SCAN is a scan id, as `kiwi scan` and `kiwi scans` print it. RECIPE is the recipe's number in the scan's "
            + "answer ([1], [2]… in `kiwi scan`), or the recipe's id (`kiwi scan --json`)."
    )

    /// RECIPE: a recipe's number in the scan's answer, from 1, or the recipe's id.
    enum Choice {
        case number(Int)
        case id(String)

        init(_ text: String) throws {
            if let number = Int(text), number >= 1 {
                self = .number(number)
            } else if let id = UUID(uuidString: text) {
                self = .id(id.uuidString.lowercased())
            } else {
                throw ValidationError(
                    "RECIPE must be a recipe number from the scan (1, 2, …, as `kiwi scan` numbers them) or a recipe id (a UUID); "
                        + "'\(text)' is neither. Run `kiwi scan --resume SCAN` to see them."
                )
            }
        }
    }

    @OptionGroup var server: ServerOptions
    @Argument(help: .init("The scan's id (`kiwi scans`).", valueName: "SCAN")) var scan: String
    @Argument(help: .init("The recipe's number in the scan's answer, or its id.", valueName: "RECIPE")) var recipe: String

    func validate() throws {
        _ = try IDArgument.scan(scan)
        _ = try Choice(recipe)
    }

    func run() async throws {
        try await runReportingErrors {
            let (client, _) = try signedInClient(server)
            let scanID = try IDArgument.scan(scan)
            let recipeID =
                switch try Choice(recipe) {
                case .id(let id): id
                case .number(let number): try await Self.recipeID(number: number, of: scanID, client: client)
                }
            let saved: Components.Schemas.SavedRecipe
            switch try await client.saveRecipe(body: .json(.init(scanId: scanID, recipeId: recipeID))) {
            case .created(let created): saved = try created.body.json
            case .ok(let earlier):
                saved = try earlier.body.json
                print("Already in your recipe box.")
            case let other: throw failure(other)
            }
            print("Saved \(saved.recipe.name) as \(saved.id).")
            hint("Share it: kiwi share \(saved.id); export it: kiwi export \(saved.id)")
        }
    }

    /// The id of the scan's `number`th recipe; a number past its recipes is refused as a usage error, before anything is
    /// saved.
    static func recipeID(number: Int, of scanID: String, client: Client) async throws -> String {
        let scan: Components.Schemas.Scan
        switch try await client.getScan(path: .init(id: scanID)) {
        case .ok(let ok): scan = try ok.body.json
        case let other: throw failure(other)
        }
        switch scan.status {
        case .queued, .running: throw CLIError("Scan \(scanID) has not finished; follow it with `kiwi scan --resume \(scanID)`.")
        case .failed: throw CLIError("Scan \(scanID) failed; it has no recipes to save.")
        case .succeeded: break
        }
        guard let recipes = scan.result?.recipes else { throw CLIError("Scan \(scanID)'s result is no longer kept; its recipes cannot be saved.") }
        guard !recipes.isEmpty else { throw CLIError("Scan \(scanID) has no recipes to save.") }
        guard number <= recipes.count else {
            let range = recipes.count == 1 ? "1" : "1–\(recipes.count)"
            throw CLIError(
                "RECIPE must be a recipe number from the scan (\(range)) or a recipe id (a UUID); run `kiwi scan --resume \(scanID)` to see them.",
                status: ExitCode.validationFailure.rawValue
            )
        }
        return recipes[number - 1].id
    }
}

/// `kiwi recipes`: the recipe box, newest first.
struct Recipes: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List your saved recipes, newest first.")

    @OptionGroup var server: ServerOptions
    @Option(name: [.short, .long], help: "Only recipes whose name or ingredients contain this.") var query: String?
    @Option(help: "How many recipes to list (1–100).") var limit = 20

    func run() async throws {
        try await runReportingErrors {
            let (client, _) = try signedInClient(server)
            let page: Components.Schemas.SavedRecipeList
            switch try await client.listRecipes(query: .init(limit: limit, q: query)) {
            case .ok(let ok): page = try ok.body.json
            case let other: throw failure(other)
            }
            guard !page.recipes.isEmpty else {
                print(query == nil ? "Your recipe box is empty." : "No saved recipe matches.")
                if query == nil { hint("Keep a recipe of a scan: kiwi save <scan-id> <number>") }
                return
            }
            for saved in page.recipes {
                let rating = saved.rating.map { "  " + String(repeating: "★", count: $0) } ?? ""
                print("\(saved.id)  \(saved.recipe.name) (\(saved.recipe.cookTimeMinutes) min)\(rating)")
            }
            if page.nextCursor != nil { hint("More recipes are kept than these; --limit lists up to 100, --query narrows them.") }
            hint("Share one: kiwi share <id>; export one: kiwi export <id>")
        }
    }
}

/// `kiwi share ID`: the link of a saved recipe's public page, or `--withdraw` to take it down.
struct Share: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Share a saved recipe as a public page and print its link.")

    @OptionGroup var server: ServerOptions
    @Argument(help: .init("The saved recipe's id (`kiwi recipes`).", valueName: "ID")) var id: String
    @Flag(help: "Take the page down instead: its link stops working.") var withdraw = false

    func validate() throws {
        _ = try IDArgument.savedRecipe(id)
    }

    func run() async throws {
        try await runReportingErrors {
            let (client, _) = try signedInClient(server)
            let id = try IDArgument.savedRecipe(self.id)
            if withdraw {
                switch try await client.unshareRecipe(path: .init(id: id)) {
                case .noContent: print("The page is withdrawn; its link no longer works.")
                case let other: throw failure(other)
                }
                return
            }
            let link: Components.Schemas.RecipeShareLink
            switch try await client.shareRecipe(path: .init(id: id)) {
            case .created(let created): link = try created.body.json
            case .ok(let existing): link = try existing.body.json
            case let other: throw failure(other)
            }
            print(link.url)
        }
    }
}

/// `kiwi export ID`: a saved recipe as schema.org JSON-LD for another recipe app, or as text.
struct Export: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print a saved recipe as schema.org JSON-LD (for recipe apps such as Mealie or Tandoor) or as text."
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case jsonld
        case text
    }

    @OptionGroup var server: ServerOptions
    @Argument(help: .init("The saved recipe's id (`kiwi recipes`).", valueName: "ID")) var id: String
    @Option(help: "jsonld or text.") var format = Format.jsonld
    @OptionGroup var scaling: ScalingOptions

    func validate() throws {
        _ = try IDArgument.savedRecipe(id)
    }

    func run() async throws {
        try await runReportingErrors {
            let (client, _) = try signedInClient(server)
            let id = try IDArgument.savedRecipe(self.id)
            let accept: Operations.GetRecipe.AcceptableContentType = format == .jsonld ? .applicationLdJson : .plainText
            let body: HTTPBody
            switch try await SavedRecipeForm.fetch(id, as: accept, scaling: scaling, client: client) {
            case .applicationLdJson(let document): body = try HTTPBody(JSONEncoder().encode(document))
            case .plainText(let text): body = text
            case .json: throw CLIError("Kiwi answered JSON instead of \(format.rawValue).")
            }
            print(try await String(collecting: body, upTo: 1 << 20), terminator: "")
        }
    }
}

/// `--servings` and `--units`: a saved recipe scaled and converted by the gateway (`GET /v1/recipes/{id}?servings=&units=`),
/// which refuses both for a recipe saved before Kiwi wrote quantities.
struct ScalingOptions: ParsableArguments {
    enum Units: String, ExpressibleByArgument, CaseIterable {
        case metric
        case us
    }

    @Option(help: "Scale the recipe to this many servings (1–24).") var servings: Int?
    @Option(help: "Show the amounts in metric or us units.") var units: Units?

    func validate() throws {
        if let servings, !(1...24).contains(servings) { throw ValidationError("--servings must be a whole number from 1 to 24.") }
    }

    var query: Operations.GetRecipe.Input.Query {
        .init(servings: servings, units: units.flatMap { .init(rawValue: $0.rawValue) })
    }
}

/// A saved recipe in one of the forms `GET /v1/recipes/{id}` answers, scaled as asked; an error answer as a sentence.
enum SavedRecipeForm {
    static func fetch(
        _ id: String,
        as form: Operations.GetRecipe.AcceptableContentType,
        scaling: ScalingOptions,
        client: Client
    ) async throws -> Operations.GetRecipe.Output.Ok.Body {
        switch try await client.getRecipe(path: .init(id: id), query: scaling.query, headers: .init(accept: [.init(contentType: form)])) {
        case .ok(let ok): return ok.body
        case let other: throw failure(other)
        }
    }

    /// The saved recipe as the API's JSON.
    static func json(_ id: String, scaling: ScalingOptions, client: Client) async throws -> Components.Schemas.SavedRecipe {
        try await fetch(id, as: .json, scaling: scaling, client: client).json
    }
}

/// `kiwi recipe show ID`: a saved recipe on the terminal, with its amounts (scaled and converted on request), step
/// timers and nutrition per serving.
struct RecipeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recipe",
        abstract: "Show a saved recipe, scaled to other servings or units on request.",
        subcommands: [Show.self]
    )

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print a saved recipe: amounts, step timers and nutrition per serving.")

        @OptionGroup var server: ServerOptions
        @Argument(help: .init("The saved recipe's id (`kiwi recipes`).", valueName: "ID")) var id: String
        @OptionGroup var scaling: ScalingOptions

        func validate() throws {
            _ = try IDArgument.savedRecipe(id)
        }

        func run() async throws {
            try await runReportingErrors {
                let (client, _) = try signedInClient(server)
                let saved = try await SavedRecipeForm.json(try IDArgument.savedRecipe(id), scaling: scaling, client: client)
                print(ScanPrinter.savedRecipeText(saved))
                hint("Cook it step by step: kiwi cook \(saved.id)")
            }
        }
    }
}
