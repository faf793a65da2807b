import Foundation
import KiwiDatabase
import KiwiDevelopment
import KiwiInternalAPI
import KiwiJPEG
import KiwiModels
import KiwiTestSupport
import Logging
import NIOHTTP1
import PostgresNIO
import Testing

@testable import KiwiLLMStub

/// Every case a mobile client can hit, through HTTP against the real executables.
@Suite("Public API", .serialized, .timeLimit(.minutes(3)))
struct GatewayAPITests {
    let photo = SyntheticJPEG.make(size: 16 * 1024, seed: 31)

    func remaining(token: String, rig: SystemRig) async throws -> Int {
        try await rig.send(.GET, "/v1/quota", token: token).json()["remaining"] as? Int ?? -1
    }

    @Test("requests without a usable bearer token are 401 in the error shape; a valid one passes")
    func authentication() async throws {
        try await SystemRig.run { rig in
            let token = try await rig.signIn()
            let expired = try await rig.signIn()
            try await rig.database { client in
                try await client.execute(
                    "UPDATE sessions SET expires_at = now() - interval '1 second' WHERE token_hash = \(SessionTokenDigest.sha256(expired))",
                    logger: Logger(label: "test.system")
                )
            }
            let revoked = try await rig.signIn()
            #expect(try await rig.send(.DELETE, "/v1/auth/session", token: revoked).status == 204)
            for (header, why) in [
                (nil, "no header"), ("Basic dXNlcjpwYXNz", "another scheme"), ("Bearer", "no token"), ("Bearer a b", "two tokens"),
                ("Bearer \(String(repeating: "x", count: 43))", "unknown token"), ("Bearer \(expired)", "expired session"),
                ("Bearer \(revoked)", "revoked session"),
            ] as [(String?, String)] {
                let answer = try await rig.send(.GET, "/v1/quota", headers: header.map { [("Authorization", $0)] } ?? [])
                #expect(answer.status == 401, "\(why)")
                #expect(try answer.json()["error"] as? String == "unauthorized", "\(why)")
            }
            #expect(try await rig.send(.GET, "/v1/quota", token: token).status == 200)
        }
    }

    @Test("with 0 and 3 scans used a scan is allowed; with 4 it is 429 with resetsAt and Retry-After, before the body is read")
    func quotaLimit() async throws {
        try await SystemRig.run { rig in
            let token = try await rig.signIn()
            #expect(try await rig.scan(photo, token: token).status == 200)
            try await rig.setUsed(3, token: token)
            #expect(try await rig.scan(photo, token: token).status == 200)
            let refused = try await rig.scan(photo, token: token)
            #expect(refused.status == 429)
            let body = try refused.json()
            #expect(body["error"] as? String == "rate_limit_exceeded")
            #expect(body["message"] as? String == "You've reached your daily scan limit.")
            let resetsAt = try #require((body["resetsAt"] as? String).flatMap(ISO8601DateFormatter().date(from:)))
            let retryAfter = try #require(refused.headers.first(name: "Retry-After").flatMap(Int.init))
            #expect(abs(resetsAt.timeIntervalSinceNow - Double(retryAfter)) < 5)
            #expect(rig.stub.snapshot.requests == 2)
        }
    }

    @Test("GET /v1/quota: 4 left with none used, 2 with 2 used, renewing at the next midnight UTC")
    func quotaReport() async throws {
        try await SystemRig.run { rig in
            let token = try await rig.signIn()
            let day = UTCDay()
            let fresh = try await rig.send(.GET, "/v1/quota", token: token).json()
            #expect(fresh["remaining"] as? Int == 4 && fresh["limit"] as? Int == 4)
            try await rig.setUsed(2, token: token)
            let later = try await rig.send(.GET, "/v1/quota", token: token).json()
            #expect(day.allows(later["remaining"] as? Int, exactly: 2, limit: 4))
            var utc = Calendar(identifier: .gregorian)
            utc.timeZone = TimeZone(identifier: "UTC")!
            let midnight = utc.nextDate(after: Date(), matching: DateComponents(hour: 0, minute: 0, second: 0), matchingPolicy: .strict)!
            #expect(later["resetsAt"] as? String == ISO8601DateFormatter().string(from: midnight))
        }
    }

    @Test(
        "answers longer than the contract allows are 502 and a stub slower than SCAN_TIMEOUT_SECONDS is 504; neither costs a scan",
        arguments: [
            // The over-length answer is refused twice (the repair too) within a deadline long enough for a loaded
            // machine; the slow stub meets a short one.
            (StubFault.overLength, 502, "invalid_model_response", 60), (StubFault.slow, 504, "scan_timeout", 3),
        ]
    )
    func failuresAreRefunded(_ fault: StubFault, _ status: Int, _ code: String, _ timeoutSeconds: Int) async throws {
        try await SystemRig.run(behaviour: StubBehaviour(fault: fault), environment: ["SCAN_TIMEOUT_SECONDS": "\(timeoutSeconds)"]) { rig in
            let token = try await rig.signIn()
            let answer = try await rig.scan(photo, token: token)
            #expect(answer.status == status)
            #expect(try answer.json()["error"] as? String == code)
            let remaining = try await remaining(token: token, rig: rig)
            #expect(remaining == 4)
        }
    }

