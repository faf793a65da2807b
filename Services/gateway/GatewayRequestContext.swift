import Hummingbird
import KiwiServiceSupport
import NIOCore

/// What the gateway knows about a request besides the request itself.
struct GatewayRequestContext: TrackedRequestContext {
    var coreContext: CoreRequestContextStorage
    /// `X-Request-Id`: the client's, or one the gateway made up; on every response and every call behind it.
    var requestID = ""
    /// The caller, once ``AuthenticationMiddleware`` has checked the bearer token.
    var session: AuthenticatedSession?
    /// The bearer token of that session, held only for signing it out.
    var bearerToken: String?
    /// The connection the request came on.
    private let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = CoreRequestContextStorage(source: source)
        channel = source.channel
    }

    /// The address of the connection's other end (the client, or the proxy in front of the gateway); nil when
    /// there is none, as in the in-process router tests. Read only by the routes that need it.
    var remoteAddress: String? { channel.remoteAddress?.ipAddress }

    /// Facts inner middleware learn that the access log written by the outer one should show. A reference, because
    /// every middleware works on its own copy of the context.
    let facts = RequestFacts()

    /// The signed-in session; routes behind ``AuthenticationMiddleware`` always have one.
    var authenticatedSession: AuthenticatedSession {
        get throws { try session.orThrow(APIError.unauthorized()) }
    }
}

extension Optional {
    fileprivate func orThrow(_ error: @autoclosure () -> some Error) throws -> Wrapped {
        guard let value = self else { throw error() }
        return value
    }
}
