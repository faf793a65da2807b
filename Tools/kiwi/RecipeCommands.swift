import ArgumentParser
import Foundation
import KiwiAPIClient
import OpenAPIRuntime

/// `kiwi save SCAN RECIPE`: keeps a recipe of a scan in the recipe box.
struct Save: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Keep a recipe of one of your scans in your recipe box.",
        discussion: "SCAN is a scan id (`kiwi scans`); RECIPE is the id of one of its recipes (`kiwi scan --json`)."
    )

    @OptionGroup var server: ServerOptions
    @Argument(help: "The scan's id.") var scan: String
    @Argument(help: "The recipe's id.") var recipe: String

    func run() async throws {
        try await runReportingErrors {
            let (client, _) = try signedInClient(server)
            let saved: Components.Schemas.SavedRecipe
            switch try await client.saveRecipe(body: .json(.init(scanId: scan, recipeId: recipe))) {
            case .created(let created): saved = try created.body.json
            case .ok(let earlier):
                saved = try earlier.body.json
                print("Already in your recipe box.")
            case .badRequest(let answer): throw sentence(try answer.body.json, status: 400)
            case .unauthorized(let answer): throw sentence(try answer.body.json, status: 401)
            case .notFound(let answer): throw sentence(try answer.body.json, status: 404)
            case .conflict(let answer): throw sentence(try answer.body.json, status: 409)
            case .serviceUnavailable(let answer): throw sentence(try answer.body.json, status: 503)
            case .internalServerError(let answer): throw sentence(try answer.body.json, status: 500)
            case .undocumented(let status, _): throw CLIError("Kiwi answered an unexpected HTTP \(status).")
            }
            print("Saved \(saved.recipe.name) as \(saved.id).")
        }
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
            case .badRequest(let answer): throw sentence(try answer.body.json, status: 400)
            case .unauthorized(let answer): throw sentence(try answer.body.json, status: 401)
            case .serviceUnavailable(let answer): throw sentence(try answer.body.json, status: 503)
            case .internalServerError(let answer): throw sentence(try answer.body.json, status: 500)
            case .undocumented(let status, _): throw CLIError("Kiwi answered an unexpected HTTP \(status).")
            }
            guard !page.recipes.isEmpty else {
                print(query == nil ? "Your recipe box is empty. Keep a recipe with `kiwi save SCAN RECIPE`." : "No saved recipe matches.")
                return
            }
            for saved in page.recipes {
                let rating = saved.rating.map { "  " + String(repeating: "★", count: $0) } ?? ""
                print("\(saved.id)  \(saved.recipe.name) (\(saved.recipe.cookTimeMinutes) min)\(rating)")
            }
        }
    }
}

/// `kiwi share ID`: the link of a saved recipe's public page, or `--withdraw` to take it down.
struct Share: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Share a saved recipe as a public page and print its link.")

    @OptionGroup var server: ServerOptions
    @Argument(help: "The saved recipe's id (`kiwi recipes`).") var id: String
    @Flag(help: "Take the page down instead: its link stops working.") var withdraw = false

    func run() async throws {
        try await runReportingErrors {
            let (client, _) = try signedInClient(server)
            if withdraw {
                switch try await client.unshareRecipe(path: .init(id: id)) {
                case .noContent: print("The page is withdrawn; its link no longer works.")
                case .unauthorized(let answer): throw sentence(try answer.body.json, status: 401)
                case .notFound(let answer): throw sentence(try answer.body.json, status: 404)
                case .serviceUnavailable(let answer): throw sentence(try answer.body.json, status: 503)
                case .internalServerError(let answer): throw sentence(try answer.body.json, status: 500)
                case .undocumented(let status, _): throw CLIError("Kiwi answered an unexpected HTTP \(status).")
                }
                return
            }
            let link: Components.Schemas.RecipeShareLink
            switch try await client.shareRecipe(path: .init(id: id)) {
            case .created(let created): link = try created.body.json
            case .ok(let existing): link = try existing.body.json
            case .unauthorized(let answer): throw sentence(try answer.body.json, status: 401)
            case .notFound(let answer): throw sentence(try answer.body.json, status: 404)
            case .serviceUnavailable(let answer): throw sentence(try answer.body.json, status: 503)
            case .internalServerError(let answer): throw sentence(try answer.body.json, status: 500)
            case .undocumented(let status, _): throw CLIError("Kiwi answered an unexpected HTTP \(status).")
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
    @Argument(help: "The saved recipe's id (`kiwi recipes`).") var id: String
    @Option(help: "jsonld or text.") var format = Format.jsonld

    func run() async throws {
        try await runReportingErrors {
            let (client, _) = try signedInClient(server)
            let accept: Operations.GetRecipe.AcceptableContentType = format == .jsonld ? .applicationLdJson : .plainText
            let body: HTTPBody
            switch try await client.getRecipe(path: .init(id: id), headers: .init(accept: [.init(contentType: accept)])) {
            case .ok(let ok):
                switch ok.body {
                case .applicationLdJson(let document): body = try HTTPBody(JSONEncoder().encode(document))
                case .plainText(let text): body = text
                case .json: throw CLIError("Kiwi answered JSON instead of \(format.rawValue).")
                }
            case .unauthorized(let answer): throw sentence(try answer.body.json, status: 401)
            case .notFound(let answer): throw sentence(try answer.body.json, status: 404)
            case .notAcceptable(let answer): throw sentence(try answer.body.json, status: 406)
            case .serviceUnavailable(let answer): throw sentence(try answer.body.json, status: 503)
            case .internalServerError(let answer): throw sentence(try answer.body.json, status: 500)
            case .undocumented(let status, _): throw CLIError("Kiwi answered an unexpected HTTP \(status).")
            }
            print(try await String(collecting: body, upTo: 1 << 20), terminator: "")
        }
    }
}
