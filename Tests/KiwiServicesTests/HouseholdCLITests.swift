import Foundation
import KiwiDevelopment
import KiwiTestSupport
import Testing

@testable import KiwiLLMStub

/// `kiwi household`, run as real processes (one per person) against the real services.
@Suite("kiwi CLI: household", .serialized, .timeLimit(.minutes(3)))
struct HouseholdCLITests {
    typealias CLI = CLITests.CLI

    @Test("one person creates a household and invites, another joins with the code agreeing to share, both see it, one leaves")
    func createInviteJoinLeave() async throws {
        try await SystemRig.run(workers: 0) { rig in
            let (sam, alex) = (try CLI(server: rig.gateway), try CLI(server: rig.gateway))
            #expect(try await sam.logIn().status == 0)
            #expect(try await alex.logIn().status == 0)
            #expect(try await alex.run(["profile", "set", "--allergy", "peanuts"]).status == 0)

            let created = try await sam.run(["household", "create", "Home", "--as", "Sam"])
            #expect(created.output == "Home\n- Sam (you, manages): allergies none; diets none\n", "\(created.output)")
            let invited = try await sam.run(["household", "invite"])
            let code = try #require(invited.output.split(separator: "\n").first.map(String.init), "\(invited.output)")

            let refused = try await alex.run(["household", "join", code, "--as", "Alex"])
            #expect(refused.status != 0 && refused.output.contains("--share-profile"), "\(refused.output)")
            let joined = try await alex.run(["household", "join", code, "--as", "Alex", "--share-profile"])
            #expect(joined.status == 0, "\(joined.output)")
            let shown = try await sam.run(["household"])
            let members = ["- Sam (you, manages): allergies none; diets none", "- Alex: allergies peanuts; diets none"]
            #expect(shown.output == "Home\n" + members.joined(separator: "\n") + "\n", "\(shown.output)")

            #expect(try await alex.run(["household", "leave"]).output == "You left the household.\n")
            let gone = try await alex.run(["household"])
            #expect(gone.status != 0 && gone.output.contains("no household"), "\(gone.output)")
        }
    }

    @Test("kiwi scan --for cooks for the members named: a recipe another member's allergy forbids is kept; unknown names are refused")
    func scanForMembers() async throws {
        let answer = ModelAnswers.fridge([
            ModelAnswers.Dish("Peanut noodles", ingredients: ["rice noodles", "peanut butter"]),
            ModelAnswers.Dish("Tomato toast", ingredients: ["bread", "tomato"]),
        ])
        let photo = CLITests.temporaryFile(SyntheticJPEG.make(size: 16 * 1024, seed: 157))
        try await SystemRig.run(behaviour: StubBehaviour(answers: [answer])) { rig in
            let (sam, alex) = (try CLI(server: rig.gateway), try CLI(server: rig.gateway))
            #expect(try await sam.logIn().status == 0)
            #expect(try await alex.logIn().status == 0)
            #expect(try await alex.run(["profile", "set", "--allergy", "peanuts"]).status == 0)
            #expect(try await sam.run(["household", "create", "Home", "--as", "Sam"]).status == 0)
            let code = try #require(try await sam.run(["household", "invite"]).output.split(separator: "\n").first.map(String.init))
            #expect(try await alex.run(["household", "join", code, "--as", "Alex", "--share-profile"]).status == 0)

            let forSam = try await sam.run(["scan", photo.path, "--json", "--blocking", "--for", "sam"])
            #expect(forSam.status == 0, "\(forSam.output)")
            #expect(try Self.names(forSam.output) == (["Peanut noodles", "Tomato toast"], []))
            let forBoth = try await sam.run(["scan", photo.path, "--json", "--blocking", "--for", "Sam", "Alex"])
            #expect(try Self.names(forBoth.output) == (["Tomato toast"], ["Peanut noodles"]))
            let unknown = try await sam.run(["scan", photo.path, "--for", "Kim"])
            #expect(unknown.status != 0 && unknown.output.contains("nobody called Kim"), "\(unknown.output)")
        }
    }

    /// The names of the recipes and of the withheld recipes in `kiwi scan --json`'s answer.
    static func names(_ output: String) throws -> (recipes: [String], withheld: [String]) {
        let answer = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any], "\(output)")
        let names = { (key: String) in (answer[key] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String } }
        return (names("recipes"), names("withheldRecipes"))
    }
}
