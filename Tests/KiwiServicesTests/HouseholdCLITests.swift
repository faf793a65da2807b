import Foundation
import Testing

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
}
