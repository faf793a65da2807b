import Foundation
import Hummingbird
import JWTKit
import KiwiAppleSignIn
import Logging
import NIOCore
import Synchronization

/// A real HTTP server publishing a key set the way Apple does, whose keys a test can change, and which
/// counts how often it was asked.
final class JWKSServer: Sendable {
    private let state: Mutex<(jwks: JWKS, requests: Int, failing: Bool, frozen: Bool)>

    init(_ jwks: JWKS) {
        state = Mutex((jwks, 0, false, false))
    }

    /// While failing, the server answers 503, as an outage of Apple's would.
    func setFailing(_ failing: Bool) {
        state.withLock { $0.failing = failing }
    }

    /// While frozen, the server takes each request and never answers it, as a hung server or a silent link would.
    func setFrozen(_ frozen: Bool) {
        state.withLock { $0.frozen = frozen }
    }

    var requests: Int { state.withLock { $0.requests } }

    func publish(_ jwks: JWKS) {
        state.withLock { $0.jwks = jwks }
    }

    /// Serves `GET /auth/keys` on a free loopback port while `body` runs with the key set's URL.
    func serving<Result: Sendable>(_ body: @Sendable (URL) async throws -> Result) async throws -> Result {
        let router = Router()
        router.get("/auth/keys") { _, _ -> Response in
            let (jwks, failing, frozen) = self.state.withLock { state in
                state.requests += 1
                return (state.jwks, state.failing, state.frozen)
            }
            if frozen { try await Task.sleep(for: .seconds(3600)) }
            if failing { return Response(status: .serviceUnavailable) }
            let data = try JSONEncoder().encode(jwks)
            return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: data)))
        }
        let (ports, port) = AsyncStream.makeStream(of: Int.self)
        var logger = Logger(label: "test.jwks-server")
        logger.logLevel = .warning
        let app = Application(
            router: router,
            configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in port.yield(channel.localAddress?.port ?? 0) },
            logger: logger
        )
        return try await withThrowingTaskGroup(of: Result?.self) { group in
            group.addTask {
                try await app.runService(gracefulShutdownSignals: [])
                return nil
            }
            defer { group.cancelAll() }
            var iterator = ports.makeAsyncIterator()
            let bound = await iterator.next() ?? 0
            return try await body(URL(string: "http://127.0.0.1:\(bound)/auth/keys")!)
        }
    }
}
