import Foundation
import Hummingbird
import KiwiConcurrency
import KiwiDatabase
import KiwiMessaging
import KiwiServiceSupport
import Logging
import PostgresNIO

/// `GET /health/ready`: 200 when PostgreSQL, RabbitMQ and the auth service all answer; otherwise 503 naming the
/// ones that do not. Load balancers and Kubernetes stop sending traffic to a gateway that is not ready.
struct ReadinessController: Sendable {
    struct Report: Encodable {
        var status: String?
        var error: String?
        var message: String?
        var dependencies: [String: String]
    }

    let postgres: PostgresClient
    let rabbitMQ: @Sendable () -> Bool
    let authService: AuthServiceClient

    func addRoutes(to router: Router<GatewayRequestContext>) {
        router.get("/health/ready", use: ready)
    }

    @Sendable func ready(request: Request, context: GatewayRequestContext) async throws -> Response {
        async let database = isDatabaseUp(logger: context.logger)
        async let auth = authService.isHealthy(requestID: context.requestID)
        let checks = ["postgres": await database, "rabbitmq": rabbitMQ(), "auth": await auth]
        let dependencies = checks.mapValues { $0 ? "ok" : "unavailable" }
        let failing = checks.filter { !$0.value }.keys.sorted()
        guard failing.isEmpty else {
            return try Response.json(
                Report(error: "not_ready", message: "Not ready: \(failing.joined(separator: ", ")) unavailable.", dependencies: dependencies),
                status: .serviceUnavailable
            )
        }
        return try Response.json(Report(status: "ready", dependencies: dependencies))
    }

    private func isDatabaseUp(logger: Logger) async -> Bool {
        (try? await withDeadline(.now + .seconds(2)) { [postgres] in
            try await postgres.execute("SELECT 1", logger: logger)
            return true
        }) ?? false
    }
}
