import Foundation
import HTTPTypes
import HummingbirdTesting
import KiwiModels
import KiwiScans
import KiwiTestSupport
import NIOCore
import Testing

@testable import KiwiGateway

/// `?servings=&units=` of a saved recipe in its three forms and of its share page, in-process on fakes: what is
/// scaled, what is refused with 400, and the 409 for a recipe saved before Kiwi wrote quantities.
@Suite("Gateway router: scaling saved recipes")
struct RecipeScalingRouterTests {
    static let pancakes = Recipe(
        id: UUID(),
        name: "Pancakes",
        summary: "Fluffy pancakes.",
        cookTimeMinutes: 20,
        difficulty: .easy,
        ingredients: [
            RecipeIngredient(id: UUID(), name: "eggs", isDetected: true, substitution: nil, amount: 2, unit: .piece),
            RecipeIngredient(id: UUID(), name: "flour", isDetected: false, substitution: nil, amount: 150, unit: .g),
            RecipeIngredient(id: UUID(), name: "milk", isDetected: true, substitution: nil, amount: 1, unit: .cup),
            RecipeIngredient(id: UUID(), name: "salt", isDetected: false, substitution: nil, amount: nil, unit: .toTaste),
        ],
        steps: ["Whisk everything.", "Rest the batter.", "Fry."],
        makeItFasterTip: nil,
        servings: 2,
        stepDetails: [StepDetail(durationMinutes: nil), StepDetail(durationMinutes: 10), StepDetail(durationMinutes: nil)],
        nutrition: RecipeQuantitiesExportTests.nutrition
    )

    /// A gateway whose workers answer every scan with the pancakes and the older omelette.
    static func gateway() -> FakeGateway {
        FakeGateway(
            workers: .answer(
                .ok(ScanResponse(ingredients: [RecipesRouterTests.eggs], recipes: [pancakes, RecipesRouterTests.omelette])),
                modelTime: nil
            )
        )
    }

    /// Scans once and saves `recipe`; returns the saved recipe's path.
    static func saved(_ recipe: Recipe, _ client: some TestClientProtocol, token: String) async throws -> String {
        let scan = try await RecipesRouterTests.finishedScan(client, token: token)
        let saved = try RecipesRouterTests.saved(try await RecipesRouterTests.save(client, token: token, scan: scan, recipe: recipe.id))
        return "/v1/recipes/\(saved.id.uuidString)"
    }

    @Test("servings scales every amount and the nutrition's servings; the values per serving stay")
    func scalesJSON() async throws {
        let gateway = Self.gateway()
        let (token, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            let path = try await Self.saved(Self.pancakes, client, token: token)
            let recipe = try RecipesRouterTests.saved(try await client.execute(.get, path + "?servings=3", token: token)).recipe
            #expect(recipe.servings == 3)
            #expect(recipe.ingredients.map(\.amount) == [3, 230, 1.5, nil])
            #expect(recipe.nutrition?.servings == 3)
            #expect(recipe.nutrition?.perServing == Self.pancakes.nutrition?.perServing)
        }
    }

    @Test("units converts without scaling: us turns grams into ounces, metric cups into millilitres")
    func convertsUnits() async throws {
        let gateway = Self.gateway()
        let (token, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            let path = try await Self.saved(Self.pancakes, client, token: token)
            let us = try RecipesRouterTests.saved(try await client.execute(.get, path + "?units=us", token: token)).recipe
            #expect(us.servings == 2)
            #expect(us.ingredients.map(\.unit) == [.piece, .oz, .cup, .toTaste])
            #expect(us.ingredients.map(\.amount) == [2, 5.5, 1, nil])
            let metric = try RecipesRouterTests.saved(try await client.execute(.get, path + "?units=metric", token: token)).recipe
            #expect(metric.ingredients.map(\.unit) == [.piece, .g, .ml, .toTaste])
            #expect(metric.ingredients.map(\.amount) == [2, 150, 240, nil])
        }
    }

