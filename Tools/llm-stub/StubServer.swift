import Foundation
import Hummingbird
import Logging

/// Runs a stub on a free loopback port while `body` runs with its base URL (ending in `/v1`, as
/// `OPENAI_BASE_URL` does) and its state. Tests of the stub and of its clients run their own stub this way.
func withLLMStub<Result: Sendable>(
    behaviour: StubBehaviour = StubBehaviour(),
    expectedAPIKey: String? = nil,
    savingFirstRequestTo sampleFile: String? = nil,
    _ body: @Sendable (_ baseURL: URL, _ state: StubState) async throws -> Result
) async throws -> Result {
    let state = StubState(behaviour: behaviour, savingFirstRequestTo: sampleFile)
    let (ports, port) = AsyncStream.makeStream(of: Int.self)
    var logger = Logger(label: "kiwi-llm-stub")
    logger.logLevel = .critical  // cancelling the server at the end of a test logs errors that mean nothing
    let app = buildStubApplication(host: "127.0.0.1", port: 0, state: state, expectedAPIKey: expectedAPIKey, logger: logger) { channel in
        port.yield(channel.localAddress?.port ?? 0)
    }
    return try await withThrowingTaskGroup(of: Result?.self) { group in
        group.addTask {
            defer { port.finish() }  // a server that could not start must not leave the caller waiting for its port
            try await app.runService(gracefulShutdownSignals: [])
            return nil
        }
        defer { group.cancelAll() }
        var iterator = ports.makeAsyncIterator()
        guard let bound = await iterator.next() else {
            try await group.next()  // rethrows why the server stopped
            throw CancellationError()
        }
        return try await body(URL(string: "http://127.0.0.1:\(bound)/v1")!, state)
    }
}
