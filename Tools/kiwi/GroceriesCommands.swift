import ArgumentParser
import AsyncHTTPClient
import Foundation
import KiwiAPIClient
import NIOCore
import NIOHTTP1
import OpenAPIRuntime

/// `kiwi pantry`: what you have at home, kept across scans (`/v1/pantry`).
struct Pantry: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List, add to and remove from your pantry: what you have at home, kept across scans.",
        subcommands: [List.self, Add.self, AddFrom.self, Remove.self],
        defaultSubcommand: List.self
    )

    /// `kiwi pantry list`: every item, the soonest to use first.
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List your pantry, the soonest to use first.")

        @OptionGroup var server: ServerOptions
        @Option(help: "Only what is to be used within this many days (0–365), those past their day included.") var useSoon: Int?

        func validate() throws {
            if let useSoon, !(0...365).contains(useSoon) { throw ValidationError("--use-soon must be from 0 to 365 days.") }
        }

        func run() async throws {
            try await runReportingErrors {
                let (client, _) = try signedInClient(server)
                let items = try await Pantry.allItems(client, useSoon: useSoon)
                guard !items.isEmpty else {
                    if let useSoon {
                        print("Nothing in your pantry is to be used within \(useSoon) day\(useSoon == 1 ? "" : "s").")
                        return
                    }
                    print("Your pantry is empty.")
                    hint("Add what a scan found: kiwi pantry add-from <scan-id>; or one thing: kiwi pantry add <name>")
                    return
                }
                for item in items { print(Pantry.line(item)) }
            }
        }
    }

    /// `kiwi pantry add NAME`: one item by hand.
    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add one thing to your pantry by hand.",
            discussion: "A name the pantry has already (\"tomato\" and \"Tomatoes\" are one) is found again rather than added twice; "
                + "a quantity or best-before date given replaces the old one. Units: "
                + Components.Schemas.QuantityUnit.allCases.map(\.rawValue).joined(separator: ", ") + ". Categories: "
                + Components.Schemas.StoreSection.allCases.map(\.rawValue).joined(separator: ", ") + "."
        )

        @OptionGroup var server: ServerOptions
        @Argument(help: .init("What it is, e.g. \"cherry tomatoes\".", valueName: "NAME")) var name: String
        @Option(help: "How much there is (more than 0, at most 100000).") var quantity: Double?
        @Option(help: "What the quantity counts (g, ml, piece, …); only with --quantity.") var unit: String?
        @Option(help: "The date on the pack, yyyy-MM-dd.") var bestBefore: String?
        @Option(help: "Its store section; by default the one it is usually sold in.") var category: String?

        func validate() throws {
            if let unit, Components.Schemas.QuantityUnit(rawValue: unit) == nil {
                throw ValidationError(
                    "--unit must be one of " + Components.Schemas.QuantityUnit.allCases.map(\.rawValue).joined(separator: ", ")
                        + "; '\(unit)' is not."
                )
            }
            guard unit == nil || quantity != nil else { throw ValidationError("--unit says what --quantity counts; give a --quantity too.") }
        }

        func run() async throws {
            try await runReportingErrors {
                let (client, _) = try signedInClient(server)
                let item = Components.Schemas.NewPantryItem(
                    name: name,
                    quantity: quantity,
                    unit: unit.flatMap(Components.Schemas.NewPantryItem.UnitPayload.init(rawValue:)),
                    bestBefore: bestBefore,
                    category: category
                )
                switch try await client.addToPantry(body: .json(.NewPantryItem(item))) {
                case .created(let created): print("Added \(Pantry.line(try created.body.json))")
                case .ok(let found):
                    guard case .PantryItem(let item) = try found.body.json else { throw CLIError("Kiwi answered a list instead of the item.") }
                    print("Already in your pantry, updated: \(Pantry.line(item))")
                case let other: throw failure(other)
                }
            }
        }
    }

    /// `kiwi pantry add-from SCAN`: a scan's confirmed ingredients, or a receipt scan's food lines (`--lines 1,2,5`:
    /// some of them, by the numbers `kiwi scan --receipt` prints), in one step.
    struct AddFrom: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add-from",
            abstract: "Add the ingredients of one of your scans (or of a refinement of it), or a receipt's food, to your pantry.",
            discussion: "Adding a scan twice, or an ingredient the pantry has already, adds nothing twice. What a receipt says was bought "
                + "adds to what your pantry holds."
        )

        @OptionGroup var server: ServerOptions
        @Argument(help: .init("The scan's id (`kiwi scans`, `kiwi scans --receipts`).", valueName: "SCAN")) var scan: String
        @Option(
            parsing: .upToNextOption,
            help: .init("Of a receipt, only these lines, by the numbers `kiwi scan --receipt` prints (1,2,5 or 1 2 5).", valueName: "N")
        ) var lines: [String] = []
        @Flag(help: "Add a receipt even if another scan of the same receipt went into your pantry (you bought the same twice).") var again = false

        func validate() throws {
            _ = try IDArgument.scan(scan)
            _ = try numbers()
        }

        /// The line numbers asked for, from 1.
        private func numbers() throws -> [Int] {
            try lines.flatMap { $0.split(separator: ",") }.map { text in
                guard let number = Int(text.trimmingCharacters(in: .whitespaces)), number >= 1 else {
                    throw ValidationError("--lines takes line numbers from 1, as `kiwi scan --receipt` prints them; '\(text)' is not one.")
                }
                return number
            }
        }

        func run() async throws {
            try await runReportingErrors {
                let (client, _) = try signedInClient(server)
                let scanID = try IDArgument.scan(scan)
                let lineIDs = lines.isEmpty ? nil : try await Self.lineIDs(try numbers(), of: scanID, client: client)
                let body = Components.Schemas.PantryScanAddition(scanId: scanID, lines: lineIDs)
                switch try await client.addToPantry(query: .init(again: again), body: .json(.PantryScanAddition(body))) {
                case .ok(let added):
                    guard case .PantryItems(let added) = try added.body.json else { throw CLIError("Kiwi answered one item instead of the scan's.") }
                    print("Your pantry has the scan's \(added.items.count) \(added.items.count == 1 ? "ingredient" : "ingredients"):")
                    for item in added.items { print(Pantry.line(item)) }
                case .created(let created): print("Added \(Pantry.line(try created.body.json))")
                case let other: throw failure(other)
                }
            }
        }

        /// The ids of the receipt's lines `numbers`; a number past its lines is refused as a usage error, before anything
        /// is added.
        static func lineIDs(_ numbers: [Int], of scanID: String, client: Client) async throws -> [String] {
            let scan: Components.Schemas.Scan
            switch try await client.getScan(path: .init(id: scanID)) {
            case .ok(let ok): scan = try ok.body.json
            case let other: throw failure(other)
            }
            guard let receipt = scan.result?.receipt else {
                throw CLIError("Scan \(scanID) is not a receipt's that succeeded; --lines picks a receipt's lines.")
            }
            guard let past = numbers.first(where: { $0 > receipt.lines.count }) else { return numbers.map { receipt.lines[$0 - 1].id } }
            throw CLIError(
                "--lines takes numbers from 1 to \(receipt.lines.count), the receipt's lines; \(past) is past them.",
                status: ExitCode.validationFailure.rawValue
            )
        }
    }

    /// `kiwi pantry remove ITEM`: one item, by the id or the name `kiwi pantry` prints.
    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove one thing from your pantry.")

        @OptionGroup var server: ServerOptions
        @Argument(help: .init("The item's id or name, as `kiwi pantry` lists it.", valueName: "ITEM")) var item: String

        func run() async throws {
            try await runReportingErrors {
                let (client, _) = try signedInClient(server)
                let items = try await Pantry.allItems(client)
                guard let found = Pantry.find(item, in: items, id: \.id, name: \.name) else {
                    throw CLIError("Your pantry has no '\(item)'; `kiwi pantry` lists what it has.")
                }
                switch try await client.deletePantryItem(path: .init(id: found.id)) {
                case .noContent: print("Removed \(found.name).")
                case let other: throw failure(other)
                }
            }
        }
    }

    /// Every item of the pantry, page after page (a pantry holds at most 500); with `useSoon`, only those to be used
    /// within that many days.
    static func allItems(_ client: Client, useSoon: Int? = nil) async throws -> [Components.Schemas.PantryItem] {
        var items: [Components.Schemas.PantryItem] = []
        var cursor: String?
        repeat {
            let page: Components.Schemas.PantryList
            switch try await client.listPantry(query: .init(useSoon: useSoon, limit: 100, cursor: cursor)) {
            case .ok(let ok): page = try ok.body.json
            case let other: throw failure(other)
            }
            items += page.items
            cursor = page.nextCursor
        } while cursor != nil
        return items
    }

    /// An item as `kiwi pantry` lists it: `ID  Name, 250 g, use by 2026-12-01 (estimated)`.
    static func line(_ item: Components.Schemas.PantryItem) -> String {
        var parts = [item.name]
        if let quantity = item.quantity {
            let number = quantity == quantity.rounded() && abs(quantity) < 1e15 ? String(Int64(quantity)) : String(quantity)
            parts.append([number, item.unit?.rawValue].compactMap { $0 }.joined(separator: " "))
        }
        if let day = item.useSoonBy { parts.append("use by \(day)" + (item.useSoonEstimated ? " (estimated)" : "")) }
        return "\(item.id)  " + parts.joined(separator: ", ")
    }

    /// The element `text` names: by id, else by name ignoring case; nil when none does.
    static func find<Element>(_ text: String, in elements: [Element], id: KeyPath<Element, String>, name: KeyPath<Element, String>) -> Element? {
        let wanted = text.trimmingCharacters(in: .whitespaces)
        return elements.first { $0[keyPath: id].lowercased() == wanted.lowercased() }
            ?? elements.first { $0[keyPath: name].compare(wanted, options: [.caseInsensitive, .diacriticInsensitive]) == .orderedSame }
    }
}

