import AsyncHTTPClient
import Foundation
import KiwiDevelopment
import KiwiModels
import KiwiTestSupport
import NIOCore
import NIOHTTP1
import PostgresNIO
import Testing

@testable import KiwiLLMStub

/// Streamed scans through the three processes and the stub streaming as OpenAI does: what a client is shown while
/// the model writes (docs/architecture.md, "Streamed scans") never contradicts itself or the stored result, and never
/// shows what the profile forbids.
@Suite("Streamed scans end to end", .serialized, .timeLimit(.minutes(4)))
struct StreamedScanTests {
    let photo = SyntheticJPEG.make(size: 16 * 1024, seed: 97)

    /// One server-sent event, as a client reads it.
    struct Event: Sendable {
        var id: Int
        var name: String
        var data: Data

        var partial: ScanPartial? { try? ScanPartialEvent(name: name, data: data).partial }
        var scan: ScanResource? { try? KiwiJSON.decoder().decode(ScanResource.self, from: data) }
    }

    /// What a client shows after `events`: each `restart` clears it, and each element takes its place.
    struct Shown: Equatable {
        var ingredients: [Ingredient]?
        var recipes: [Recipe] = []

        init(after events: [Event]) {
            for event in events {
                switch event.partial {
                case .ingredients(let ingredients)?: self.ingredients = ingredients
                case .recipe(let index, let recipe)?:
                    #expect(index == recipes.count, "recipe \(index) shown after \(recipes.count) recipes")
                    recipes.append(recipe)
                case .restart?: self = Shown(after: [])
                case .meal?, .line?, nil: continue
                }
            }
        }

        /// Whether this agrees with `result`: its ingredients, and the result's recipes in order, with at most the last
        /// missing: a scan that has ended by the time a gateway reads it sends its result in place of the partials the
        /// client lacks (docs/architecture.md, "Streamed scans"), and the last recipe closes just before the answer ends.
        func agrees(with result: ScanResponse) -> Bool {
            ingredients == result.ingredients && recipes.count >= result.recipes.count - 1
                && recipes == Array(result.recipes.prefix(recipes.count))
        }
    }

