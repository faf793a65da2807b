import ArgumentParser
import Foundation
import KiwiAPIClient
import OpenAPIRuntime

/// `kiwi household`: the people who share your kitchen.
struct HouseholdCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "household",
        abstract: "Share a kitchen: create a household, invite someone, join, leave, or show who is in it.",
        subcommands: [Show.self, Create.self, Invite.self, Join.self, Leave.self],
        defaultSubcommand: Show.self
    )

    /// `kiwi household show`.
    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show your household: every member with their allergies and diets.")

        @OptionGroup var server: ServerOptions

        func run() async throws {
            try await runReportingErrors {
                let (client, _) = try signedInClient(server)
                switch try await client.getHousehold() {
                case .ok(let ok): HouseholdCommand.print(try ok.body.json)
                case let other: throw failure(other)
                }
            }
        }
    }

    /// `kiwi household create NAME --as NAME`.
    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create a household, with you its only member.")

        @OptionGroup var server: ServerOptions
        @Argument(help: "The household's name.") var name: String
        @Option(name: .customLong("as"), help: "The name the other members will know you by.") var displayName: String

        func run() async throws {
            try await runReportingErrors {
                let (client, _) = try signedInClient(server)
                switch try await client.createHousehold(body: .json(.init(name: name, displayName: displayName))) {
                case .created(let created): HouseholdCommand.print(try created.body.json)
                case let other: throw failure(other)
                }
            }
        }
    }

    /// `kiwi household invite`.
    struct Invite: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Make a code that lets one person join your household within 24 hours.")

        @OptionGroup var server: ServerOptions

        func run() async throws {
            try await runReportingErrors {
                let (client, _) = try signedInClient(server)
                switch try await client.inviteToHousehold() {
                case .created(let created):
                    let invitation = try created.body.json
                    Swift.print(invitation.code)
                    Swift.print(
                        "Works once, until \(invitation.expiresAt.formatted(date: .abbreviated, time: .shortened)): kiwi household join CODE --as NAME"
                    )
                case let other: throw failure(other)
                }
            }
        }
    }

    /// `kiwi household join CODE --as NAME --share-profile`.
    struct Join: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Join a household with an invitation's code.",
            discussion:
                "Joining shows your allergies and diets to every member, so that what they cook is safe for you: --share-profile agrees to it."
        )

        @OptionGroup var server: ServerOptions
        @Argument(help: "The invitation's code.") var code: String
        @Option(name: .customLong("as"), help: "The name the other members will know you by.") var displayName: String
        @Flag(help: "Agree that every member sees your allergies and diets.") var shareProfile = false

        func run() async throws {
            try await runReportingErrors {
                guard shareProfile else {
                    throw CLIError("Joining shows your allergies and diets to every member; add --share-profile to agree.")
                }
                let (client, _) = try signedInClient(server)
                switch try await client.joinHousehold(body: .json(.init(code: code, displayName: displayName, shareProfile: true))) {
                case .ok(let ok): HouseholdCommand.print(try ok.body.json)
                case let other: throw failure(other)
                }
            }
        }
    }

    /// `kiwi household leave`.
    struct Leave: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Leave your household; the last member out deletes it.")

        @OptionGroup var server: ServerOptions

        func run() async throws {
            try await runReportingErrors {
                let (client, _) = try signedInClient(server)
                switch try await client.removeHouseholdMember(path: .init(id: "me")) {
                case .noContent: Swift.print("You left the household.")
                case let other: throw failure(other)
                }
            }
        }
    }

    /// The household, a line per member.
    static func print(_ household: Components.Schemas.Household) {
        Swift.print(household.name)
        for member in household.members {
            func list(_ values: [String]) -> String { values.isEmpty ? "none" : values.joined(separator: ", ") }
            let marks = [member.id == household.yourMemberId ? "you" : nil, member.manages ? "manages" : nil].compactMap { $0 }
            Swift.print(
                "- \(member.displayName)\(marks.isEmpty ? "" : " (\(marks.joined(separator: ", ")))"): allergies \(list(member.allergies.map(\.rawValue))); diets \(list(member.diets.map(\.rawValue)))"
            )
        }
    }
}