/// `kiwi shop`: the shopping list (`/v1/shopping-list`).
struct Shop: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show your shopping list, add what a saved recipe needs, check items off and put them in your pantry.",
        subcommands: [Show.self, Add.self, Check.self, ToPantry.self],
        defaultSubcommand: Show.self
    )

    /// `kiwi shop show`: the list as the text Kiwi shares.
    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print your shopping list, by store section, as text to share.")

        @OptionGroup var server: ServerOptions

        func run() async throws {
            try await runReportingErrors {
                let (client, _) = try signedInClient(server)
                let body: HTTPBody
                switch try await client.getShoppingList(headers: .init(accept: [.init(contentType: .plainText)])) {
                case .ok(let ok):
                    guard case .plainText(let text) = ok.body else { throw CLIError("Kiwi answered JSON instead of text.") }
                    body = text
                case let other: throw failure(other)
                }
                let text = try await String(collecting: body, upTo: 1 << 20)
                print(text, terminator: text.hasSuffix("\n") ? "" : "\n")
                if !text.contains("- [") { hint("Add what a saved recipe needs: kiwi shop add <recipe-id>") }
            }
        }
    }

    /// `kiwi shop add RECIPE`: what a saved recipe needs and the pantry lacks.
    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add what one of your saved recipes needs and your pantry lacks to your shopping list.",
            discussion: "Staples (salt, pepper, oil, water) are never added. Adding a recipe twice adds nothing twice."
        )

        @OptionGroup var server: ServerOptions
        @Argument(help: .init("The saved recipe's id (`kiwi recipes`).", valueName: "RECIPE")) var recipe: String

        func validate() throws {
            _ = try IDArgument.savedRecipe(recipe)
        }

        func run() async throws {
            try await runReportingErrors {
                let (client, _) = try signedInClient(server)
                let addition = Components.Schemas.ShoppingListRecipeAddition(recipeId: try IDArgument.savedRecipe(recipe))
                switch try await client.addToShoppingList(body: .json(.ShoppingListRecipeAddition(addition))) {
                case .ok(let ok):
                    let added = try ok.body.json.added
                    print(
                        added.isEmpty
                            ? "Nothing to buy: your pantry has all it needs." : "On your list: " + added.map(\.name).joined(separator: ", ") + "."
                    )
                    if !added.isEmpty { hint("See the list: kiwi shop") }
                case let other: throw failure(other)
                }
            }
        }
    }

    /// `kiwi shop check ITEM`: ticks an item off (or, with `--uncheck`, on again).
    struct Check: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Check an item of your shopping list off, as bought.")

        @OptionGroup var server: ServerOptions
        @Argument(help: .init("The item's name, as `kiwi shop` prints it, or its id.", valueName: "ITEM")) var item: String
        @Flag(help: "Mark it as not bought again.") var uncheck = false

        func run() async throws {
            try await runReportingErrors {
                let (client, _) = try signedInClient(server)
                let list: Components.Schemas.ShoppingList
                switch try await client.getShoppingList(headers: .init(accept: [.init(contentType: .json)])) {
                case .ok(let ok): list = try ok.body.json
                case let other: throw failure(other)
                }
                guard let found = Pantry.find(item, in: list.sections.flatMap(\.items), id: \.id, name: \.name) else {
                    throw CLIError("Your shopping list has no '\(item)'; `kiwi shop` prints it.")
                }
                switch try await client.updateShoppingListItem(path: .init(id: found.id), body: .json(.init(checked: !uncheck))) {
                case .ok(let ok): print(try ok.body.json.checked ? "Checked off \(found.name)." : "\(found.name) is to buy again.")
                case let other: throw failure(other)
                }
            }
        }
    }

    /// `kiwi shop to-pantry`: the checked items into the pantry, and off the list.
    struct ToPantry: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "to-pantry", abstract: "Put the items you checked off in your pantry.")

        @OptionGroup var server: ServerOptions

        func run() async throws {
            try await runReportingErrors {
                let (client, _) = try signedInClient(server)
                switch try await client.moveCheckedToPantry() {
                case .ok(let ok):
                    let items = try ok.body.json.items
                    guard !items.isEmpty else {
                        print("Nothing is checked off.")
                        hint("Check an item off: kiwi shop check <name>")
                        return
                    }
                    print("Now in your pantry: " + items.map(\.name).joined(separator: ", ") + ".")
                case let other: throw failure(other)
                }
            }
        }
    }
}

