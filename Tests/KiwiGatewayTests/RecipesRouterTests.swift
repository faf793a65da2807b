import Foundation
import HTTPTypes
import HummingbirdTesting
import KiwiInternalAPI
import KiwiModels
import KiwiScans
import KiwiTestSupport
import NIOCore
import Testing

@testable import KiwiGateway

/// The recipe box, in-process on fakes: saving out of a scan, listing and searching, notes and ratings, the three
/// forms of one recipe, deletion, and that nobody reaches another user's recipes.
@Suite("Gateway router: saved recipes")
struct RecipesRouterTests {
    static let eggs = Ingredient(id: UUID(), name: "Eggs", category: "Protein", confidence: 0.9)
    static let spinach = Ingredient(id: UUID(), name: "Spinach", category: "Vegetables", confidence: 0.8)
    static let omelette = Recipe(
        id: UUID(),
        name: "Spinach Omelette",
        summary: "A quick, filling omelette.",
        cookTimeMinutes: 10,
        difficulty: .easy,
        ingredients: [
            RecipeIngredient(id: UUID(), name: "eggs", isDetected: true, substitution: nil),
            RecipeIngredient(id: UUID(), name: "feta", isDetected: false, substitution: "any crumbly cheese"),
        ],
        steps: ["Whisk the eggs.", "Cook with the feta until set."],
        makeItFasterTip: "Use a small pan."
    )
    static let salad = Recipe(
        id: UUID(),
        name: "Wilted Spinach Salad",
        summary: "Warm greens.",
        cookTimeMinutes: 75,
        difficulty: .medium,
        ingredients: [RecipeIngredient(id: UUID(), name: "spinach", isDetected: true, substitution: nil)],
        steps: ["Wilt the spinach."],
        makeItFasterTip: nil
    )
    static let answer = ScanResponse(ingredients: [eggs, spinach], recipes: [omelette, salad])

    /// A gateway whose workers answer every scan with ``answer`` at once.
    static func gateway() -> FakeGateway {
        FakeGateway(workers: .answer(.ok(answer), modelTime: nil))
    }

    /// Scans once (waiting for the answer) and returns the scan's id.
    static func finishedScan(_ client: some TestClientProtocol, token: String) async throws -> UUID {
        let created = try await client.scan(testPhoto, token: token, headers: [.prefer: "wait=5"], path: "/v1/scans")
        try #require(created.status == .ok)
        return try KiwiJSON.decoder().decode(ScanResource.self, from: Data(created.body.readableBytesView)).id
    }

    static func save(_ client: some TestClientProtocol, token: String, scan: UUID, recipe: UUID) async throws -> TestResponse {
        let body = #"{"scanId":"\#(scan.uuidString)","recipeId":"\#(recipe.uuidString)"}"#
        return try await client.execute(
            .post,
            "/v1/recipes",
            token: token,
            headers: [.contentType: "application/json"],
            body: ByteBuffer(string: body)
        )
    }

    /// Scans once and saves the omelette of that scan; returns the saved recipe and its path.
    static func savedOmelette(_ client: some TestClientProtocol, token: String) async throws -> (recipe: SavedRecipe, path: String) {
        let scan = try await finishedScan(client, token: token)
        let recipe = try saved(try await save(client, token: token, scan: scan, recipe: omelette.id))
        return (recipe, "/v1/recipes/\(recipe.id.uuidString)")
    }

    static func saved(_ answer: TestResponse) throws -> SavedRecipe {
        try KiwiJSON.decoder().decode(SavedRecipe.self, from: Data(answer.body.readableBytesView))
    }

    static func list(_ answer: TestResponse) throws -> SavedRecipeList {
        try KiwiJSON.decoder().decode(SavedRecipeList.self, from: Data(answer.body.readableBytesView))
    }

    static func errorCode(_ answer: TestResponse) throws -> String? {
        try KiwiJSON.decoder().decode(ErrorBody.self, from: Data(answer.body.readableBytesView)).error.rawValue
    }

    // MARK: Saving

    @Test("POST /v1/recipes keeps the recipe with the detected ingredients it uses, and answers 201 with its Location")
    func saveCopiesRecipe() async throws {
        let gateway = Self.gateway()
        let (token, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            let scan = try await Self.finishedScan(client, token: token)
            let answer = try await Self.save(client, token: token, scan: scan, recipe: Self.omelette.id)
            #expect(answer.status == .created)
            let saved = try Self.saved(answer)
            #expect(answer.headers[.location] == "/v1/recipes/\(saved.id.uuidString.lowercased())")
            #expect(saved.recipe == Self.omelette)
            #expect(saved.scanId == scan)
            #expect(saved.detectedIngredients == [Self.eggs])
            #expect(saved.note == nil && saved.rating == nil)
        }
    }

