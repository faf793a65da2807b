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
    /// A service's HTTP server: on `PORT`, on every interface so probes reach it inside a container.
    public init(basics: ServiceBasics, serverName: String) {
        self.init(address: .hostname("0.0.0.0", port: basics.port), serverName: serverName)
    }
}