    @Test("with no worker running a scan is 504 after SCAN_TIMEOUT_SECONDS and costs nothing")
    func noWorker() async throws {
        try await SystemRig.run(environment: ["SCAN_TIMEOUT_SECONDS": "2"], workers: 0) { rig in
            let token = try await rig.signIn()
            let answer = try await rig.scan(photo, token: token)
            #expect(answer.status == 504)
            let remaining = try await remaining(token: token, rig: rig)
            #expect(remaining == 4)
        }
    }

    @Test("one user firing 20 scans at once gets exactly 4 answers and 16 refusals, and 4 scans are stored")
    func concurrentScans() async throws {
        try await SystemRig.run { rig in
            let token = try await rig.signIn()
            let day = UTCDay()
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<20 { group.addTask { try await rig.scan(photo, token: token).status } }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == 200 }.count == 4)
            #expect(statuses.filter { $0 == 429 }.count == 16)
            let remaining = try await remaining(token: token, rig: rig)
            #expect(day.allows(remaining, exactly: 0, limit: 4))
        }
    }

    /// The rows of `user` in each table of the schema that holds a user's data: `users` by its id, every table with a
    /// `user_id` column, and every table with a `kitchen_id` column by the user's own kitchen and `household`'s, found
    /// in the catalogue so that a table added later is counted too.
    func rowsOfUser(_ user: UUID, household: UUID, rig: SystemRig) async throws -> [String: Int] {
        try await rig.database { client in
            var conditions = ["users": "id = '\(user.uuidString)'"]
            let tables = try await client.query(
                """
                SELECT table_name::text, column_name::text FROM information_schema.columns
                WHERE table_schema = current_schema() AND column_name IN ('user_id', 'kitchen_id')
                """
            )
            for try await (table, column) in tables.decode((String, String).self) {
                conditions[table] =
                    column == "user_id" ? "user_id = '\(user.uuidString)'" : "kitchen_id IN ('\(user.uuidString)', '\(household.uuidString)')"
            }
            var rows: [String: Int] = [:]
            for (table, condition) in conditions {
                let counted = try await client.query(PostgresQuery(unsafeSQL: "SELECT count(*) FROM \(table) WHERE \(condition)"))
                for try await count in counted.decode(Int.self) { rows[table] = count }
            }
            return rows
        }
    }

    @Test("deleting the account removes the user's rows from every table, and the token stops working on another gateway within a second")
    func accountDeletion() async throws {
        try await SystemRig.run(gateways: 2) { rig in
            let token = try await rig.signIn()
            let user = try await rig.userID(of: token)
            // A row in every table that holds a user's data: a session, a scan, a saved recipe with a note, a profile, a
            // pantry item and a receipt's line in it, a shopping list item, a meal plan, a household's member and a
            // device; the kitchen's rows are the household's.
            let scan = try await rig.finishedScan(photo, token: token)
            let (savedStatus, saved) = try await rig.saveRecipe(try #require(scan.result?.recipes.first), of: scan, token: token)
            #expect(savedStatus == 201)
            let note = Array(#"{"note": "Less salt"}"#.utf8)
            let noted = "/v1/recipes/\(saved.id.uuidString.lowercased())"
            #expect(try await rig.send(.PATCH, noted, token: token, contentType: "application/json", body: note).status == 200)
            let profile = Array(#"{"servings": 2}"#.utf8)
            #expect(try await rig.send(.PUT, "/v1/profile", token: token, contentType: "application/json", body: profile).status == 200)
            for (path, status) in [("/v1/pantry/items", 201), ("/v1/shopping-list/items", 200)] {
                let item = Array(#"{"name": "Milk"}"#.utf8)
                #expect(try await rig.send(.POST, path, token: token, contentType: "application/json", body: item).status == status)
            }
            let receipt = try await rig.finishedScan(photo, mode: .receipt, token: token)
            let stock = Array(#"{"scanId": "\#(receipt.id.uuidString.lowercased())"}"#.utf8)
            #expect(try await rig.send(.POST, "/v1/pantry/items", token: token, contentType: "application/json", body: stock).status == 200)
            let plan = Array(#"{"days": 1}"#.utf8)
            #expect(try await rig.send(.POST, "/v1/plans", token: token, contentType: "application/json", body: plan).status == 202)
            let device = Array(#"{"bundleId": "com.example.kiwi", "environment": "sandbox"}"#.utf8)
            let registered = try await rig.send(
                .PUT,
                "/v1/devices/\(String(repeating: "3f", count: 32))",
                token: token,
                contentType: "application/json",
                body: device
            )
            #expect(registered.status == 200)
            let creation = Array(#"{"name": "Home", "displayName": "Sam"}"#.utf8)
            let created = try await rig.send(.POST, "/v1/household", token: token, contentType: "application/json", body: creation)
            #expect(created.status == 201)
            let household = try #require((try created.json()["id"] as? String).flatMap(UUID.init(uuidString:)))
            let before = try await rowsOfUser(user, household: household, rig: rig)
            let tables = [
                "users", "sessions", "scans", "saved_recipes", "saved_recipe_notes", "profiles", "pantry_items", "shopping_list_items",
                "household_members", "meal_plans", "pantry_receipt_lines", "pantry_prices", "devices",
            ]
            #expect(Set(tables).isSubset(of: before.keys), "\(before)")
            #expect(before.values.allSatisfy { $0 > 0 }, "a table the test left empty proves nothing: \(before)")
            // The second gateway has the session cached.
            #expect(try await rig.send(.GET, "/v1/quota", token: token, to: rig.gateways[1]).status == 200)
            #expect(try await rig.send(.DELETE, "/v1/account", token: token).status == 200)
            let deadline = ContinuousClock.now + .seconds(1)
            var status = 0
            repeat {
                status = try await rig.send(.GET, "/v1/quota", token: token, to: rig.gateways[1]).status
            } while status != 401 && ContinuousClock.now < deadline
            #expect(status == 401)
            let after = try await rowsOfUser(user, household: household, rig: rig)
            #expect(Set(after.keys) == Set(before.keys) && after.values.allSatisfy { $0 == 0 }, "\(after)")
        }
    }

    @Test("deleting an account without a session is 401")
    func unauthenticatedDeletion() async throws {
        try await SystemRig.run { rig in
            let answer = try await rig.send(.DELETE, "/v1/account")
            #expect(answer.status == 401)
        }
    }

    @Test("with the auth service down, an unknown session is 503 auth_unavailable, not 401")
    func authDown() async throws {
        try await SystemRig.run { rig in
            let auth = try #require(rig.processes["kiwi-auth"])
            auth.send(SIGTERM)
            _ = await auth.waitForExit()
            let answer = try await rig.send(.GET, "/v1/quota", token: String(repeating: "y", count: 43))
            #expect(answer.status == 503)
            #expect(try answer.json()["error"] as? String == "auth_unavailable")
        }
    }

    @Test("a gateway whose INTERNAL_API_TOKEN the auth service refuses answers 503 auth_unavailable, never 401")
    func wrongInternalToken() async throws {
        try await SystemRig.run(gatewayEnvironment: ["INTERNAL_API_TOKEN": String(repeating: "w", count: 40)]) { rig in
            let answer = try await rig.send(.GET, "/v1/quota", token: String(repeating: "y", count: 43))
            #expect(answer.status == 503)
            #expect(try answer.json()["error"] as? String == "auth_unavailable")
        }
    }

    @Test("GET /health/ready is 200 ready with every dependency up and a scan worker consuming")
    func readiness() async throws {
        try await SystemRig.run { rig in
            let answer = try await rig.readiness(until: "ready")
            #expect(answer.status == 200)
            #expect(try answer.json()["status"] as? String == "ready")
            #expect(
                try answer.json()["dependencies"] as? [String: String] == ["postgres": "ok", "rabbitmq": "ok", "auth": "ok", "scanWorkers": "ok"]
            )
        }
    }

    @Test("GET /health/ready is 200 degraded, not ready, while no scan worker consumes the job queue")
    func readinessWithoutWorkers() async throws {
        try await SystemRig.run(workers: 0) { rig in
            let answer = try await rig.readiness(until: "degraded")
            #expect(answer.status == 200)
            #expect(try answer.json()["status"] as? String == "degraded")
            #expect((try answer.json()["dependencies"] as? [String: String])?["scanWorkers"] == "degraded")
        }
    }

    @Test("the auth service and the scan worker answer GET /health/ready with their own dependencies")
    func otherServicesReadiness() async throws {
        try await SystemRig.run { rig in
            let auth = try await rig.readiness(until: "ready", of: rig.servers["kiwi-auth"])
            #expect(auth.status == 200)
            #expect(try auth.json()["dependencies"] as? [String: String] == ["postgres": "ok"])
            let worker = try await rig.readiness(until: "ready", of: rig.servers["kiwi-scan-worker"])
            #expect(worker.status == 200)
            #expect(try worker.json()["dependencies"] as? [String: String] == ["rabbitmq": "ok", "postgres": "ok"])
        }
    }
}