    @Test("saving the same recipe of the same scan again answers 200 with the copy saved before")
    func saveTwiceReturnsExisting() async throws {
        let gateway = Self.gateway()
        let (token, session, _) = gateway.signIn()
        try await gateway.test { client async throws in
            let scan = try await Self.finishedScan(client, token: token)
            let first = try Self.saved(try await Self.save(client, token: token, scan: scan, recipe: Self.omelette.id))
            let again = try await Self.save(client, token: token, scan: scan, recipe: Self.omelette.id)
            #expect(again.status == .ok)
            #expect(try Self.saved(again).id == first.id)
        }
        #expect(gateway.recipes.count(of: session.userId) == 1)
    }

    @Test("a recipe the scan does not have, or a scan that is not the caller's, is 404")
    func saveUnknownRecipe() async throws {
        let gateway = Self.gateway()
        let (token, _, _) = gateway.signIn()
        let (other, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            let scan = try await Self.finishedScan(client, token: token)
            let missingRecipe = try await Self.save(client, token: token, scan: scan, recipe: UUID())
            #expect(missingRecipe.status == .notFound)
            let othersScan = try await Self.save(client, token: other, scan: scan, recipe: Self.omelette.id)
            #expect(othersScan.status == .notFound)
        }
    }

    @Test("a scan that has not finished cannot be saved from yet: 409 scan_in_progress")
    func saveFromOpenScan() async throws {
        let gateway = FakeGateway(workers: .hold)
        let (token, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            let created = try await client.scan(testPhoto, token: token, path: "/v1/scans")
            let scan = try KiwiJSON.decoder().decode(ScanResource.self, from: Data(created.body.readableBytesView)).id
            let answer = try await Self.save(client, token: token, scan: scan, recipe: Self.omelette.id)
            #expect(answer.status == .conflict)
            #expect(try Self.errorCode(answer) == "scan_in_progress")
        }
    }

    @Test("a full recipe box refuses another recipe with 409 recipe_box_full")
    func saveIntoFullBox() async throws {
        let gateway = Self.gateway()
        let (token, session, _) = gateway.signIn()
        for _ in 0..<RecipesController.capacity {
            var recipe = Self.salad
            recipe.id = UUID()
            let copy = SavedRecipe(id: UUID(), scanId: UUID(), savedAt: Date(), recipe: recipe, detectedIngredients: [], note: nil, rating: nil)
            _ = try await gateway.recipes.save(copy, for: .own(session.userId), capacity: RecipesController.capacity)
        }
        try await gateway.test { client async throws in
            let scan = try await Self.finishedScan(client, token: token)
            let answer = try await Self.save(client, token: token, scan: scan, recipe: Self.omelette.id)
            #expect(answer.status == .conflict)
            #expect(try Self.errorCode(answer) == "recipe_box_full")
        }
        #expect(gateway.recipes.count(of: session.userId) == RecipesController.capacity)
    }

