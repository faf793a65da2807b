import Foundation
import KiwiAPIClient
import KiwiDevelopment
import KiwiModels
import KiwiTestSupport
import Testing

@testable import KiwiLLMStub

/// A scan from the pantry (docs/architecture.md, "Scans from the pantry") through `kiwi cook-from-pantry`, the auth
/// service, the gateway, RabbitMQ, a worker and the stub, streamed on the scan's events.
@Suite("End to end: scans from the pantry", .serialized, .timeLimit(.minutes(3)))
struct PantryScanEndToEndTests {
    typealias CLI = CLITests.CLI

    @Test("cook-from-pantry offers the items due first, first; its recipes use up pantry items by id; it counts as a scan")
    func cookFromPantry() async throws {
        try await SystemRig.run { rig in
            let cli = try CLI(server: rig.gateway)
            #expect(try await cli.logIn().status == 0)
            let empty = try await cli.run(["cook-from-pantry"])
            #expect(empty.status == 1 && empty.output.contains("The pantry is empty"), "\(empty.output)")

            let today = CalendarDay(utc: Date())
            // Each due on a day of its own: items due the same day come in no order the test may expect.
            for (name, days) in [("Rice", nil), ("Mushrooms", 3), ("Spinach", 1), ("Cream", 2)] as [(String, Int?)] {
                let bestBefore = days.map { ["--best-before", "\(today.adding(days: $0))"] } ?? []
                #expect(try await cli.run(["pantry", "add", name] + bestBefore).status == 0)
            }
            let run = try await cli.run(["cook-from-pantry", "--json"])
            #expect(run.status == 0, "\(run.output)")
            let answer = try KiwiJSON.decoder().decode(ScanResponse.self, from: Data(run.output.utf8))
            let request = try #require(rig.stub.snapshot.recent.last)
            #expect(request.imageCount == 0 && request.parameters.schemaName == "kiwi_pantry_scan")
            let offered = try Self.offered(in: try #require(request.parameters.userTexts.first))
            #expect(offered.map(\.name) == ["Spinach", "Cream", "Mushrooms", "Rice"])
            #expect(offered.map(\.id) == ["p1", "p2", "p3", "p4"] && request.parameters.pantryIDs == offered.map(\.id))
            let pantry = try await Self.pantry(server: rig.gateway, of: cli)
            #expect(pantry.map(\.name) == offered.map(\.name))
            let ids = pantry.compactMap { UUID(uuidString: $0.id) }
            #expect(answer.recipes.first?.usesUp == [ids[0]], "the stub uses up the first item offered first")
            #expect(answer.recipes.allSatisfy { ($0.usesUp ?? []).allSatisfy(Set(ids).contains) })
            #expect(try await cli.scansLeft() == 3, "a pantry scan counts as a scan")

            let printed = try await cli.run(["cook-from-pantry"])
            #expect(printed.output.contains("uses up Spinach"), "\(printed.output)")
        }
    }

    /// The pantry of `cli`'s user, in its order, through the generated client.
    static func pantry(server: URL, of cli: CLI) async throws -> [Components.Schemas.PantryItem] {
        let session = try JSONDecoder().decode([String: String].self, from: Data(contentsOf: cli.sessionFile))
        let client = KiwiAPI.client(serverURL: server, sessionToken: try #require(session["sessionToken"]))
        return try await client.listPantry(query: .init(limit: 100)).ok.body.json.items
    }

    /// An item as a pantry scan's user message offers it: its label and name.
    struct Offered: Decodable {
        var id: String
        var name: String
    }

    /// The items a pantry scan's user message offers, in its order.
    static func offered(in text: String) throws -> [Offered] {
        let array = try #require(text.firstIndex(of: "["))
        return try JSONDecoder().decode([Offered].self, from: Data(text[array...].utf8))
    }
}
