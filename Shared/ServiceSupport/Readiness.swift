import Hummingbird

/// The body of `GET /health/ready`: `{"status":"ready", "dependencies": {…}}`, or the API's error shape with the
/// dependencies' states when one does not answer.
struct ReadinessReport: Encodable {
    var status: String?
    var error: String?
    var message: String?
    var dependencies: [String: String]
}

extension Router {
    /// `GET /health/ready`: 200 when every check passes; otherwise 503 naming the dependencies that failed.
    /// Kubernetes and load balancers stop sending traffic to an instance that is not ready. The checks run at once.
    public func addReadinessRoute(checks: [String: @Sendable () async -> Bool]) {
        get("/health/ready") { _, _ -> Response in
            let results = await withTaskGroup(of: (String, Bool).self) { group in
                for (name, check) in checks { group.addTask { (name, await check()) } }
                return await group.reduce(into: [String: Bool]()) { $0[$1.0] = $1.1 }
            }
            let dependencies = results.mapValues { $0 ? "ok" : "unavailable" }
            let failing = results.filter { !$0.value }.keys.sorted()
            guard failing.isEmpty else {
                return try Response.json(
                    ReadinessReport(error: "not_ready", message: "Not ready: \(failing.joined(separator: ", ")) unavailable.", dependencies: dependencies),
                    status: .serviceUnavailable
                )
            }
            return try Response.json(ReadinessReport(status: "ready", dependencies: dependencies))
        }
    }
}
