import Foundation
import KiwiDevelopment
import KiwiModels
import KiwiTestSupport
import NIOHTTP1
import PostgresNIO
import Testing

/// `GET /v1/account/export` through the three real services (docs/architecture.md, "Account export"): the export holds
/// what deleting the account deletes, table by table, as the database's catalogue lists the tables.
@Suite("Account export end to end", .serialized, .timeLimit(.minutes(3)))
struct AccountExportEndToEndTests {
    /// Each table with a column naming a person or a kitchen (``personColumns``), and the key of its rows the export
    /// shows them by, read back from the export.
    static let covered: [String: (table: String, export: @Sendable (AccountExport) -> Set<String>)] = [
        "users": ("SELECT id::text FROM users WHERE id = $person", { [$0.account.userId.uuidString.lowercased()] }),
        // Sessions are exported without a key of theirs: counted.
        "sessions": (
            "SELECT (row_number() OVER ())::text FROM sessions WHERE user_id = $person", { Set($0.account.sessions.indices.map { String($0 + 1) }) }
        ),
        "profiles": (
            "SELECT user_id::text FROM profiles WHERE user_id = $person", { $0.profile == nil ? [] : [$0.account.userId.uuidString.lowercased()] }
        ),
        "devices": ("SELECT right(token, 8) FROM devices WHERE user_id = $person", { Set($0.devices.map(\.tokenEnding)) }),
        "scans": ("SELECT id::text FROM scans WHERE user_id = $person", { Set($0.scans.map { $0.id.uuidString.lowercased() }) }),
        "households": ("SELECT id::text FROM households WHERE id = $kitchen", { Set($0.household.map { [$0.id.uuidString.lowercased()] } ?? []) }),
        "household_members": (
            "SELECT id::text FROM household_members WHERE user_id = $person",
            { Set($0.household.map { [$0.yourMemberId.uuidString.lowercased()] } ?? []) }
        ),
        "saved_recipes": (
            "SELECT id::text FROM saved_recipes WHERE kitchen_id = $kitchen", { Set($0.kitchen.recipes.map { $0.recipe.id.uuidString.lowercased() }) }
        ),
        "saved_recipe_notes": (
            "SELECT saved_recipe_id::text FROM saved_recipe_notes WHERE user_id = $person",
            { Set($0.kitchen.recipes.filter { $0.recipe.note != nil || $0.recipe.rating != nil }.map { $0.recipe.id.uuidString.lowercased() }) }
        ),
        "pantry_items": (
            "SELECT id::text FROM pantry_items WHERE kitchen_id = $kitchen", { Set($0.kitchen.pantry.map { $0.id.uuidString.lowercased() }) }
        ),
        "pantry_prices": ("SELECT key FROM pantry_prices WHERE kitchen_id = $kitchen", { Set($0.kitchen.prices.map(\.food)) }),
        "shopping_list_items": (
            "SELECT id::text FROM shopping_list_items WHERE kitchen_id = $kitchen",
            { Set($0.kitchen.shoppingList.map { $0.id.uuidString.lowercased() }) }
        ),
        "meal_plans": (
            "SELECT id::text FROM meal_plans WHERE kitchen_id = $kitchen", { Set($0.kitchen.plans.map { $0.id.uuidString.lowercased() }) }
        ),
        // Named by its plan, not by a column of the catalogue's.
        "plan_meal_recipes": (
            "SELECT meal_id::text FROM plan_meal_recipes WHERE plan_id IN (SELECT id FROM meal_plans WHERE kitchen_id = $kitchen)",
            { Set($0.kitchen.planRecipes.map { $0.mealId.uuidString.lowercased() }) }
        ),
    ]

    /// Tables with such a column that the export leaves out, and why.
    static let exempt: [String: String] = [
        "household_invitations": "an invitation is kept as the hash of its code, which only its maker saw",
        "pantry_receipt_lines": "which receipt lines went into the pantry: bookkeeping that the receipt scans and the pantry's items already show",
    ]

    /// The columns that name a person or a kitchen (a person's own, or a household's).
    static let personColumns = ["user_id", "household_id", "kitchen_id", "created_by"]

    @Test("every table with a column naming a person or a kitchen is exported or exempt, with its reason")
    func catalogueIsCovered() async throws {
        try await SystemRig.run { rig in
            let tables = try await rig.database { client in
                let rows = try await client.query(
                    "SELECT DISTINCT table_name::text FROM information_schema.columns WHERE table_schema = 'public' AND column_name = ANY(\(Self.personColumns))"
                )
                var names: Set<String> = []
                for try await name in rows.decode(String.self) { names.insert(name) }
                return names
            }
            let known = Set(Self.covered.keys).union(Self.exempt.keys)
            #expect(tables.subtracting(known).isEmpty, "neither exported nor exempt: \(tables.subtracting(known).sorted())")
            // `users` and `households` name theirs by `id`, `plan_meal_recipes` by its plan.
            let named = Set(Self.covered.keys).subtracting(["users", "households", "plan_meal_recipes"])
            #expect(named.isSubset(of: tables), "a covered table is gone from the catalogue")
        }
    }

