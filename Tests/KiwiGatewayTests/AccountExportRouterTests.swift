import Foundation
import HTTPTypes
import HummingbirdTesting
import KiwiInternalAPI
import KiwiModels
import KiwiScans
import NIOCore
import Testing

@testable import KiwiGateway

/// `GET /v1/account/export`, in-process on fakes; that it holds what deleting the account deletes is
/// `AccountExportEndToEndTests`'s, on the real database.
@Suite("Gateway router: account export")
struct AccountExportRouterTests {
    /// The export of `token`'s person, decoded; the raw text with it.
    static func export(_ client: some TestClientProtocol, token: String) async throws -> (AccountExport, String) {
        let answer = try await client.execute(.get, "/v1/account/export", token: token)
        try #require(answer.status == .ok, "the export answered \(answer.status)")
        #expect(answer.headers[.contentType] == "application/json; charset=utf-8")
        #expect(answer.headers[.cacheControl] == "no-store")
        let text = String(buffer: answer.body)
        return (try KiwiJSON.decoder().decode(AccountExport.self, from: Data(text.utf8)), text)
    }

    @Test("the export holds the account, profile, devices by their ending, kitchen and scans")
    func holdsEverything() async throws {
        let gateway = FakeGateway()
        let (token, session, _) = gateway.signIn()
        let account = UserAccount(
            userId: session.userId,
            appleUserId: "001234.abc.0042",
            email: "cook@example.com",
            createdAt: Date(timeIntervalSince1970: 1_780_000_000),
            sessions: [SessionPeriod(createdAt: Date(timeIntervalSince1970: 1_780_000_000), expiresAt: Date(timeIntervalSince1970: 1_782_592_000))]
        )
        gateway.accounts.keep(account, of: session.userId)
        let device = String(repeating: "7c", count: 32)
        try await gateway.test { client async throws in
            #expect(try await client.execute(.put, "/v1/profile", token: token, body: ByteBuffer(string: #"{"allergies": ["milk"]}"#)).status == .ok)
            let registration = ByteBuffer(string: #"{"bundleId": "com.example.kiwi", "environment": "production"}"#)
            #expect(try await client.execute(.put, "/v1/devices/\(device)", token: token, body: registration).status == .ok)
            #expect(try await client.scan(testPhoto, token: token).status == .ok)
            let (export, text) = try await Self.export(client, token: token)
            #expect(export.account == account)
            #expect(export.profile == KitchenProfile(allergies: [.milk]))
            #expect(export.devices.map(\.tokenEnding) == ["7c7c7c7c"])
            #expect(!text.contains(device))
            #expect(export.household == nil)
            #expect(export.kitchen.shared == false)
            #expect(export.scans.count == 1)
        }
    }

    @Test("a recipe box of several pages is streamed whole, newest first, each with the person's note and its share link")
    func recipeBoxStreamsWhole() async throws {
        let gateway = FakeGateway()
        let (token, session, _) = gateway.signIn()
        let kitchen = Kitchen.own(session.userId)
        var saved: [SavedRecipe] = []
        for index in 0..<(AccountExportController.pageSize * 2 + 5) {
            var recipe = SavedRecipeStoreTests().copy(named: "Recipe \(index)")
            recipe.savedAt = Date(timeIntervalSince1970: 1_780_000_000 + Double(index))
            guard case .saved(let kept) = try await gateway.recipes.save(recipe, for: kitchen, capacity: 1000) else { throw RecipeBoxTestFailure() }
            saved.append(kept)
        }
        let box = saved
        let shared = try #require(try await gateway.recipes.share(saved[3].id, of: kitchen, token: "exported-share-token-abcdef"))
        _ = try await gateway.recipes.update(saved[7].id, of: kitchen, SavedRecipeChanges(note: .set("more garlic"), rating: .set(5)))
        try await gateway.test { client async throws in
            let (export, _) = try await Self.export(client, token: token)
            #expect(export.kitchen.recipes.map(\.recipe.id) == box.reversed().map(\.id))
            let byID = Dictionary(uniqueKeysWithValues: export.kitchen.recipes.map { ($0.recipe.id, $0) })
            #expect(byID[box[3].id]?.share?.url == shared.link(at: URL(string: "http://localhost:8080")!).url)
            #expect(byID[box[4].id]?.share == nil)
            #expect(byID[box[7].id]?.recipe.note == "more garlic")
            #expect(byID[box[7].id]?.recipe.rating == 5)
        }
    }

    @Test("a member's export has the household's kitchen, marked shared, and the other members by name only, in their scans too")
    func householdIsShared() async throws {
        let tableAnswer = ScanResponse(
            ingredients: [],
            recipes: [],
            appliedProfile: KitchenProfile(allergies: [.sesame]),
            withheldRecipes: [WithheldRecipe(name: "Hummus", reason: "It contains sesame.", for: [UUID()])]
        )
        let gateway = FakeGateway(workers: .answer(.ok(tableAnswer), modelTime: nil))
        let (sam, _, _) = gateway.signIn()
        let (alex, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            #expect(try await client.execute(.put, "/v1/profile", token: alex, body: ByteBuffer(string: #"{"allergies": ["sesame"]}"#)).status == .ok)
            let created = try await client.execute(
                .post,
                "/v1/household",
                token: sam,
                body: ByteBuffer(string: #"{"name": "Home", "displayName": "Sam"}"#)
            )
            #expect(created.status == .created)
            let invitation = try await client.execute(.post, "/v1/household/invitations", token: sam)
            let code = try #require(try invitation.json()["code"] as? String)
            let join = #"{"code": "\#(code)", "displayName": "Alex", "shareProfile": true}"#
            #expect(try await client.execute(.post, "/v1/household/members", token: alex, body: ByteBuffer(string: join)).status == .ok)
            #expect(
                try await client.execute(.post, "/v1/pantry/items", token: alex, body: ByteBuffer(string: #"{"name": "Rice"}"#)).status == .created
            )
            #expect(try await client.scan(testPhoto, token: sam).status == .ok)
            let (export, text) = try await Self.export(client, token: sam)
            #expect(export.kitchen.shared)
            let scan = try #require(export.scans.first?.result)
            #expect(scan.appliedProfile == nil)
            #expect(scan.withheldRecipes.map(\.for) == [nil])
            #expect(export.kitchen.pantry.map(\.name) == ["Rice"])
            #expect(export.household?.members.map(\.displayName) == ["Sam", "Alex"])
            #expect(export.household?.members.map(\.manages) == [true, false])
            #expect(!text.contains(#""sesame""#), "another member's allergies are theirs to export")
        }
    }

    @Test("past three exports in a burst, an export is 429 with Retry-After; a HEAD spends none")
    func exportsAreLimited() async throws {
        let gateway = FakeGateway()
        let (token, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            #expect(try await client.execute(.head, "/v1/account/export", token: token).status == .ok)
            for _ in 0..<3 { #expect(try await client.execute(.get, "/v1/account/export", token: token).status == .ok) }
            let refused = try await client.execute(.get, "/v1/account/export", token: token)
            #expect(refused.status == .tooManyRequests)
            #expect(refused.errorCode == "rate_limit_exceeded")
            #expect(Int(refused.headers[.retryAfter] ?? "") ?? 0 > 0)
        }
    }

    @Test("an export the auth service cannot answer is 503 auth_unavailable, before anything is sent")
    func authUnavailable() async throws {
        let gateway = FakeGateway()
        let (token, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            #expect(try await client.execute(.get, "/v1/quota", token: token).status == .ok)
            gateway.accounts.fail(with: AuthServiceUnavailable(description: "timed out"))
            let answer = try await client.execute(.get, "/v1/account/export", token: token)
            #expect(answer.status == .serviceUnavailable)
            #expect(answer.errorCode == "auth_unavailable")
        }
    }
}
