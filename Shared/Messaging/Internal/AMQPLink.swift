import CRabbitMQ
import CoreMetrics
import Foundation
import KiwiConcurrency
import Logging
import ServiceLifecycle
import Synchronization

/// One connection to RabbitMQ on a thread of its own, reconnecting whenever it drops.
///
/// rabbitmq-c connections must never be used from two threads, and they service heartbeats only while
/// their thread is inside a library call. So a link's thread owns its ``AMQPChannel`` outright and never
/// sleeps in one place for long: it runs the commands other threads submitted, reads every frame that is
/// ready, then `poll`s the socket together with a wake-up pipe — at most half a heartbeat interval, and a
/// new command wakes it at once. After a drop it fails what was in flight (through its role's
/// `connectionLost`), reconnects and runs its role's `setUp` again (declare topology, re-apply qos and confirm
/// mode, re-consume). It connects to the settings' nodes in turn: the first from the first, and after a drop or a
/// failed attempt the next one (wrapping), each failed attempt followed by a capped, jittered backoff. A declaration
/// the broker refuses (``AMQPError/declarationRefused(_:)``) stops the link for good: ``run()`` throws it.
final class AMQPLink: Sendable {
    /// Work for the link's thread. It gets the open channel, or nil when there is none (it should then fail
    /// its caller with ``AMQPError/notConnected``). Throwing means the connection itself is broken.
    typealias Command = @Sendable (AMQPChannel?) throws(AMQPError) -> Void

    /// What the owner of a link does with it; every closure runs on the link's thread.
    struct Role: Sendable {
        /// Prepares a fresh connection.
        var setUp: @Sendable (AMQPChannel) throws(AMQPError) -> Void
        /// Handles a method frame other than a close (e.g. `basic.deliver`, `basic.ack`).
        var handle: @Sendable (AMQPChannel, AMQPMethod) throws(AMQPError) -> Void
        /// The connection is gone (`error`), or the link stops (``AMQPError/shutDown``).
        var connectionLost: @Sendable (AMQPError) -> Void
    }

    private struct State {
        var commands: [Command] = []
        var isConnected = false
        var isStopping = false
        var isStopped = false
        /// Why the link stopped by itself, when it did.
        var failure: AMQPError?
        var stopWaiters: [CheckedContinuation<Void, Never>] = []
        var connectWaiters: [CheckedContinuation<Void, Never>] = []
    }

    private let settings: AMQPSettings
    private let role: Role
    private let logger: Logger
    private let metrics: AMQPMetrics
    private let state = Mutex(State())
    private let wakeUp: WakeUpPipe

    /// - Parameter metrics: The connection's metrics, which its owner records in too (publishes, deliveries).
    init(settings: AMQPSettings, role: Role, metrics: AMQPMetrics, logger: Logger) {
        self.settings = settings
        self.role = role
        self.logger = logger
        self.metrics = metrics
        self.wakeUp = WakeUpPipe()
    }

    /// True while a connection is open and set up: the readiness of this link.
    var isConnected: Bool { state.withLock { $0.isConnected } }

    /// Runs the link until graceful shutdown (or cancellation), then closes the connection and returns; throws when
    /// the link stopped by itself because the broker refused a declaration.
    func run() async throws(AMQPError) {
        start()
        await withGracefulShutdownHandler {
            await withTaskCancellationHandler {
                await waitUntilStopped()
            } onCancel: {
                stop()
            }
        } onGracefulShutdown: {
            self.stop()
        }
        if let failure = state.withLock({ $0.failure }) { throw failure }
    }

    /// Starts the link's thread, which connects and stays connected until ``stop()``.
    private func start() {
        let thread = Thread { [self] in run() }
        thread.name = "amqp \(settings.connectionName)"
        thread.start()
    }

    /// Asks the thread to close the connection politely and end.
    func stop() {
        state.withLock { $0.isStopping = true }
        wakeUp.signal()
    }

    /// Returns once the thread has ended.
    func waitUntilStopped() async {
        await withCheckedContinuation { continuation in
            let stopped = state.withLock { state in
                if !state.isStopped { state.stopWaiters.append(continuation) }
                return state.isStopped
            }
            if stopped { continuation.resume() }
        }
    }

