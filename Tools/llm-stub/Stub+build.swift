import Hummingbird
import Logging
import NIOCore

/// The stub's composition root, used by the executable and by tests that run a stub of their own in-process.
func buildStubApplication(
    host: String, port: Int, state: StubState, expectedAPIKey: String?, logger: Logger,
    onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in }
) -> some ApplicationProtocol {
    let router = Router(context: StubRequestContext.self)
    router.get("/health") { _, _ in Response(status: .ok) }
    ChatCompletionsController(state: state, expectedAPIKey: expectedAPIKey).addRoutes(to: router)
    AdminController(state: state).addRoutes(to: router.group("admin"))
    return Application(
        router: router, configuration: ApplicationConfiguration(address: .hostname(host, port: port), serverName: "kiwi-llm-stub"),
        onServerRunning: onServerRunning, logger: logger
    )
}
