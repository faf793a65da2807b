import ArgumentParser
import Hummingbird
import KiwiLogging
import Logging

/// `kiwi-llm-stub`: an OpenAI-compatible Chat Completions server for development, tests and load tests.
@main
struct StubCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kiwi-llm-stub",
        abstract: "Serve an OpenAI-compatible POST /v1/chat/completions with deterministic fridge answers and injectable faults.",
        discussion: "Faults: \(StubFault.allCases.map(\.rawValue).joined(separator: ", ")). Change behaviour at run time with "
            + "PUT /admin/behaviour {\"fault\":\"rate-limit\",\"faultCount\":2} (fields left out take their start-up values); "
            + "read statistics with GET /admin/state."
    )

    @Option(help: "The address to listen on.") var host = "127.0.0.1"
    @Option(help: "The port to listen on.") var port = 8089
    @Option(help: "Mean simulated latency in milliseconds.") var latencyMs = 0
    @Option(help: "Latency jitter in milliseconds: each latency is uniform in mean ± jitter.") var jitterMs = 0
    @Option(help: "A stream's mean time to first token in milliseconds (gpt-4o's by default, with ±150 ms jitter up to the mean).")
    var timeToFirstTokenMs = StreamPace.gpt4oTimeToFirstTokenMilliseconds
    @Option(help: "A stream's mean tokens per second after its first (gpt-4o's by default, ±20 up to the mean); 0: every token at once.")
    var tokensPerSecond = StreamPace.gpt4oTokensPerSecond
    @Option(help: "The fault to serve.") var fault: StubFault = .none
    @Option(help: "Serve the fault to this many requests only, then answer normally.") var faultCount: Int?
    @Option(help: "Answer this many requests normally before the fault starts.") var faultAfter: Int?
    @Option(help: "What rate-limit faults ask clients to wait, in seconds.") var retryAfterSeconds = 1.0
    @Option(help: "Accept only this API key (default: any non-empty bearer token).") var apiKey: String?
    @Option(help: "Write the body of the first valid request to this file (the peer benchmark replays it).") var saveRequest: String?
    @Option(help: "Which receipt a receipt's photos get: by-photo (their hash picks) or supermarket (always the 30-line one).")
    var receipts: ReceiptAnswers.Choice = .byPhoto

    func validate() throws {
        guard timeToFirstTokenMs >= 0, tokensPerSecond >= 0 else { throw ValidationError("A time to first token or a pace cannot be negative.") }
    }

    func run() async throws {
        LoggingSystem.bootstrap { _ in
            var handler = JSONLogHandler(logLevel: .info)
            handler.metadata["service"] = "kiwi-llm-stub"
            return handler
        }
        let behaviour = StubBehaviour(
            fault: fault,
            faultCount: faultCount,
            faultAfter: faultAfter,
            latencyMilliseconds: latencyMs,
            jitterMilliseconds: jitterMs,
            retryAfterSeconds: retryAfterSeconds,
            timeToFirstTokenMilliseconds: timeToFirstTokenMs,
            timeToFirstTokenJitterMilliseconds: StreamPace.gpt4oTimeToFirstTokenJitterMilliseconds,
            tokensPerSecond: tokensPerSecond,
            tokensPerSecondJitter: StreamPace.gpt4oTokensPerSecondJitter,
            receipts: receipts
        )
        let logger = Logger(label: "kiwi-llm-stub")
        let app = buildStubApplication(
            host: host,
            port: port,
            state: StubState(behaviour: behaviour, savingFirstRequestTo: saveRequest),
            expectedAPIKey: apiKey,
            logger: logger
        )
        try await app.runService()
    }
}

extension StubFault: ExpressibleByArgument {}
extension ReceiptAnswers.Choice: ExpressibleByArgument {}
