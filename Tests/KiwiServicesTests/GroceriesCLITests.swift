import Foundation
import KiwiDevelopment
import KiwiModels
import KiwiTestSupport
import Testing

@testable import KiwiLLMStub

/// `kiwi pantry`, `kiwi shop` and `kiwi cookable`, run as a real process against the real services.
@Suite("kiwi CLI: pantry, shopping list and cookable", .serialized, .timeLimit(.minutes(3)))
struct GroceriesCLITests {
    typealias CLI = CLITests.CLI

    @Test("pantry adds by hand and from a scan, finds a name again, lists and removes; shop lists a saved recipe, checks off, moves to the pantry")
    func pantryAndShoppingList() async throws {
        let photo = CLITests.temporaryFile(SyntheticJPEG.make(size: 16 * 1024, seed: 58))
        let soup = ModelAnswers.Dish("Leek soup", ingredients: ["leeks", "potatoes", "salt"])
        try await SystemRig.run(behaviour: StubBehaviour(answers: [ModelAnswers.fridge([soup], ingredients: ["leeks"])])) { rig in
            let cli = try CLI(server: rig.gateway)
            #expect(try await cli.logIn().status == 0)
            #expect(try await cli.run(["pantry"]).output.hasPrefix("Your pantry is empty."))

            let added = try await cli.run(["pantry", "add", "Curly kale", "--quantity", "250", "--unit", "g"])
            #expect(added.status == 0, "\(added.output)")
            #expect(added.output.hasPrefix("Added "), "\(added.output)")
            #expect(added.output.contains("Curly kale, 250 g, use by "), "\(added.output)")
            let again = try await cli.run(["pantry", "add", "curly kales", "--quantity", "2", "--unit", "bunch"])
            #expect(again.output.hasPrefix("Already in your pantry, updated: "), "\(again.output)")
            #expect(again.output.contains("Curly kale, 2 bunch"), "\(again.output)")

            #expect(try await cli.run(["scan", photo.path, "--blocking"]).status == 0)
            let scanID = try #require(try await cli.run(["scans"]).output.split(separator: " ").first.map(String.init))
            let fromScan = try await cli.run(["pantry", "add-from", scanID])
            #expect(fromScan.status == 0, "\(fromScan.output)")
            #expect(fromScan.output.hasPrefix("Your pantry has the scan's "), "\(fromScan.output)")
            let listed = try await cli.run(["pantry"]).output.split(separator: "\n")
            #expect(listed.count == fromScan.output.split(separator: "\n").count, "\(listed)")

            let removed = try await cli.run(["pantry", "remove", "CURLY KALE"])
            #expect(removed.output == "Removed Curly kale.\n", "\(removed.output)")
            let missing = try await cli.run(["pantry", "remove", "curly kale"])
            #expect(missing.status == 1 && missing.output.contains("Your pantry has no 'curly kale'"), "\(missing.output)")

            #expect(try await cli.run(["shop"]).output.hasPrefix("Shopping list\n\nNothing to buy.\n"))
            let save = try await cli.run(["save", scanID, "1"])
            let savedID = try #require(CLITests.savedID(save.output), "\(save.output)")
            #expect(try await cli.run(["shop", "add", savedID]).status == 0)
            let list = try await cli.run(["shop"]).output
            #expect(list == "Shopping list\n\nVegetable\n- [ ] potatoes (Leek soup)\n", "leeks are in the pantry, salt is a staple")
            let item = "potatoes"
            let checked = try await cli.run(["shop", "check", item])
            #expect(checked.output == "Checked off \(item).\n", "\(checked.output)")
            #expect(try await cli.run(["shop"]).output.contains("- [x] \(item)"))
            let moved = try await cli.run(["shop", "to-pantry"])
            #expect(moved.output == "Now in your pantry: \(item).\n", "\(moved.output)")
            #expect(try await cli.run(["pantry"]).output.contains("  \(item)"))
            #expect(!(try await cli.run(["shop"]).output.contains("] \(item)")))
            #expect(try await cli.run(["shop", "to-pantry"]).output.hasPrefix("Nothing is checked off.\n"))
        }
    }

