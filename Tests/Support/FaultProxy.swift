import KiwiConcurrency
import NIOCore
import NIOPosix
import Synchronization

/// A Toxiproxy-style TCP proxy in front of one server, whose link a test degrades while it carries traffic: cut
/// silently (no FIN, no RST: as a frozen node, a changed firewall or a NAT that lost its state cut one), slowed, made
/// flaky, or capped in bandwidth. It is for the faults this machine's kernel cannot make (it has no `netem` qdisc).
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
        /// What the client sends resets the connection (RST both ways) instead of reaching the server.
        case resetTowardServer
        /// What the server sends resets the connection instead of reaching the client: a server that died having
        /// received a request, whose address another host now has.
        case resetTowardClient
        /// Every chunk arrives after a delay uniform in `mean ± jitter`, in order.
        case latency(mean: Duration, jitter: Duration)
        /// Each chunk, with probability `probability`, either stalls its connection for `stall` or resets it (RST),
        /// one or the other at even odds.
        case flaky(probability: Double, stall: Duration)
        /// Each direction of each connection carries at most `bytesPerSecond`.
        case bandwidth(bytesPerSecond: Int)
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

    /// Starts a proxy to `host:port`, listening on a free port of `address`; stop it with ``stop()``.
    public static func start(forwardingTo host: String, port targetPort: Int, listeningOn address: String = "127.0.0.1") async throws -> FaultProxy {
        let link = LinkState()
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { client in
                let connection = link.accepted.withLock { count in
                    count += 1
                    return count
                }
                return ClientBootstrap(group: client.eventLoop).connect(host: host, port: targetPort).flatMapThrowing { server in
                    try server.pipeline.syncOperations.addHandler(Relay(to: client, link: link, direction: .towardClient, connection: connection))
                    try client.pipeline.syncOperations.addHandler(Relay(to: server, link: link, direction: .towardServer, connection: connection))
                    link.open.withLock { $0[connection] = client }
                    client.closeFuture.whenComplete { _ in _ = link.open.withLock { $0.removeValue(forKey: connection) } }
                }
            }
            .bind(host: address, port: 0)
            .get()
        return FaultProxy(port: channel.localAddress?.port ?? 0, link: link, channel: channel)
    }

    /// Applies `fault` to every connection, open or new.
    public func set(_ fault: Fault) {
        link.fault.withLock { $0 = fault }
    }

    /// Applies `fault` to the connections open now, and to none opened later: as when a server dies and its address
    /// moves to another, what was open leads nowhere while what opens next reaches a server.
    public func setOnOpenConnections(_ fault: Fault) {
        let open = connectionsAccepted
        link.openConnectionsFault.withLock { $0 = (fault, open) }
    }

    /// Resets every open connection now, as a node that crashed: each client gets an RST and learns of it at once, idle
    /// or not; the server's side is closed. Connections opened later go through.
    public func resetOpenConnections() {
        for client in link.open.withLock({ Array($0.values) }) { Relay.reset(client) }
    }

    /// How many connections the proxy has accepted so far: which of several proxies in front of one server a client used.
    public var connectionsAccepted: Int {
        link.accepted.withLock { $0 }
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

    /// What becomes of one chunk.
    enum Fate {
        case drop
        /// Delivered once everything before it was, and not before `delay` from now.
        case deliver(after: Duration)
        /// The connection is reset.
        case reset
    }

    let fault = Mutex(FaultProxy.Fault.none)
    /// A fault of the connections up to a number (``FaultProxy/setOnOpenConnections(_:)``), before ``fault``.
    let openConnectionsFault = Mutex<(fault: FaultProxy.Fault, upTo: Int)?>(nil)
    let accepted = Mutex(0)
    /// The client side of each open connection, by its number.
    let open = Mutex<[Int: any Channel]>([:])

    /// What becomes of a chunk of `bytes` on connection number `connection` (counted from 1 as accepted).
    func fate(ofChunkOf bytes: Int, going direction: Direction, on connection: Int) -> Fate {
        let fault =
            openConnectionsFault.withLock { open in open.flatMap { connection <= $0.upTo ? $0.fault : nil } }
            ?? self.fault.withLock { $0 }
        switch (fault, direction) {
        case (.none, _), (.silentTowardServer, .towardClient), (.silentTowardClient, .towardServer),
            (.resetTowardServer, .towardClient), (.resetTowardClient, .towardServer):
            return .deliver(after: .zero)
        case (.resetTowardServer, .towardServer), (.resetTowardClient, .towardClient):
            return .reset
        case (.silent, _), (.silentTowardServer, .towardServer), (.silentTowardClient, .towardClient):
            return .drop
        case (.latency(let mean, let jitter), _):
            return .deliver(after: mean + jitter * Double.random(in: -1...1))
        case (.flaky(let probability, let stall), _):
            guard Double.random(in: 0..<1) < probability else { return .deliver(after: .zero) }
            return Bool.random() ? .deliver(after: stall) : .reset
        case (.bandwidth(let bytesPerSecond), _):
            return .deliver(after: .seconds(Double(bytes) / Double(max(bytesPerSecond, 1))))
        }
    }
}

/// Copies what one side reads to the other side as its link's fault decides: at once, later but in order, never, or by
/// resetting both; a side that closes closes both.
private final class Relay: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer

    private let partner: any Channel
    private let link: LinkState
    private let direction: LinkState.Direction
    private let connection: Int
    /// When the last chunk scheduled goes out: a later chunk never overtakes it.
    private let lastDelivery = Mutex(NIODeadline.distantPast)

    init(to partner: any Channel, link: LinkState, direction: LinkState.Direction, connection: Int) {
        self.partner = partner
        self.link = link
        self.direction = direction
        self.connection = connection
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let bytes = unwrapInboundIn(data)
        switch link.fate(ofChunkOf: bytes.readableBytes, going: direction, on: connection) {
        case .drop:
            return
        case .reset:
            Self.reset(partner)
            Self.reset(context.channel)
        case .deliver(let delay):
            let now = NIODeadline.now()
            let due = lastDelivery.withLock { last in
                last = max(last, now + .nanoseconds(delay.nanoseconds))
                return last
            }
            if due <= now {
                partner.writeAndFlush(bytes, promise: nil)
            } else {
                let partner = self.partner
                context.eventLoop.scheduleTask(deadline: due) { partner.writeAndFlush(bytes, promise: nil) }
            }
        }
    }

    /// Closes `channel` with an RST instead of a FIN; its relay then closes its partner.
    static func reset(_ channel: any Channel) {
        guard let socket = channel as? any SocketOptionProvider else { return channel.close(promise: nil) }
        socket.setSoLinger(linger(l_onoff: 1, l_linger: 0)).whenComplete { _ in channel.close(promise: nil) }
    }

    func channelInactive(context: ChannelHandlerContext) {
        partner.close(promise: nil)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
