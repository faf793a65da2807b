import AsyncHTTPClient
import Foundation
import KiwiDatabase
import KiwiDevelopment
import KiwiDietGuard
import KiwiModels
import KiwiNutrition
import KiwiOpenAI
import KiwiScans
import KiwiStrictJSON
import KiwiTestSupport
import NIOCore
import NIOHTTP1
import XCTest

@testable import KiwiLLMStub
@testable import KiwiScanWorker

/// The worker's workload of the instruction budget (docs/operations.md, "The instruction budget"): a real-size answer
/// (four recipes with quantities and step details, about 1,650 tokens) streamed in OpenAI's wire format, one chunk per
/// token, through the pipeline as the worker composes it: the stream read, each element validated, guarded, labelled
/// with its nutrition and shown, then the whole answer held to the contract and the profile. The bytes are replayed
/// without a socket, so the count is of Kiwi's work, not of the loopback's.
///
/// An XCTest case, not a swift-testing one: callgrind runs it through XCTest's synchronous entry point, since Debian's
/// valgrind 3.19 crashes on the asynchronous one swift-testing's runner uses. `make test` runs it once; the budget,
/// ``InstructionWorkload/repeats`` times.
final class PipelineInstructionWorkload: XCTestCase {
    /// A profile the answer keeps to, so that the guard checks every recipe and withholds none.
    static let profile = KitchenProfile(allergies: [.lupin, .molluscs], dislikes: ["coriander"])

    /// The answer as the stub streams it, one buffer per event, its padding drawn from a fixed seed.
    static func streamedAnswer() -> [ByteBuffer] {
        let content = FridgeAnswers.everyFridge[0].serialized()
        let completion = ChatCompletion(
            id: "chatcmpl-instruction-workload",
            created: 1_764_374_400,
            model: "gpt-4o-2024-08-06",
            choices: [.init(message: .init(content: content, refusal: nil), finishReason: "stop")],
            usage: .init(promptTokens: 1_100, completionTokens: 1_650)
        )
        let stream = CompletionStream(completion, includeUsage: true, seed: 1)
        return ([stream.opening] + stream.tokens + [stream.closing]).map { ByteBuffer(string: $0) }
    }

    /// The profile of a household of four the answer keeps to (``KitchenProfile/atTable(with:)``), with the seats that
    /// say for whom a recipe would be withheld.
    static let table: (profile: KitchenProfile, seats: [TableSeat]) = {
        let others = [
            KitchenProfile(allergies: [.crustaceans], dislikes: ["olives"]), KitchenProfile(allergies: [.lupin], dislikes: ["anchovies"]),
            KitchenProfile(dislikes: ["blue cheese"]),
        ]
        let seats = ([profile] + others).map { TableSeat(memberId: UUID(), allergies: $0.allergies, diets: $0.diets) }
        return (profile.atTable(with: others), seats)
    }()

    /// Real-size streamed answers go through the worker's pipeline, each succeeding with its four recipes shown.
    func testStreamedAnswers() async throws {
        try await streamAnswers(profile: Self.profile, table: nil)
    }

    /// The same answers made for a household of four (the household leg of the instruction budget): a larger profile to
    /// guard, and the table's seats.
    func testStreamedAnswersForAHousehold() async throws {
        try await streamAnswers(profile: Self.table.profile, table: Self.table.seats)
    }

    private func streamAnswers(profile: KitchenProfile, table: [TableSeat]?) async throws {
        let repeats = InstructionWorkload.repeats ?? 1
        let answer = Self.streamedAnswer()
        let route = ModelRoute(
            ModelRouteSettings(name: "gpt-4o", model: "gpt-4o", baseURL: URL(string: "http://127.0.0.1:9/v1")!, apiKey: "sk-test"),
            detail: .high,
            breaker: CircuitBreaker.Settings(),
            transport: ChatCompletionsTransport { _ in
                HTTPClientResponse(status: .ok, headers: ["content-type": "text/event-stream"], body: .stream(ReplayedBody(answer)))
            },
            logger: testLogger
        )
        let sink = CountingSink()
        let pipeline = PipelineFixtures.streamedPipeline(routes: [route], sink: sink)
        let nutrition = NutritionEstimator(try FoodTable(tsv: KiwiSchema.foodTable))
        // Loaded before the first scan, as the worker loads its lexicons before consuming.
        _ = DietGuard.reading(.en)
        InstructionWorkload.startCounting()
        for _ in 0..<repeats {
            var request = PipelineFixtures.request(profile: profile)
            request.table = table
            request.labels = RecipeLabels(nutrition: nutrition)
            let analysis = await pipeline.analyze(request, logger: testLogger)
            let recipes = try analysis.result.get().recipes
            XCTAssertEqual(recipes.count, 4)
            XCTAssert(recipes.allSatisfy { $0.nutrition != nil }, "every recipe has its nutrition")
        }
        XCTAssertEqual(sink.count, 5 * repeats, "the ingredients and four recipes shown for each answer")
    }
}

/// Counts what the pipeline shows, and keeps none of it.
private final class CountingSink: ScanPartialSink, Sendable {
    private let shown = Locked(0)

    func show(_ partial: ScanPartial, of scanID: UUID, startedBy gateway: String?) async throws -> Bool {
        shown.withLock { $0 += 1 }
        return true
    }

    var count: Int { shown.withLock { $0 } }
}

/// Recorded response bytes, handed out buffer by buffer as a connection would.
private struct ReplayedBody: AsyncSequence, Sendable {
    let buffers: [ByteBuffer]

    init(_ buffers: [ByteBuffer]) {
        self.buffers = buffers
    }

    struct AsyncIterator: AsyncIteratorProtocol {
        var remaining: ArraySlice<ByteBuffer>

        mutating func next() async -> ByteBuffer? {
            remaining.popFirst()
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(remaining: buffers[...])
    }
}