    /// Returns once the link is connected (or stopped).
    func waitUntilConnected() async {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state in
                let ready = state.isConnected || state.isStopped
                if !ready { state.connectWaiters.append(continuation) }
                return ready
            }
            if ready { continuation.resume() }
        }
    }

    /// Queues work for the thread; a stopped link runs it at once without a channel.
    func submit(_ command: @escaping Command) {
        let accepted = state.withLock { state in
            if !state.isStopped { state.commands.append(command) }
            return !state.isStopped
        }
        if accepted { wakeUp.signal() } else { try? command(nil) }
    }

    /// Runs `body` on the link's thread with the open channel and returns its result;
    /// fails with ``AMQPError/notConnected`` when there is no connection.
    func perform<Value: Sendable>(_ body: @escaping @Sendable (AMQPChannel) throws(AMQPError) -> Value) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            submit { channel throws(AMQPError) in
                guard let channel else { return continuation.resume(throwing: AMQPError.notConnected) }
                do throws(AMQPError) {
                    continuation.resume(returning: try body(channel))
                } catch {
                    continuation.resume(throwing: error)
                    throw error
                }
            }
        }
    }

    // MARK: The thread

    private var isStopping: Bool { state.withLock { $0.isStopping } }

    private func run() {
        var generation: UInt64 = 0
        var failures = 0
        var nodes = NodeRotation(settings.nodes)
        while !isStopping {
            generation += 1
            let node = nodes.next()
            let channel: AMQPChannel
            do {
                channel = try AMQPChannel.open(node, settings: settings, generation: generation)
                try role.setUp(channel)
            } catch {
                metrics.failedToOpen.increment()
                if case .declarationRefused = error {
                    logger.critical("cannot use RabbitMQ: \(error)", metadata: ["connection": "\(settings.connectionName)", "broker": "\(node)"])
                    state.withLock { $0.failure = error }
                    break
                }
                failures += 1
                let delay = Self.backoff(afterFailures: failures)
                logger.warning(
                    "cannot connect to RabbitMQ",
                    metadata: ["error": "\(error)", "broker": "\(node)", "retryInMs": "\(delay.milliseconds)"]
                )
                waitWhileDisconnected(for: delay)
                continue
            }
            failures = 0
            metrics.opened.increment()
            if generation > 1 { metrics.reconnections.increment() }
            metrics.open.increment()
            logger.info("connected to RabbitMQ", metadata: ["connection": "\(settings.connectionName)", "broker": "\(node)"])
            let waiters = state.withLock { state in
                state.isConnected = true
                defer { state.connectWaiters = [] }
                return state.connectWaiters
            }
            for waiter in waiters { waiter.resume() }

            let error = serve(channel)
            state.withLock { $0.isConnected = false }
            metrics.open.decrement()
            if error == .shutDown {
                channel.close()
                break
            }
            metrics.lost.increment()
            logger.warning("lost the RabbitMQ connection", metadata: ["error": "\(error)", "broker": "\(node)"])
            role.connectionLost(error)
            // The first attempt after a drop happens at once, to the next node: the cluster's other nodes are most
            // likely up, and a lone broker may well be back already.
        }
        finish()
    }

    /// Serves one connection until it fails or the link stops; returns why it ended.
    private func serve(_ channel: AMQPChannel) -> AMQPError {
        var nextHeartbeatCheck = ContinuousClock.now
        do {
            while true {
                if isStopping { return .shutDown }
                try runCommands(on: channel)
                var checkingHeartbeat = ContinuousClock.now >= nextHeartbeatCheck
                if checkingHeartbeat { nextHeartbeatCheck = .now + .milliseconds(pollInterval) }
                while let frame = try channel.nextFrame(checkingHeartbeat: checkingHeartbeat) {
                    checkingHeartbeat = false
                    try dispatch(frame, on: channel)
                }
                channel.releaseBuffers()
                if channel.hasBufferedInput || state.withLock({ !$0.commands.isEmpty || $0.isStopping }) { continue }
                wakeUp.wait(alongside: channel.socketDescriptor, timeoutMilliseconds: pollInterval)
            }
        } catch {
            return error
        }
    }

    /// Runs the queued commands. When one finds the connection broken, the rest still get an answer
    /// (``AMQPError/notConnected``) rather than being dropped with their callers waiting.
    private func runCommands(on channel: AMQPChannel) throws(AMQPError) {
        let commands = takeCommands()
        for (index, command) in commands.enumerated() {
            do {
                try command(channel)
            } catch {
                for remaining in commands[(index + 1)...] { try? remaining(nil) }
                throw error
            }
        }
    }

    private func dispatch(_ frame: amqp_frame_t, on channel: AMQPChannel) throws(AMQPError) {
        guard frame.frame_type == UInt8(AMQP_FRAME_METHOD) else { return }
        let method = frame.payload.method
        switch method.id {
        case KIWI_AMQP_CONNECTION_CLOSE, KIWI_AMQP_CHANNEL_CLOSE:
            throw AMQPChannel.brokerClosed(method: method.id, decoded: method.decoded)
        case KIWI_AMQP_CONNECTION_BLOCKED:
            channel.isBlocked = true
            logger.warning("RabbitMQ blocked the connection (a resource alarm): publishes fail until it is unblocked")
        case KIWI_AMQP_CONNECTION_UNBLOCKED:
            channel.isBlocked = false
            logger.info("RabbitMQ unblocked the connection")
        default:
            try role.handle(channel, AMQPMethod(id: method.id, decoded: method.decoded))
        }
    }

    private func takeCommands() -> [Command] {
        state.withLock { state in
            defer { state.commands = [] }
            return state.commands
        }
    }

    /// Waits out a reconnection delay, still failing submitted commands promptly and noticing `stop()`.
    private func waitWhileDisconnected(for delay: Duration) {
        let deadline = ContinuousClock.now + delay
        while !isStopping, ContinuousClock.now < deadline {
            for command in takeCommands() { try? command(nil) }
            let remaining = deadline - ContinuousClock.now
            wakeUp.wait(alongside: nil, timeoutMilliseconds: max(1, Int32(clamping: remaining.milliseconds)))
        }
        for command in takeCommands() { try? command(nil) }
    }

    private func finish() {
        role.connectionLost(.shutDown)
        let (commands, stopWaiters, connectWaiters) = state.withLock { state in
            state.isStopped = true
            defer {
                state.commands = []
                state.stopWaiters = []
                state.connectWaiters = []
            }
            return (state.commands, state.stopWaiters, state.connectWaiters)
        }
        for command in commands { try? command(nil) }
        for waiter in connectWaiters + stopWaiters { waiter.resume() }
        logger.info("RabbitMQ link stopped", metadata: ["connection": "\(settings.connectionName)"])
    }

    /// Half a heartbeat interval, at most one second: heartbeats are sent and checked at least that often.
    private var pollInterval: Int32 {
        settings.heartbeatSeconds > 0 ? Int32(min(1000, settings.heartbeatSeconds * 500)) : 1000
    }

    /// Exponential backoff from 100 ms, capped at 5 s, with full jitter so that many clients do not reconnect in step.
    static func backoff(afterFailures failures: Int) -> Duration {
        let ceiling = min(5_000.0, 100.0 * pow(2.0, Double(min(failures - 1, 10))))
        return .milliseconds(Int64(Double.random(in: (ceiling / 2)...ceiling)))
    }
}

