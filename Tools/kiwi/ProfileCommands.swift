import ArgumentParser
import Foundation
import KiwiAPIClient
import OpenAPIRuntime

/// `kiwi profile`: the kitchen profile every scan is made for.
struct Profile: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show or set your kitchen profile: diets, allergies, dislikes, cook time, servings, currency, language and units.",
        subcommands: [Show.self, Set.self],
        defaultSubcommand: Show.self
    )

    /// `kiwi profile show`.
    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show your kitchen profile.")

        @OptionGroup var server: ServerOptions

        func run() async throws {
            try await runReportingErrors {
                let (client, _) = try signedInClient(server)
                switch try await client.getProfile() {
                case .ok(let ok): Profile.print(try ok.body.json)
                case let other: throw failure(other)
                }
            }
        }
    }

    /// `kiwi profile set`: replaces the whole profile with what the options say.
    struct Set: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Replace your kitchen profile.",
            discussion: "The whole profile is replaced: what you leave out is cleared. Every answer is checked against your allergies "
                + "and diets; recipes that break them are never shown. Diets: "
                + Components.Schemas.Diet.allCases.map(\.rawValue).joined(separator: ", ") + ". Allergies: "
                + Components.Schemas.Allergen.allCases.map(\.rawValue).joined(separator: ", ") + "."
        )

        @OptionGroup var server: ServerOptions
        @Option(name: .customLong("diet"), help: "A diet you follow (repeat for several).") var diets: [String] = []
        @Option(name: .customLong("allergy"), help: "An allergen group you must avoid (repeat for several).") var allergies: [String] = []
        @Option(name: .customLong("dislike"), help: "An ingredient you would rather not cook with (repeat, up to 20).") var dislikes: [String] = []
        @Option(help: "The longest a recipe may take, 5–120 minutes.") var maxCookTime: Int?
        @Option(help: "How many people to cook for, 1–12.") var servings: Int?
        @Option(help: "The ISO 4217 currency costs are counted in (EUR); left out, your first receipt sets it.") var currency: String?
        @Option(
            help: ArgumentHelp(
                "The language answers are written in: \(Components.Schemas.AnswerLanguage.allCases.map(\.rawValue).joined(separator: ", ")); "
                    + "left out, the one a request's Accept-Language asks for, else English."
            )
        ) var language: String?
        @Option(help: "The units recipes are written in: metric or us; left out, the model's choice.") var units: String?

        func run() async throws {
            try await runReportingErrors {
                let profile = Components.Schemas.KitchenProfile(
                    diets: try diets.map { name in
                        guard let diet = Components.Schemas.Diet(rawValue: name) else {
                            throw CLIError("\(name) is not a diet Kiwi knows; see `kiwi profile set --help`.")
                        }
                        return diet
                    },
                    allergies: try allergies.map { name in
                        guard let allergen = Components.Schemas.Allergen(rawValue: name) else {
                            throw CLIError("\(name) is not an allergen group Kiwi knows; see `kiwi profile set --help`.")
                        }
                        return allergen
                    },
                    dislikes: dislikes,
                    maxCookTimeMinutes: maxCookTime,
                    servings: servings,
                    currency: try currency.map { code in
                        guard let known = Components.Schemas.CurrencyCode(rawValue: code.uppercased()) else {
                            throw CLIError("\(code) is not an ISO 4217 currency code in circulation, such as EUR or GBP.")
                        }
                        return known
                    },
                    language: try language.map { code in
                        guard let known = Components.Schemas.AnswerLanguage(rawValue: code.lowercased()) else {
                            throw CLIError("Kiwi does not write \(code); see `kiwi profile set --help` for the languages it does.")
                        }
                        return known
                    },
                    units: try units.map { name in
                        guard let known = Components.Schemas.KitchenProfile.UnitsPayload(rawValue: name.lowercased()) else {
                            throw CLIError("\(name) is not a system of units Kiwi writes: metric or us.")
                        }
                        return known
                    }
                )
                let (client, _) = try signedInClient(server)
                switch try await client.putProfile(body: .json(profile)) {
                case .ok(let ok):
                    Swift.print("Profile saved.")
                    Profile.print(try ok.body.json)
                case let other: throw failure(other)
                }
            }
        }
    }

    /// The profile, one line per member.
    static func print(_ profile: Components.Schemas.KitchenProfile) {
        func list(_ values: [String]?) -> String { (values ?? []).isEmpty ? "none" : values!.joined(separator: ", ") }
        Swift.print("Diets:      \(list(profile.diets?.map(\.rawValue)))")
        Swift.print("Allergies:  \(list(profile.allergies?.map(\.rawValue)))")
        Swift.print("Dislikes:   \(list(profile.dislikes))")
        Swift.print("Cook time:  \(profile.maxCookTimeMinutes.map { "at most \($0) minutes" } ?? "any")")
        Swift.print("Servings:   \(profile.servings.map(String.init) ?? "any")")
        Swift.print("Currency:   \(profile.currency?.rawValue ?? "not set: your first receipt sets it")")
        Swift.print("Language:   \(profile.language?.rawValue ?? "not set: as a request's Accept-Language asks, else English")")
        Swift.print("Units:      \(profile.units?.rawValue ?? "not set: as the model writes them")")
    }
}
