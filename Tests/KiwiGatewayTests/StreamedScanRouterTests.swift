import Foundation
import HTTPTypes
import HummingbirdTesting
import KiwiModels
import KiwiScans
import KiwiTestSupport
import NIOCore
import Testing

@testable import KiwiGateway

/// A streamed scan's events, in-process on fakes (docs/architecture.md, "Streamed scans"): the partials a worker shows
/// between `running` and the end, their ids, `Last-Event-ID` after and across a restart, and what a client starting
/// fresh or opening a final scan is sent.
@Suite("Gateway router: streamed scan events", .timeLimit(.minutes(1)))
struct StreamedScanRouterTests {
    /// One event of a stream: its id, its name, and what it shows: the status of a `status`, `result` or `error`
    /// event; the names of an `ingredients` event; the index and name of a `recipe` event; nothing for a `restart`.
    struct Event: Equatable, CustomStringConvertible {
        let id: Int
        let name: String
        let shows: String

        var description: String { "\(id) \(name) \(shows)" }
    }

    func events(_ answer: TestResponse, of scanID: UUID) throws -> [Event] {
        try serverSentEvents(in: String(buffer: answer.body)).map { fields in
            let id = try #require(fields["id"].flatMap { Int($0) })
            let name = try #require(fields["event"])
            let data = Data(try #require(fields["data"]).utf8)
            guard ["ingredients", "recipe", "meal", "line", "restart"].contains(name) else {
                return Event(id: id, name: name, shows: try KiwiJSON.decoder().decode(ScanResource.self, from: data).status)
            }
            let event = try ScanPartialEvent(name: name, data: data)
            #expect(event.scanID == scanID)
            switch event.partial {
            case .ingredients(let ingredients): return Event(id: id, name: name, shows: ingredients.map(\.name).joined(separator: ","))
            case .recipe(let index, let recipe): return Event(id: id, name: name, shows: "\(index) \(recipe.name)")
            case .meal(let index, let meal): return Event(id: id, name: name, shows: "\(index) \(meal.outline?.name ?? "")")
            case .line(let index, let line): return Event(id: id, name: name, shows: "\(index) \(line.text)")
            case .restart: return Event(id: id, name: name, shows: "")
            }
        }
    }

    /// A scan a worker holds, started.
    func runningScan(_ gateway: FakeGateway, _ client: any TestClientProtocol, token: String) async throws -> UUID {
        let scan = try KiwiJSON.decoder().decode(
            ScanResource.self,
            from: Data(try await client.scan(testPhoto, token: token, path: "/v1/scans").body.readableBytesView)
        )
        gateway.workers.start(scan.id)
        return scan.id
    }

    /// Waits until the ledger has been read since this call: a stream woken by news, or just opened, has looked.
    func readAgain(_ gateway: FakeGateway, since reads: Int? = nil) async throws {
        let reads = reads ?? gateway.ledger.reads
        while gateway.ledger.reads <= reads { try await Task.sleep(for: .milliseconds(5)) }
    }

    /// Waits until the gateway has read scan `id` as it is now.
    func readAsItIs(_ gateway: FakeGateway, _ id: UUID) async throws {
        while !gateway.ledger.wasReadAsItIs(id) { try await Task.sleep(for: .milliseconds(5)) }
    }

    /// Opens the scan's event stream with `lastEventID`, and lets the worker answer once the stream has read the scan.
    func stream(
        _ gateway: FakeGateway,
        _ client: any TestClientProtocol,
        _ id: UUID,
        token: String,
        lastEventID: String? = nil
    ) async throws -> [Event] {
        let reads = gateway.ledger.reads
        let worker = Task {
            try await readAgain(gateway, since: reads)
            gateway.workers.answer(id, with: .ok(ScansRouterTests.empty))
        }
        let headers: HTTPFields = lastEventID.map { [.lastEventID: $0] } ?? [:]
        let answer = try await client.execute(.get, "/v1/scans/\(id)/events", token: token, headers: headers)
        try await worker.value
        return try events(answer, of: id)
    }

    @Test("the stream sends status, ingredients, each recipe, a restart and what follows it as they are shown, then the result last")
    func eachEventInOrder() async throws {
        let gateway = FakeGateway(workers: .hold)
        let (token, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            let scan = try KiwiJSON.decoder().decode(
                ScanResource.self,
                from: Data(try await client.scan(testPhoto, token: token, path: "/v1/scans").body.readableBytesView)
            )
            let before = gateway.ledger.reads
            let worker = Task {
                // The stream's first read, then each step waits until the stream has read the scan as the one before left
                // it, all of its partials: a read between two of them would see the first alone.
                while gateway.ledger.reads <= before || gateway.hub.watchedScans == 0 { try await Task.sleep(for: .milliseconds(5)) }
                gateway.workers.start(scan.id)
                try await readAsItIs(gateway, scan.id)
                gateway.workers.show([shownIngredients("cream", "leeks"), shownRecipe(0, "Creamy leeks")], of: scan.id)
                try await readAsItIs(gateway, scan.id)
                gateway.workers.show(
                    [.restart, shownIngredients("yoghurt", "leeks"), shownRecipe(0, "Leek raita"), shownRecipe(1, "Leek soup")],
                    of: scan.id
                )
                try await readAsItIs(gateway, scan.id)
                gateway.workers.answer(scan.id, with: .ok(ScansRouterTests.empty))
            }
            let stream = try await client.execute(.get, "/v1/scans/\(scan.id)/events", token: token)
            try await worker.value
            #expect(stream.headers[.contentType] == "text/event-stream")
            #expect(
                try events(stream, of: scan.id) == [
                    Event(id: 1, name: "status", shows: "queued"),
                    Event(id: 2, name: "status", shows: "running"),
                    Event(id: 3, name: "ingredients", shows: "cream,leeks"),
                    Event(id: 4, name: "recipe", shows: "0 Creamy leeks"),
                    Event(id: 5, name: "restart", shows: ""),
                    Event(id: 6, name: "ingredients", shows: "yoghurt,leeks"),
                    Event(id: 7, name: "recipe", shows: "0 Leek raita"),
                    Event(id: 8, name: "recipe", shows: "1 Leek soup"),
                    Event(id: 9, name: "result", shows: "succeeded"),
                ]
            )
        }
    }