    /// The events of `path` (a scan's `/events`) on `gateway`, read as they arrive until the stream ends or `until`
    /// says stop.
    func events(
        _ path: String,
        token: String,
        on gateway: URL,
        lastEventID: Int? = nil,
        until stop: @Sendable (Event) -> Bool = { _ in false }
    ) async throws -> [Event] {
        var request = HTTPClientRequest(url: gateway.absoluteString + path)
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        if let lastEventID { request.headers.add(name: "Last-Event-ID", value: String(lastEventID)) }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(60))
        try #require(response.status == .ok, "\(response.status)")
        var text = ""
        var events: [Event] = []
        for try await chunk in response.body {
            text += String(buffer: chunk)
            while let end = text.range(of: "\n\n") {
                let block = String(text[..<end.lowerBound])
                text.removeSubrange(..<end.upperBound)
                guard let fields = serverSentEvents(in: block + "\n\n").first, let id = fields["id"].flatMap(Int.init) else { continue }
                let event = Event(id: id, name: fields["event"] ?? "", data: Data((fields["data"] ?? "").utf8))
                events.append(event)
                if stop(event) { return events }
            }
        }
        return events
    }

    func start(_ rig: SystemRig, token: String, mode: ScanMode = .fridge) async throws -> String {
        let upload = MultipartUpload.make(photos: [photo], fields: [("mode", mode.rawValue)])
        let created = try await rig.send(.POST, "/v1/scans", token: token, contentType: upload.contentType, body: upload.body)
        try #require(created.status == 202)
        return try #require(created.headers.first(name: "Location"))
    }

    /// A four-recipe answer written at a pace a client can watch: a second or two from first token to last.
    static let watchable = StubBehaviour(timeToFirstTokenMilliseconds: 100, tokensPerSecond: 1_000)

    @Test("a streamed scan's events come in order: status, the ingredients, each recipe, then the result, which is what was shown")
    func eventsInOrder() async throws {
        try await SystemRig.run(behaviour: Self.watchable) { rig in
            let token = try await rig.signIn()
            let location = try await start(rig, token: token)
            let seen = try await events(location + "/events", token: token, on: rig.gateway)
            #expect(seen.map(\.id) == seen.map(\.id).sorted() && Set(seen.map(\.id)).count == seen.count, "ids rise: \(seen.map(\.id))")
            let names = seen.map(\.name).filter { $0 != "status" }
            let result = try #require(seen.last?.scan?.result)
            #expect(names.first == "ingredients" && names.last == "result", "\(names)")
            #expect(names.dropFirst().dropLast().allSatisfy { $0 == "recipe" }, "\(names)")
            let shown = Shown(after: seen)
            #expect(shown.agrees(with: result), "\(shown.recipes.map(\.name)) against \(result.recipes.map(\.name))")
            #expect(rig.stub.snapshot.requests == 1)
        }
    }

    @Test("a receipt scan's events come in order: status, each line with its index, then the result, whose lines are those shown")
    func receiptLinesInOrder() async throws {
        try await SystemRig.run(behaviour: Self.watchable) { rig in
            let token = try await rig.signIn()
            let location = try await start(rig, token: token, mode: .receipt)
            let seen = try await events(location + "/events", token: token, on: rig.gateway)
            let names = seen.map(\.name).filter { $0 != "status" }
            #expect(names.last == "result" && names.dropLast().allSatisfy { $0 == "line" }, "\(names)")
            let lines = seen.compactMap { event -> (Int, ReceiptLine)? in
                if case .line(let index, let line)? = event.partial { (index, line) } else { nil }
            }
            let receipt = try #require(seen.last?.scan?.result?.receipt)
            #expect(lines.map(\.0) == Array(lines.indices))
            #expect(!lines.isEmpty && receipt.lines.starts(with: lines.map(\.1)), "\(lines.count) of \(receipt.lines.count) lines shown")
            #expect(receipt.totalMismatch == nil)
        }
    }

    @Test("a recipe with the profile's allergen, dictated second, never appears in the stream, even briefly; the others do")
    func allergenRecipeIsNeverStreamed() async throws {
        let answer = ModelAnswers.fridge([
            ModelAnswers.Dish("Tomato toast", ingredients: ["bread", "tomato"]),
            ModelAnswers.Dish("Pesto pasta", ingredients: ["spaghetti", "basil pesto"]),
            ModelAnswers.Dish("Tomato salad", ingredients: ["tomato", "olive oil"]),
        ])
        var behaviour = Self.watchable
        behaviour.answers = [answer]
        try await SystemRig.run(behaviour: behaviour) { rig in
            let token = try await rig.signIn()
            let profile = try await rig.send(
                .PUT,
                "/v1/profile",
                token: token,
                contentType: "application/json",
                body: Array(#"{"allergies": ["tree_nuts"]}"#.utf8)
            )
            #expect(profile.status == 200)
            let location = try await start(rig, token: token)
            let seen = try await events(location + "/events", token: token, on: rig.gateway)
            let streamed = seen.filter { $0.name != "result" }.map { String(decoding: $0.data, as: UTF8.self).lowercased() }
            #expect(!streamed.contains { $0.contains("pesto") }, "the pesto recipe was shown")
            let result = try #require(seen.last?.scan?.result)
            #expect(result.recipes.map(\.name) == ["Tomato toast", "Tomato salad"])
            #expect(Shown(after: seen).agrees(with: result))
            #expect(result.withheldRecipes.map(\.name) == ["Pesto pasta"])
        }
    }

    @Test("a stream cut mid-recipe and retried shows nothing that contradicts the result, and the stored result is whole")
    func cutStreamIsRetriedWithoutContradiction() async throws {
        var behaviour = Self.watchable
        (behaviour.fault, behaviour.faultCount, behaviour.streamFaultAt) = (.streamCut, 1, 0.6)
        try await SystemRig.run(behaviour: behaviour) { rig in
            let token = try await rig.signIn()
            let location = try await start(rig, token: token)
            let seen = try await events(location + "/events", token: token, on: rig.gateway)
            let result = try #require(seen.last?.scan?.result)
            #expect(result.recipes.count == 4, "the stored result is whole")
            let shown = Shown(after: seen)
            #expect(shown.agrees(with: result), "\(shown.recipes.map(\.name)) against \(result.recipes.map(\.name))")
            #expect(rig.stub.snapshot.requests == 2, "the cut call and its retry")
        }
    }

    @Test("a client that reconnects after the first recipe with Last-Event-ID, on another gateway, gets the next recipes once each")
    func reconnectOnAnotherGatewayResumes() async throws {
        // Slow enough that the client is back before the model has written the next recipe, a few seconds of tokens
        // away, however loaded the machine.
        try await SystemRig.run(behaviour: StubBehaviour(timeToFirstTokenMilliseconds: 100, tokensPerSecond: 100), gateways: 2) { rig in
            let token = try await rig.signIn()
            let location = try await start(rig, token: token)
            let first = try await events(location + "/events", token: token, on: rig.gateways[0]) { $0.name == "recipe" }
            let firstRecipe = try #require(first.last)
            #expect(firstRecipe.name == "recipe")
            let rest = try await events(location + "/events", token: token, on: rig.gateways[1], lastEventID: firstRecipe.id)
            #expect(rest.allSatisfy { $0.id > firstRecipe.id })
            let recipes = rest.compactMap { event -> Int? in
                if case .recipe(let index, _)? = event.partial { return index }
                return nil
            }
            let result = try #require(rest.last?.scan?.result)
            // The next recipe comes as a partial; the last may not: a scan that has ended by the time a gateway reads it
            // sends its result in place of the partials the client lacks.
            #expect(recipes.first == 1)
            #expect(recipes == Array(1..<(1 + recipes.count)))
            #expect(!rest.contains { $0.name == "ingredients" || $0.name == "restart" })
            #expect(Shown(after: first + rest).recipes == Array(result.recipes.prefix(1 + recipes.count)))
        }
    }

    @Test(
        "a worker killed mid-stream: the scan is redelivered to another, and its client sees the same elements again or a restart, never a contradiction"
    )
    func killedWorkerMidStreamNeverContradicts() async throws {
        try await SystemRig.run(behaviour: StubBehaviour(timeToFirstTokenMilliseconds: 100, tokensPerSecond: 300), workers: 2) { rig in
            let token = try await rig.signIn()
            let location = try await start(rig, token: token)
            let stream = Task { try await events(location + "/events", token: token, on: rig.gateway) }
            // Once the first recipe is on the record, kill the worker writing it.
            let deadline = ContinuousClock.now + .seconds(30)
            var busy: String?
            while busy == nil, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(100))
                guard try await partialCount(of: location, rig: rig) >= 2 else { continue }
                for name in rig.workerNames where try await rig.scrapeMetrics(of: name).value("kiwi_worker_jobs_in_flight") == 1 { busy = name }
            }
            let killed = try #require(busy, "no worker was seen mid-scan")
            rig.processes[killed]!.send(SIGKILL)
            let seen = try await stream.value
            let result = try #require(seen.last?.scan?.result)
            let shown = Shown(after: seen)
            #expect(shown.agrees(with: result), "\(shown.recipes.map(\.name)) against \(result.recipes.map(\.name))")
            #expect(rig.stub.snapshot.requests == 2, "the killed worker's call and the redelivered job's")
        }
    }

    /// How many partials the scan at `location` has stored so far.
    func partialCount(of location: String, rig: SystemRig) async throws -> Int {
        let id = try #require(UUID(uuidString: String(location.split(separator: "/").last ?? "")))
        return try await rig.database { client in
            for try await count in try await client.query("SELECT partial_count FROM scans WHERE id = \(id)").decode(Int.self) { return count }
            return 0
        }
    }
}