/// `kiwi cookable`: the saved recipes, those the pantry covers most first (`GET /v1/recipes?cookable=true`). Asked
/// without the generated client, whose `listRecipes` reads each recipe as a `SavedRecipe` and so drops `cookable`.
struct Cookable: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List your saved recipes by how much of each your pantry has, with what is missing.",
        discussion: "Staples (salt, pepper, oil, water) never count as missing. Among recipes covered as much, those that use up "
            + "what to eat soon come first."
    )

    @OptionGroup var server: ServerOptions
    @Option(name: [.short, .long], help: "Only recipes whose name or ingredients contain this.") var query: String?
    @Option(help: "How many recipes to list (1–100).") var limit = 20

    func run() async throws {
        try await runReportingErrors {
            let (_, _, session) = try signedInSession(server)
            var components = URLComponents()
            components.queryItems = [.init(name: "cookable", value: "true"), .init(name: "limit", value: String(limit))]
            if let query { components.queryItems?.append(.init(name: "q", value: query)) }
            var request = HTTPClientRequest(url: session.server.trimmingSuffix("/") + "/v1/recipes?" + (components.percentEncodedQuery ?? ""))
            request.headers.add(name: "Authorization", value: "Bearer \(session.sessionToken)")
            request.headers.add(name: "Accept", value: "application/json")
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
            let body = Data(try await response.body.collect(upTo: 8 << 20).readableBytesView)
            guard response.status.code == 200 else {
                guard let error = try? JSONDecoder().decode(Components.Schemas._Error.self, from: body) else {
                    throw CLIError("Kiwi answered an unexpected HTTP \(response.status.code).")
                }
                throw sentence(error, status: Int(response.status.code))
            }
            let page = try JSONDecoder.iso8601.decode(Components.Schemas.CookableRecipeList.self, from: body)
            guard !page.recipes.isEmpty else {
                print(query == nil ? "Your recipe box is empty." : "No saved recipe matches.")
                return
            }
            for recipe in page.recipes { print(Self.line(recipe)) }
            if page.nextCursor != nil { hint("More recipes are kept than these; --limit lists up to 100, --query narrows them.") }
        }
    }

    /// `ID  Name: 75 % in your pantry; missing: milk (or oat milk), flour; uses soon: Spinach`.
    static func line(_ recipe: Components.Schemas.CookableRecipe) -> String {
        let (saved, coverage) = (recipe.value1, recipe.value2.cookable)
        var text = "\(saved.id)  \(saved.recipe.name): \(Int((coverage.coverage * 100).rounded(.down))) % in your pantry"
        if !coverage.missing.isEmpty {
            text += "; missing: " + coverage.missing.map { $0.name + ($0.substitution.map { " (or \($0))" } ?? "") }.joined(separator: ", ")
        }
        if !coverage.usesSoon.isEmpty { text += "; uses soon: " + coverage.usesSoon.joined(separator: ", ") }
        return text
    }
}
