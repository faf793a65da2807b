import Hummingbird
import KiwiConcurrency
import NIOCore
import NIOPosix

/// The stub's request context: the basic one, plus the connection, so a fault can reset it.
struct StubRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = CoreRequestContextStorage(source: source)
        channel = source.channel
    }

    /// Room for a 2 MiB photo in base64 inside a request.
    var maxUploadSize: Int { ChatCompletionsController.maximumBodySize }

    /// Sleeps for `duration`, or until the client closes the connection, whichever comes first; throws
    /// `CancellationError` when the client left.
    func sleepWhileConnected(for duration: Duration) async throws {
        let deadline = ContinuousClock.now + duration
        while ContinuousClock.now < deadline {
            guard channel.isActive else { throw CancellationError() }
            try await sleep(for: min(.milliseconds(100), deadline - .now))
        }
    }

    /// Closes the connection with a TCP RST (SO_LINGER with a zero timeout) instead of an orderly close.
    func resetConnection() async throws {
        if let socket = channel as? any SocketOptionProvider {
            try await socket.setSoLinger(linger(l_onoff: 1, l_linger: 0)).get()
        }
        try await channel.close()
    }
}
