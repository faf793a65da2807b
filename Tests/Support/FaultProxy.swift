import NIOCore
import NIOPosix
import Synchronization

/// A TCP proxy on a free loopback port in front of one server, whose link a test can cut without closing it: a
/// silent partition, as a frozen node, a changed firewall or a NAT that lost its state make one. Bytes are dropped,
/// never answered with a FIN or RST, so only timeouts and heartbeats can notice.
public final class FaultProxy: Sendable {
    /// What the link does now.
    public enum Fault: Sendable, Hashable {
        /// Every byte goes through.
        case none
        /// Nothing goes through either way.
        case silent
        /// What the client sends is dropped; the server's bytes still arrive.
        case silentTowardServer
        /// What the server sends is dropped; the client's bytes still arrive.
        case silentTowardClient
    }

    /// The port clients connect to instead of the server's.
    public let port: Int
    private let link: LinkState
    private let channel: any Channel

    private init(port: Int, link: LinkState, channel: any Channel) {
        self.port = port
        self.link = link
        self.channel = channel
    }

    /// Starts a proxy to `host:port`; stop it with ``stop()``.
    public static func start(forwardingTo host: String, port targetPort: Int) async throws -> FaultProxy {
        let link = LinkState()
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { client in
                ClientBootstrap(group: client.eventLoop).connect(host: host, port: targetPort).flatMapThrowing { server in
                    try server.pipeline.syncOperations.addHandler(Relay(to: client, passes: { link.passes(.towardClient) }))
                    try client.pipeline.syncOperations.addHandler(Relay(to: server, passes: { link.passes(.towardServer) }))
                }
            }
            .bind(host: "127.0.0.1", port: 0)
            .get()
        return FaultProxy(port: channel.localAddress?.port ?? 0, link: link, channel: channel)
    }

    /// Applies `fault` to every connection, open or new.
    public func set(_ fault: Fault) {
        link.fault.withLock { $0 = fault }
    }

    /// Stops accepting connections; open ones close when either side closes them.
    public func stop() async {
        try? await channel.close()
    }

}

/// The fault every relay of one proxy obeys.
private final class LinkState: Sendable {
    enum Direction {
        case towardServer, towardClient
    }

    let fault = Mutex(FaultProxy.Fault.none)

    func passes(_ direction: Direction) -> Bool {
        switch (fault.withLock { $0 }, direction) {
        case (.none, _): true
        case (.silent, _): false
        case (.silentTowardServer, .towardClient), (.silentTowardClient, .towardServer): true
        case (.silentTowardServer, .towardServer), (.silentTowardClient, .towardClient): false
        }
    }
}

/// Copies what one side reads to the other side, or drops it while the link is cut; a side that closes closes both.
private final class Relay: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer

    private let partner: any Channel
    private let passes: @Sendable () -> Bool

    init(to partner: any Channel, passes: @escaping @Sendable () -> Bool) {
        self.partner = partner
        self.passes = passes
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let bytes = unwrapInboundIn(data)
        if passes() { partner.writeAndFlush(bytes, promise: nil) }
    }

    func channelInactive(context: ChannelHandlerContext) {
        partner.close(promise: nil)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