    @Test("pantry --use-soon lists only what is to be used within those days")
    func pantryUseSoon() async throws {
        try await SystemRig.run { rig in
            let cli = try CLI(server: rig.gateway)
            #expect(try await cli.logIn().status == 0)
            // Two days ahead, so that a UTC midnight passing meanwhile leaves it outside --use-soon 0.
            let due = CalendarDay(utc: Date()).adding(days: 2)
            #expect(try await cli.run(["pantry", "add", "Milk", "--best-before", "\(due)"]).status == 0)
            #expect(try await cli.run(["pantry", "add", "Rice"]).status == 0)
            let soon = try await cli.run(["pantry", "--use-soon", "3"]).output
            #expect(soon.contains("Milk, use by \(due)") && !soon.contains("Rice"), "\(soon)")
            #expect(try await cli.run(["pantry", "--use-soon", "0"]).output == "Nothing in your pantry is to be used within 0 days.\n")
        }
    }

    @Test("cookable lists each saved recipe with how much of it the pantry has and what it lacks")
    func cookable() async throws {
        let photo = CLITests.temporaryFile(SyntheticJPEG.make(size: 16 * 1024, seed: 59))
        try await SystemRig.run { rig in
            let cli = try CLI(server: rig.gateway)
            #expect(try await cli.logIn().status == 0)
            #expect(try await cli.run(["cookable"]).output == "Your recipe box is empty.\n")
            #expect(try await cli.run(["scan", photo.path, "--blocking"]).status == 0)
            let scanID = try #require(try await cli.run(["scans"]).output.split(separator: " ").first.map(String.init))
            let savedID = try #require(CLITests.savedID(try await cli.run(["save", scanID, "1"]).output))
            let before = try await cli.run(["cookable"])
            #expect(before.status == 0, "\(before.output)")
            #expect(before.output.hasPrefix("\(savedID)  "), "\(before.output)")
            #expect(before.output.contains("% in your pantry"), "\(before.output)")

            #expect(try await cli.run(["pantry", "add-from", scanID]).status == 0)
            let after = try await cli.run(["cookable"]).output
            #expect(Self.percentage(after) ?? -1 > Self.percentage(before.output) ?? 100, "\(before.output) then \(after)")
            #expect(try await cli.run(["cookable", "--query", "no such dish"]).output == "No saved recipe matches.\n")
        }
    }

    /// Malformed arguments, with what the refusal says to pass instead.
    static let malformedArguments: [(arguments: [String], says: String)] = [
        (["pantry", "add-from", "7"], "SCAN must be a scan id (a UUID), as `kiwi scans` lists them"),
        (["shop", "add", "2"], "must be a saved recipe's id (a UUID), as `kiwi recipes` lists them"),
        (["pantry", "add", "flour", "--quantity", "1", "--unit", "lbs"], "--unit must be one of g, kg"),
        (["pantry", "add", "flour", "--unit", "kg"], "--unit says what --quantity counts"),
    ]

    @Test("a malformed scan id, recipe id or unit is refused before any request, with exit status 64", arguments: malformedArguments)
    func malformedArgumentsRefusedLocally(arguments: [String], says: String) async throws {
        let cli = try CLI(server: URL(string: "http://127.0.0.1:1")!)
        try cli.signIn(to: cli.server)
        let refused = try await cli.run(arguments)
        #expect(refused.status == 64, "\(refused.output)")
        #expect(refused.output.contains(says), "\(refused.output)")
    }

    /// The first N of `kiwi cookable`'s "N % in your pantry".
    static func percentage(_ output: String) -> Int? {
        output.firstMatch(of: /: (\d+) % in your pantry/).flatMap { Int($0.1) }
    }
}