    @Test("without units, a saved recipe is shown in the profile's units; units asked win, and a recipe without quantities shows as it is")
    func profileUnitsByDefault() async throws {
        let gateway = Self.gateway()
        let (token, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            let path = try await Self.saved(Self.pancakes, client, token: token)
            let older = try await Self.saved(RecipesRouterTests.omelette, client, token: token)
            let profile = try await client.execute(.put, "/v1/profile", token: token, body: ByteBuffer(string: #"{"units": "us"}"#))
            #expect(profile.status == .ok)
            let us = try RecipesRouterTests.saved(try await client.execute(.get, path, token: token)).recipe
            #expect(us.ingredients.map(\.unit) == [.piece, .oz, .cup, .toTaste])
            let metric = try RecipesRouterTests.saved(try await client.execute(.get, path + "?units=metric", token: token)).recipe
            #expect(metric.ingredients.map(\.unit) == [.piece, .g, .ml, .toTaste])
            let scaled = try RecipesRouterTests.saved(try await client.execute(.get, path + "?servings=4", token: token)).recipe
            #expect(scaled.servings == 4 && scaled.ingredients.map(\.unit) == [.piece, .oz, .cup, .toTaste])
            #expect(try await client.execute(.get, older, token: token).status == .ok)
        }
    }

    @Test("the JSON-LD and the text of a recipe are scaled as its JSON is")
    func scalesEveryForm() async throws {
        let gateway = Self.gateway()
        let (token, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            let path = try await Self.saved(Self.pancakes, client, token: token)
            let linked = try await client.execute(.get, path + "?servings=4", token: token, headers: [.accept: "application/ld+json"])
            let document = try #require(try JSONSerialization.jsonObject(with: Data(linked.body.readableBytesView)) as? [String: Any])
            #expect(document["recipeYield"] as? String == "4 servings")
            #expect((document["recipeIngredient"] as? [String])?.first == "4 eggs")
            let text = try await client.execute(.get, path + "?servings=4&units=us", token: token, headers: [.accept: "text/plain"])
            #expect(String(buffer: text.body).contains("Serves 4 · Ready in 20 min · easy\n"))
            #expect(String(buffer: text.body).contains("- 2 cups milk\n"))
        }
    }

    @Test(
        "a servings that is not a whole number from 1 to 24, or units other than metric or us, is 400 bad_request",
        arguments: [
            "servings=0", "servings=25", "servings=2.5", "servings=two", "servings=", "servings=+4", "servings=-1", "units=imperial", "units=",
        ]
    )
    func badQuery(query: String) async throws {
        let gateway = Self.gateway()
        let (token, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            let path = try await Self.saved(Self.pancakes, client, token: token)
            for accept in ["application/json", "application/ld+json", "text/plain"] {
                let answer = try await client.execute(.get, "\(path)?\(query)", token: token, headers: [.accept: accept])
                #expect(answer.status == .badRequest, "\(accept)")
                #expect(try RecipesRouterTests.errorCode(answer) == "bad_request", "\(accept)")
            }
        }
    }

    @Test("scaling or converting a recipe saved without servings is 409 recipe_not_scalable; reading it plain is 200")
    func olderRecipeNotScalable() async throws {
        let gateway = Self.gateway()
        let (token, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            let path = try await Self.saved(RecipesRouterTests.omelette, client, token: token)
            #expect(try await client.execute(.get, path, token: token).status == .ok)
            for query in ["servings=4", "units=metric", "servings=2&units=us"] {
                let answer = try await client.execute(.get, "\(path)?\(query)", token: token)
                #expect(answer.status == .conflict, "\(query)")
                #expect(try RecipesRouterTests.errorCode(answer) == "recipe_not_scalable", "\(query)")
            }
        }
    }

    @Test("the share page scales as asked, refuses a bad value with 400, and an older recipe's scaling with 409")
    func sharePageScales() async throws {
        let gateway = Self.gateway()
        let (token, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            let (_, page) = try await SharePageRouterTests.share(client, try await Self.saved(Self.pancakes, client, token: token), token: token)
            let scaled = String(buffer: try await client.execute(uri: page + "?servings=4&units=us", method: .get).body)
            #expect(scaled.contains("<p class=\"meta\">Serves 4 · Ready in 20 min · easy</p>"))
            #expect(scaled.contains("<li>2 cups milk</li>"))
            #expect(scaled.contains(#""recipeYield":"4 servings""#))
            #expect(try await client.execute(uri: page + "?servings=0", method: .get).status == .badRequest)
            let (_, olderPage) = try await SharePageRouterTests.share(
                client,
                try await Self.saved(RecipesRouterTests.omelette, client, token: token),
                token: token
            )
            let refused = try await client.execute(uri: olderPage + "?units=us", method: .get)
            #expect(refused.status == .conflict)
            #expect(try RecipesRouterTests.errorCode(refused) == "recipe_not_scalable")
        }
    }
}