/// The order a link tries the nodes in: from the first, then each after the one before it, wrapping around.
struct NodeRotation {
    private let nodes: [AMQPNode]
    private var index = 0

    init(_ nodes: [AMQPNode]) {
        precondition(!nodes.isEmpty, "AMQPSettings always has a node")
        self.nodes = nodes
    }

    /// The node to try now; the following call gives the one after it.
    mutating func next() -> AMQPNode {
        defer { index = (index + 1) % nodes.count }
        return nodes[index]
    }
}

/// A non-blocking pipe that lets other threads interrupt a link thread's `poll`.
private final class WakeUpPipe: Sendable {
    private let readEnd: Int32
    private let writeEnd: Int32

    init() {
        var descriptors: [Int32] = [0, 0]
        guard pipe(&descriptors) == 0 else { fatalError("cannot create a pipe: errno \(errno)") }
        for descriptor in descriptors {
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        }
        readEnd = descriptors[0]
        writeEnd = descriptors[1]
    }

    deinit {
        close(readEnd)
        close(writeEnd)
    }

    /// Wakes the waiting thread (a full pipe already means it will wake).
    func signal() {
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    /// Blocks until the socket is readable, a signal arrives, or the timeout passes; then drains the signals.
    func wait(alongside socket: Int32?, timeoutMilliseconds: Int32) {
        var descriptors = [pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)]
        if let socket, socket >= 0 { descriptors.append(pollfd(fd: socket, events: Int16(POLLIN), revents: 0)) }
        _ = poll(&descriptors, nfds_t(descriptors.count), timeoutMilliseconds)
        var buffer = [UInt8](repeating: 0, count: 64)
        while read(readEnd, &buffer, buffer.count) > 0 {}
    }
}