    @Test("a stream reads each partial once: each reading of the scan leaves out the partials it has sent")
    func eachPartialReadOnce() async throws {
        let gateway = FakeGateway(workers: .hold)
        let (token, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            let id = try await runningScan(gateway, client, token: token)
            let partials = [shownIngredients("leeks")] + (0..<4).map { shownRecipe($0, "Recipe \($0 + 1)") }
            let reads = gateway.ledger.reads
            let worker = Task {
                try await readAgain(gateway, since: reads)
                for partial in partials {
                    gateway.workers.show([partial], of: id)
                    try await readAsItIs(gateway, id)
                }
                gateway.workers.answer(id, with: .ok(ScansRouterTests.empty))
            }
            let answer = try await client.execute(.get, "/v1/scans/\(id)/events", token: token)
            try await worker.value
            #expect(try events(answer, of: id).count == 3 + partials.count)
            #expect(gateway.ledger.partialsRead == partials.count)
        }
    }

    @Test("a client reconnecting with the first recipe's Last-Event-ID gets the recipes after it, each once, then the result")
    func reconnectAfterFirstRecipe() async throws {
        let gateway = FakeGateway(workers: .hold)
        let (token, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            let id = try await runningScan(gateway, client, token: token)
            let recipes = (0..<4).map { shownRecipe($0, "Recipe \($0 + 1)") }
            gateway.workers.show([shownIngredients("leeks")] + recipes, of: id)
            #expect(
                try await stream(gateway, client, id, token: token, lastEventID: "4") == [
                    Event(id: 5, name: "recipe", shows: "1 Recipe 2"),
                    Event(id: 6, name: "recipe", shows: "2 Recipe 3"),
                    Event(id: 7, name: "recipe", shows: "3 Recipe 4"),
                    Event(id: 8, name: "result", shows: "succeeded"),
                ]
            )
        }
    }

    @Test("a client reconnecting from before a restart gets the restart and what follows it, not the partials it withdrew")
    func reconnectAcrossRestart() async throws {
        let gateway = FakeGateway(workers: .hold)
        let (token, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            let id = try await runningScan(gateway, client, token: token)
            gateway.workers.show(
                [
                    shownIngredients("cream"), shownRecipe(0, "Creamy leeks"), shownRecipe(1, "Cream soup"), .restart, shownIngredients("yoghurt"),
                    shownRecipe(0, "Leek raita"),
                ],
                of: id
            )
            #expect(
                try await stream(gateway, client, id, token: token, lastEventID: "4") == [
                    Event(id: 6, name: "restart", shows: ""),
                    Event(id: 7, name: "ingredients", shows: "yoghurt"),
                    Event(id: 8, name: "recipe", shows: "0 Leek raita"),
                    Event(id: 9, name: "result", shows: "succeeded"),
                ]
            )
        }
    }

    @Test("a client starting fresh gets only the partials after the last restart, and not the restart")
    func freshClientSkipsSuperseded() async throws {
        let gateway = FakeGateway(workers: .hold)
        let (token, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            let id = try await runningScan(gateway, client, token: token)
            gateway.workers.show([shownIngredients("cream"), shownRecipe(0, "Creamy leeks"), .restart, shownIngredients("yoghurt")], of: id)
            #expect(
                try await stream(gateway, client, id, token: token) == [
                    Event(id: 1, name: "status", shows: "queued"),
                    Event(id: 2, name: "status", shows: "running"),
                    Event(id: 6, name: "ingredients", shows: "yoghurt"),
                    Event(id: 7, name: "result", shows: "succeeded"),
                ]
            )
        }
    }

    @Test("a final scan sends only its result, whose id counts every partial it showed; 204 once that id was seen")
    func finalScanSendsOnlyResult() async throws {
        let gateway = FakeGateway(workers: .hold)
        let (token, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            let id = try await runningScan(gateway, client, token: token)
            gateway.workers.show([shownIngredients("leeks"), shownRecipe(0, "Leek soup")], of: id)
            gateway.workers.answer(id, with: .ok(ScansRouterTests.empty))
            let path = "/v1/scans/\(id)/events"
            #expect(
                try events(try await client.execute(.get, path, token: token), of: id) == [
                    Event(id: 1, name: "status", shows: "queued"), Event(id: 5, name: "result", shows: "succeeded"),
                ]
            )
            let resumed = try await client.execute(.get, path, token: token, headers: [.lastEventID: "3"])
            #expect(try events(resumed, of: id) == [Event(id: 5, name: "result", shows: "succeeded")])
            #expect(try await client.execute(.get, path, token: token, headers: [.lastEventID: "5"]).status == .noContent)
        }
    }
}
