import AsyncHTTPClient
import NIOCore

/// How a request reaches a model's endpoint and its answer comes back: over HTTP (``over(_:)``), or, in the instruction
/// budget's workload, as recorded bytes replayed without a socket, so that what is counted is Kiwi's reading of them.
struct ChatCompletionsTransport: Sendable {
    /// Sends the request and returns the answer's head, its body still to be read.
    let execute: @Sendable (HTTPClientRequest) async throws -> HTTPClientResponse

    /// AsyncHTTPClient's `execute`; the deadline is the caller's (``ChatCompletionsClient/send(deadline:clientRequestID:onFragment:body:)``).
    static func over(_ httpClient: HTTPClient) -> Self {
        Self { try await httpClient.execute($0, deadline: .distantFuture) }
    }
}
