import Foundation
import HTTPTypes
import HummingbirdTesting
import KiwiInternalAPI
import KiwiModels
import KiwiScans
import KiwiTestSupport
import NIOCore
import Testing

@testable import KiwiGateway

/// What the recipes of a scan's answer cost, in-process on fakes (docs/architecture.md, "What a recipe costs"): counted
/// at the reader's kitchen's prices whenever the answer is read, and never stored with it.
@Suite("Gateway router: what an answer's recipes cost", .timeLimit(.minutes(1)))
struct AnswerCostRouterTests {
    /// The pancakes' cost at ``RecipeCostRouterTests/prices``, worked out in ``RecipeCostRouterTests``.
    static let pancakesCost = RecipeCost(currency: "EUR", total: 1.13, perServing: 0.57, servings: 2, status: .complete, unpriced: [])

    func resource(_ answer: TestResponse) throws -> ScanResource {
        try KiwiJSON.decoder().decode(ScanResource.self, from: Data(answer.body.readableBytesView))
    }

    @Test("the blocking answer, the scan's resource and the scan list cost each recipe at the kitchen's prices; none is stored")
    func answerIsCostedWhereverItIsRead() async throws {
        let gateway = RecipeScalingRouterTests.gateway()
        let (token, session, _) = gateway.signIn()
        try await RecipeCostRouterTests.stock(gateway, user: session.userId, RecipeCostRouterTests.prices)
        try await gateway.test { client async throws in
            let answer = try await client.scan(testPhoto, token: token)
            #expect(answer.status == .ok)
            let blocking = try KiwiJSON.decoder().decode(ScanResponse.self, from: Data(answer.body.readableBytesView))
            #expect(blocking.recipes.map(\.cost) == [Self.pancakesCost, nil], "the omelette has no servings to count by")
            let location = try #require(answer.headers[.location])
            #expect(try resource(try await client.execute(.get, location, token: token)).result?.recipes.first?.cost == Self.pancakesCost)
            let list = try await client.execute(.get, "/v1/scans", token: token)
            let listed = try KiwiJSON.decoder().decode(ScanList.self, from: Data(list.body.readableBytesView))
            #expect(listed.scans.first?.result?.recipes.first?.cost == Self.pancakesCost)
            let id = try #require(listed.scans.first?.id)
            let stored = try #require(try await gateway.ledger.scan(id, of: session.userId, partialsAfter: 0))
            #expect(stored.result?.recipes.allSatisfy { $0.cost == nil } == true)
        }
    }

    @Test("an answer read before the kitchen has prices has no cost, and read after a receipt added some, it has")
    func answerIsCostedAtThePricesOfItsReading() async throws {
        let gateway = RecipeScalingRouterTests.gateway()
        let (token, session, _) = gateway.signIn()
        try await gateway.test { client async throws in
            let answer = try await client.scan(testPhoto, token: token)
            let location = try #require(answer.headers[.location])
            #expect(try KiwiJSON.decoder().decode(ScanResponse.self, from: Data(answer.body.readableBytesView)).recipes.allSatisfy { $0.cost == nil })
            try await RecipeCostRouterTests.stock(gateway, user: session.userId, RecipeCostRouterTests.prices)
            #expect(try resource(try await client.execute(.get, location, token: token)).result?.recipes.first?.cost == Self.pancakesCost)
        }
    }

    @Test("a streamed scan's recipe events and its result carry each recipe's cost")
    func streamedRecipesAreCosted() async throws {
        let gateway = FakeGateway(workers: .hold)
        let (token, session, _) = gateway.signIn()
        try await RecipeCostRouterTests.stock(gateway, user: session.userId, RecipeCostRouterTests.prices)
        let pancakes = RecipeScalingRouterTests.pancakes
        try await gateway.test { client async throws in
            let scan = try resource(try await client.scan(testPhoto, token: token, path: "/v1/scans"))
            gateway.workers.start(scan.id)
            let before = gateway.ledger.reads
            let worker = Task {
                // The recipe is shown once the stream has read the running scan, and the answer once it has read the recipe.
                while gateway.ledger.reads <= before || gateway.hub.watchedScans == 0 { try await Task.sleep(for: .milliseconds(5)) }
                gateway.workers.show([.recipe(index: 0, pancakes)], of: scan.id)
                try await StreamedScanRouterTests().readAsItIs(gateway, scan.id)
                gateway.workers.answer(scan.id, with: .ok(ScanResponse(ingredients: [], recipes: [pancakes])))
            }
            let stream = try await client.execute(.get, "/v1/scans/\(scan.id)/events", token: token)
            try await worker.value
            let events = serverSentEvents(in: String(buffer: stream.body))
            let shown = try #require(events.first { $0["event"] == "recipe" }?["data"])
            guard case .recipe(_, let recipe) = try ScanPartialEvent(name: "recipe", data: Data(shown.utf8)).partial else {
                Issue.record("not a recipe event: \(shown)")
                return
            }
            #expect(recipe.cost == Self.pancakesCost)
            let result = try #require(events.last { $0["event"] == "result" }?["data"])
            #expect(try KiwiJSON.decoder().decode(ScanResource.self, from: Data(result.utf8)).result?.recipes.first?.cost == Self.pancakesCost)
        }
    }
}
