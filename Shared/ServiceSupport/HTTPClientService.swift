import AsyncHTTPClient
import ServiceLifecycle

/// Keeps an `HTTPClient` for the life of a service group and shuts it down when the group does. Put it first in the
/// group, so it shuts down last, after everything that makes requests with it.
public struct HTTPClientService: Service {
    public let client: HTTPClient

    public init(client: HTTPClient) {
        self.client = client
    }

    public func run() async throws {
        try? await gracefulShutdown()
        try await client.shutdown()
    }
}
