import Hummingbird
import Logging
import NIOCore
import NIOHTTPTypes

/// The stub's composition root, used by the executable and by tests that run a stub of their own in-process.
func buildStubApplication(
    host: String,
    port: Int,
    state: StubState,
    expectedAPIKey: String?,
    logger: Logger,
    onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in }
) -> some ApplicationProtocol {
    let router = Router(context: StubRequestContext.self)
    router.get("/health") { _, _ in Response(status: .ok) }
    ChatCompletionsController(state: state, expectedAPIKey: expectedAPIKey).addRoutes(to: router)
    AdminController(state: state).addRoutes(to: router.group("admin"))
    return Application(
        router: router,
        server: .http1(configuration: .init(additionalChannelHandlers: [CloseWhenClientLeaves()])),
        configuration: ApplicationConfiguration(address: .hostname(host, port: port), serverName: "kiwi-llm-stub"),
        onServerRunning: onServerRunning,
        logger: logger
    )
}

/// Closes a connection whose client has closed its side. Hummingbird keeps half-closed connections open, so a
/// handler waiting out a `slow` fault would never learn that its client gave up; OpenAI's servers stop working on a
/// request whose client hung up, and so does the stub.
final class CloseWhenClientLeaves: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case ChannelEvent.inputClosed = event {
            context.close(promise: nil)
        } else {
            context.fireUserInboundEventTriggered(event)
        }
    }
}