    @Test("a body that is not a save request is 400", arguments: ["", "{}", #"{"scanId":"nope","recipeId":"nope"}"#, "[1]"])
    func saveMalformed(body: String) async throws {
        let gateway = Self.gateway()
        let (token, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            let answer = try await client.execute(.post, "/v1/recipes", token: token, body: ByteBuffer(string: body))
            #expect(answer.status == .badRequest)
            #expect(try Self.errorCode(answer) == "bad_request")
        }
    }

    // MARK: Listing

    @Test("GET /v1/recipes lists newest first, a page at a time, and q finds recipes by name or ingredient, ignoring case")
    func listPagesAndSearches() async throws {
        let gateway = Self.gateway()
        let (token, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            let scan = try await Self.finishedScan(client, token: token)
            let omelette = try Self.saved(try await Self.save(client, token: token, scan: scan, recipe: Self.omelette.id))
            let salad = try Self.saved(try await Self.save(client, token: token, scan: scan, recipe: Self.salad.id))
            let first = try Self.list(try await client.execute(.get, "/v1/recipes?limit=1", token: token))
            #expect(first.recipes.map(\.id) == [salad.id])
            let cursor = try #require(first.nextCursor)
            let second = try Self.list(try await client.execute(.get, "/v1/recipes?limit=1&cursor=\(cursor)", token: token))
            #expect(second.recipes.map(\.id) == [omelette.id])
            #expect(second.nextCursor == nil)
            let byIngredient = try Self.list(try await client.execute(.get, "/v1/recipes?q=FETA", token: token))
            #expect(byIngredient.recipes.map(\.id) == [omelette.id])
            let byName = try Self.list(try await client.execute(.get, "/v1/recipes?q=spinach", token: token))
            #expect(Set(byName.recipes.map(\.id)) == [omelette.id, salad.id])
        }
    }

    @Test(
        "a bad limit, cursor or an over-long q is 400",
        arguments: ["limit=0", "limit=101", "cursor=xyz", "q=" + String(repeating: "a", count: 101)]
    )
    func listRefusesBadQuery(query: String) async throws {
        let gateway = Self.gateway()
        let (token, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            #expect(try await client.execute(.get, "/v1/recipes?\(query)", token: token).status == .badRequest)
        }
    }

    // MARK: One recipe

    @Test("another user's recipe is 404 to every method, as if it did not exist")
    func otherUsersRecipeIsNotFound() async throws {
        let gateway = Self.gateway()
        let (token, _, _) = gateway.signIn()
        let (other, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            let (_, path) = try await Self.savedOmelette(client, token: token)
            #expect(try await client.execute(.get, path, token: other).status == .notFound)
            #expect(try await client.execute(.patch, path, token: other, body: ByteBuffer(string: #"{"rating":1}"#)).status == .notFound)
            #expect(try await client.execute(.delete, path, token: other).status == .notFound)
            #expect(try await client.execute(.get, path, token: token).status == .ok)
        }
    }

    @Test("PATCH sets the note and rating, leaves out what it does not name, and null clears")
    func patchNoteAndRating() async throws {
        let gateway = Self.gateway()
        let (token, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            let (_, path) = try await Self.savedOmelette(client, token: token)
            let both = try Self.saved(
                try await client.execute(.patch, path, token: token, body: ByteBuffer(string: #"{"note":"Kids loved it","rating":5}"#))
            )
            #expect(both.note == "Kids loved it" && both.rating == 5)
            let ratingOnly = try Self.saved(try await client.execute(.patch, path, token: token, body: ByteBuffer(string: #"{"rating":3}"#)))
            #expect(ratingOnly.note == "Kids loved it" && ratingOnly.rating == 3)
            let cleared = try Self.saved(try await client.execute(.patch, path, token: token, body: ByteBuffer(string: #"{"note":null}"#)))
            #expect(cleared.note == nil && cleared.rating == 3)
        }
    }

    @Test(
        "PATCH refuses a rating outside 1–5, a note over 1,000 characters, other fields and non-objects with 400",
        arguments: [
            #"{"rating":6}"#, #"{"rating":0}"#, #"{"rating":4.5}"#, #"{"rating":"5"}"#, #"{"name":"Mine"}"#, "[]", "",
            #"{"note":"\#(String(repeating: "n", count: 1001))"}"#,
        ]
    )
    func patchRefusesBadBody(body: String) async throws {
        let gateway = Self.gateway()
        let (token, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            let (_, path) = try await Self.savedOmelette(client, token: token)
            let answer = try await client.execute(.patch, path, token: token, body: ByteBuffer(string: body))
            #expect(answer.status == .badRequest)
            #expect(try Self.errorCode(answer) == "bad_request")
        }
    }

    @Test("Accept: application/ld+json answers a schema.org Recipe; text/plain a text to share; an Accept of neither is 406")
    func showInEveryForm() async throws {
        let gateway = Self.gateway()
        let (token, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            let (saved, path) = try await Self.savedOmelette(client, token: token)
            let linked = try await client.execute(.get, path, token: token, headers: [.accept: "application/ld+json"])
            #expect(linked.headers[.contentType] == "application/ld+json; charset=utf-8")
            let document = try #require(try JSONSerialization.jsonObject(with: Data(linked.body.readableBytesView)) as? [String: Any])
            #expect(document["@type"] as? String == "Recipe")
            #expect(document["name"] as? String == "Spinach Omelette")
            let text = try await client.execute(.get, path, token: token, headers: [.accept: "text/plain"])
            #expect(text.headers[.contentType] == "text/plain; charset=utf-8")
            #expect(String(buffer: text.body).hasPrefix("Spinach Omelette\n"))
            let json = try await client.execute(.get, path, token: token, headers: [.accept: "text/html, application/json;q=0.5"])
            #expect(try Self.saved(json) == saved)
            let refused = try await client.execute(.get, path, token: token, headers: [.accept: "image/png"])
            #expect(refused.status == .notAcceptable)
            #expect(try Self.errorCode(refused) == "not_acceptable")
        }
    }

    @Test("DELETE /v1/recipes/{id} answers 204, and the recipe is gone")
    func deleteRecipe() async throws {
        let gateway = Self.gateway()
        let (token, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            let (_, path) = try await Self.savedOmelette(client, token: token)
            #expect(try await client.execute(.delete, path, token: token).status == .noContent)
            #expect(try await client.execute(.get, path, token: token).status == .notFound)
            #expect(try await client.execute(.delete, path, token: token).status == .notFound)
        }
    }

    @Test("deleting the account deletes its saved recipes")
    func accountDeletionDeletesRecipes() async throws {
        let gateway = Self.gateway()
        let (token, session, _) = gateway.signIn()
        try await gateway.test { client async throws in
            let scan = try await Self.finishedScan(client, token: token)
            _ = try await Self.save(client, token: token, scan: scan, recipe: Self.omelette.id)
            #expect(try await client.execute(.delete, "/v1/account", token: token).status == .ok)
        }
        #expect(gateway.recipes.count(of: session.userId) == 0)
    }
}
