import Hummingbird

/// The body of `GET /health/ready`: `{"status":"ready"|"degraded", "dependencies": {…}}`, or the API's error shape
/// with the dependencies' states when a required one does not answer.
struct ReadinessReport: Encodable {
    var status: String?
    var error: String?
    var message: String?
    var dependencies: [String: String]
}

extension Router {
    /// `GET /health/ready`: 200 `ready` when every check passes; 503 `not_ready` naming the `required` checks that
    /// failed, with `Retry-After: 1` (a failover or restart is over in seconds); 200 `degraded` when only `optional` ones failed: the service can serve, but not everything (the
    /// gateway with no scan worker consuming still signs in, reports quotas and deletes accounts). Kubernetes and load
    /// balancers stop sending traffic to an instance that is not ready. The checks run at once.
    public func addReadinessRoute(
        checks required: [String: @Sendable () async -> Bool],
        optional: [String: @Sendable () async -> Bool] = [:]
    ) {
        get("/health/ready") { _, _ -> Response in
            let results = await withTaskGroup(of: (String, Bool).self) { group in
                for (name, check) in required.merging(optional, uniquingKeysWith: { first, _ in first }) {
                    group.addTask { (name, await check()) }
                }
                return await group.reduce(into: [String: Bool]()) { $0[$1.0] = $1.1 }
            }
            let dependencies = results.reduce(into: [String: String]()) { states, result in
                states[result.key] = result.value ? "ok" : optional[result.key] != nil ? "degraded" : "unavailable"
            }
            let failing = results.filter { !$0.value && required[$0.key] != nil }.keys.sorted()
            guard failing.isEmpty else {
                return try Response.json(
                    ReadinessReport(
                        error: "not_ready",
                        message: "Not ready: \(failing.joined(separator: ", ")) unavailable.",
                        dependencies: dependencies
                    ),
                    status: .serviceUnavailable,
                    headers: [.retryAfter: "1"]
                )
            }
            let degraded = dependencies.values.contains("degraded")
            return try Response.json(ReadinessReport(status: degraded ? "degraded" : "ready", dependencies: dependencies))
        }
    }
}
