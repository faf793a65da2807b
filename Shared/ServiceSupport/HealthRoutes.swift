import Hummingbird
import KiwiModels

extension HealthStatus: ResponseEncodable {}

extension Router {
    /// `GET /health`: liveness. Answers 200 `{"status":"ok"}` whenever the process can serve at all.
    public func addHealthRoute() {
        get("/health") { _, _ in HealthStatus.ok }
    }
}

extension ApplicationConfiguration {
    /// A service's HTTP server: on `PORT`, on every interface so probes reach it inside a container, with a queue of
    /// pending connections as long as Linux allows by default (`net.core.somaxconn`: 4096 since Linux 5.4, 128 before;
    /// the kernel cuts a larger value to it).
    ///
    /// Hummingbird's 256 overflowed when thousands of clients connected at once while the CPU was busy: the kernel
    /// dropped their handshakes and then reset their connections (docs/measurements/2026-11-29-attribution.md, "D").
    public init(basics: ServiceBasics, serverName: String) {
        self.init(address: .hostname("0.0.0.0", port: basics.port), serverName: serverName, backlog: Self.pendingConnections)
    }

    /// The listen backlog of every service's HTTP server.
    private static let pendingConnections = 4096
}