    @Test("the export of a person with rows in every table holds exactly the rows deleting the account removes")
    func exportEqualsDeletion() async throws {
        try await SystemRig.run { rig in
            let token = try await rig.signIn()
            let person = try await rig.userID(of: token)
            let kitchen = try await Self.fillEveryTable(rig, token: token)
            let before = try await Self.rows(rig, person: person, kitchen: kitchen)
            for (table, keys) in before where Self.covered[table] != nil {
                #expect(!keys.isEmpty, "the person has no row in \(table): the test would prove nothing there")
            }
            let answer = try await rig.send(.GET, "/v1/account/export", token: token)
            try #require(answer.status == 200, "the export answered \(answer.status)")
            let export = try KiwiJSON.decoder().decode(AccountExport.self, from: answer.body)
            #expect(export.kitchen.shared)
            #expect(try await rig.send(.DELETE, "/v1/account", token: token).status == 200)
            let after = try await Self.rows(rig, person: person, kitchen: kitchen)
            for (table, covered) in Self.covered {
                let removed = before[table, default: []].subtracting(after[table, default: []])
                #expect(after[table, default: []].isEmpty, "\(table) kept rows of the deleted account")
                #expect(covered.export(export) == removed, "\(table): the export and what deletion removed differ")
            }
        }
    }

    /// Gives the person rows in every covered table, in a household of their own (whose kitchen deletion removes
    /// with its last member); answers the household's id, their kitchen.
    static func fillEveryTable(_ rig: SystemRig, token: String) async throws -> UUID {
        func send(_ method: HTTPMethod, _ path: String, _ json: String? = nil) async throws -> SystemRig.Exchange {
            try await rig.send(method, path, token: token, contentType: json == nil ? nil : "application/json", body: json.map { Array($0.utf8) })
        }
        try #require(try await send(.PUT, "/v1/profile", #"{"allergies": ["peanuts"], "currency": "EUR"}"#).status == 200)
        let device = String(repeating: "5e", count: 32)
        try #require(try await send(.PUT, "/v1/devices/\(device)", #"{"bundleId": "com.example.kiwi", "environment": "sandbox"}"#).status == 200)
        let household = try await send(.POST, "/v1/household", #"{"name": "Home", "displayName": "Sam"}"#)
        try #require(household.status == 201)
        let kitchen = try #require((try household.json()["id"] as? String).flatMap(UUID.init(uuidString:)))
        try #require(try await send(.POST, "/v1/household/invitations").status == 201)
        let photo = SyntheticJPEG.make(size: 16 * 1024, seed: 61)
        let scan = try await rig.finishedScan(photo, token: token)
        let recipe = try #require(scan.result?.recipes.first)
        let saved = try await rig.saveRecipe(recipe, of: scan, token: token)
        try #require(saved.status == 201)
        let savedID = saved.saved.id.uuidString.lowercased()
        try #require(try await send(.PATCH, "/v1/recipes/\(savedID)", #"{"note": "less salt", "rating": 4}"#).status == 200)
        try #require(try await send(.POST, "/v1/recipes/\(savedID)/share").status == 201)
        let receipt = try await rig.finishedScan(photo, mode: .receipt, token: token)
        try #require(try await send(.POST, "/v1/pantry/items", #"{"scanId": "\#(receipt.id.uuidString.lowercased())"}"#).status == 200)
        try #require(try await send(.POST, "/v1/shopping-list/items", #"{"name": "Milk"}"#).status == 200)
        let plan = try await send(.POST, "/v1/plans", #"{"days": 1}"#)
        try #require(plan.status == 202)
        let planID = try #require(try plan.json()["id"] as? String)
        let planPath = "/v1/plans/\(planID)"
        while try await send(.GET, planPath).json()["status"] as? String == "planning" { try await Task.sleep(for: .milliseconds(100)) }
        // Every meal's recipe, written: asked again until none is being written.
        while try await send(.POST, "\(planPath)/recipes").status == 202 { try await Task.sleep(for: .milliseconds(200)) }
        return kitchen
    }

    /// The keys of each covered table's rows of `person` and `kitchen`.
    static func rows(_ rig: SystemRig, person: UUID, kitchen: UUID) async throws -> [String: Set<String>] {
        try await rig.database { client in
            var found: [String: Set<String>] = [:]
            for (table, covered) in Self.covered {
                let sql = covered.table.replacingOccurrences(of: "$person", with: "'\(person.uuidString)'")
                    .replacingOccurrences(of: "$kitchen", with: "'\(kitchen.uuidString)'")
                var keys: Set<String> = []
                for try await key in try await client.query(PostgresQuery(unsafeSQL: sql)).decode(String.self) { keys.insert(key) }
                found[table] = keys
            }
            return found
        }
    }
}
