import Foundation
import HTTPTypes
import HummingbirdTesting
import KiwiInternalAPI
import KiwiModels
import NIOCore
import Testing

@testable import KiwiGateway

/// "What can I cook now" (`GET /v1/recipes?cookable=true`), in-process on fakes: the ranking, what each entry says is
/// missing, the wire form, the parameter's rules and paging.
@Suite("Gateway router: cookable recipes")
struct CookableRouterTests {
    /// A recipe saved `secondsAgo` before now, of `ingredients` (name, substitution).
    static func recipe(_ name: String, _ ingredients: [(String, String?)], secondsAgo: TimeInterval = 0) -> SavedRecipe {
        SavedRecipe(
            id: UUID(),
            scanId: UUID(),
            savedAt: Date(timeIntervalSinceNow: -secondsAgo).rounded,
            recipe: Recipe(
                id: UUID(),
                name: name,
                summary: "A dish.",
                cookTimeMinutes: 10,
                difficulty: .easy,
                ingredients: ingredients.map { RecipeIngredient(id: UUID(), name: $0.0, isDetected: false, substitution: $0.1) },
                steps: ["Cook."],
                makeItFasterTip: nil
            ),
            detectedIngredients: [],
            note: nil,
            rating: nil
        )
    }

    /// A pantry item whose key is its name lower-cased (so name it in the singular), to be used by the gateway's
    /// tomorrow when `useSoon`, else food that keeps.
    static func item(_ name: String, useSoon: Bool = false) -> PantryItem {
        PantryItem(
            id: UUID(),
            name: name,
            key: name.lowercased(),
            category: "Other",
            useSoonBy: useSoon ? FakeGateway.today.adding(days: 1) : nil,
            source: .manual,
            addedAt: Date(),
            lastSeenAt: Date()
        )
    }

    /// A gateway whose signed-in user keeps `recipes` and has `pantry` at home; returns it, the user's token and id.
    static func gateway(recipes: [SavedRecipe], pantry: [PantryItem]) async throws -> (gateway: FakeGateway, token: String, userID: UUID) {
        let gateway = FakeGateway()
        let (token, session, _) = gateway.signIn()
        for recipe in recipes {
            #expect(try await gateway.recipes.save(recipe, for: .own(session.userId), capacity: RecipesController.capacity) == .saved(recipe))
        }
        #expect(try await gateway.pantry.add(pantry, for: .own(session.userId), capacity: 500) == .added(pantry, count: pantry.count))
        return (gateway, token, session.userId)
    }

    static func cookable(_ answer: TestResponse) throws -> CookableRecipeList {
        try #require(answer.status == .ok)
        return try KiwiJSON.decoder().decode(CookableRecipeList.self, from: Data(answer.body.readableBytesView))
    }

    /// The whole ranking of the gateway's user, in one page.
    static func ranking(_ client: some TestClientProtocol, token: String, query: String = "") async throws -> [CookableRecipe] {
        try cookable(try await client.execute(.get, "/v1/recipes?cookable=true&limit=100\(query)", token: token)).recipes
    }

    @Test("cookable=true ranks the most covered recipes first, and between equals the one using up more use-soon items")
    func ranksByCoverageThenUseSoon() async throws {
        let half = Self.recipe("Half", [("rice", nil), ("feta", nil)])
        let whole = Self.recipe("Whole", [("rice", nil)], secondsAgo: 60)
        let wholeUsingSpinach = Self.recipe("Whole using spinach", [("spinach", nil), ("rice", nil)], secondsAgo: 120)
        let (gateway, token, _) = try await Self.gateway(
            recipes: [half, whole, wholeUsingSpinach],
            pantry: [Self.item("Rice"), Self.item("Spinach", useSoon: true)]
        )
        try await gateway.test { client async throws in
            let ranking = try await Self.ranking(client, token: token)
            #expect(ranking.map(\.saved.id) == [wholeUsingSpinach.id, whole.id, half.id])
            #expect(ranking.map(\.cookable.coverage) == [1, 1, 0.5])
            #expect(ranking.first?.cookable.usesSoon == ["Spinach"])
        }
    }

    @Test("sort=useSoon ranks first the recipes that use up more use-soon items, then by coverage; sort=coverage is the default order")
    func sortsByUseSoon() async throws {
        let whole = Self.recipe("Whole", [("rice", nil)])
        let halfUsingSpinach = Self.recipe("Half using spinach", [("spinach", nil), ("feta", nil)], secondsAgo: 60)
        let (gateway, token, _) = try await Self.gateway(
            recipes: [whole, halfUsingSpinach],
            pantry: [Self.item("Rice"), Self.item("Spinach", useSoon: true)]
        )
        try await gateway.test { client async throws in
            #expect(try await Self.ranking(client, token: token, query: "&sort=useSoon").map(\.saved.id) == [halfUsingSpinach.id, whole.id])
            for query in ["", "&sort=coverage"] {
                #expect(try await Self.ranking(client, token: token, query: query).map(\.saved.id) == [whole.id, halfUsingSpinach.id])
            }
        }
    }

    @Test(
        "sort without cookable=true, or an order there is not, is 400",
        arguments: ["sort=useSoon", "cookable=false&sort=coverage", "cookable=true&sort=newest"]
    )
    func sortRefused(query: String) async throws {
        let (gateway, token, _) = try await Self.gateway(recipes: [], pantry: [])
        try await gateway.test { client async throws in
            #expect(try await client.execute(.get, "/v1/recipes?\(query)", token: token).status == .badRequest)
        }
    }

    @Test("each entry lists the ingredients the pantry lacks with the substitutions the recipe offers, null when none")
    func missingCarriesSubstitutions() async throws {
        let omelette = Self.recipe("Omelette", [("egg", nil), ("feta", "any crumbly cheese"), ("chives", nil)])
        let (gateway, token, _) = try await Self.gateway(recipes: [omelette], pantry: [Self.item("Egg")])
        try await gateway.test { client async throws in
            let answer = try await client.execute(.get, "/v1/recipes?cookable=true", token: token)
            let entry = try #require(try Self.cookable(answer).recipes.first)
            #expect(
                entry.cookable.missing == [
                    MissingIngredient(name: "feta", substitution: "any crumbly cheese"), MissingIngredient(name: "chives", substitution: nil),
                ]
            )
            let recipes = try #require(try answer.json()["recipes"] as? [[String: Any]])
            let missing = try #require((recipes.first?["cookable"] as? [String: Any])?["missing"] as? [[String: Any]])
            #expect(missing.last?["substitution"] is NSNull)
        }
    }

    @Test("staples are never missing, though the pantry lacks them", arguments: ["salt", "black pepper", "olive oil", "water"])
    func staplesNeverMissing(staple: String) async throws {
        let (gateway, token, _) = try await Self.gateway(recipes: [Self.recipe("Rice", [("rice", nil), (staple, nil)])], pantry: [Self.item("Rice")])
        try await gateway.test { client async throws in
            let entry = try #require(try await Self.ranking(client, token: token).first)
            #expect(entry.cookable.missing.isEmpty)
            #expect(entry.cookable.coverage == 1)
        }
    }

    @Test("the answer reads as a SavedRecipeList too: cookable only adds to each recipe")
    func decodesAsSavedRecipeList() async throws {
        let recipes = [Self.recipe("Rice", [("rice", nil)]), Self.recipe("Feta salad", [("feta", nil)], secondsAgo: 60)]
        let (gateway, token, _) = try await Self.gateway(recipes: recipes, pantry: [Self.item("Rice")])
        try await gateway.test { client async throws in
            let answer = try await client.execute(.get, "/v1/recipes?cookable=true", token: token)
            let list = try KiwiJSON.decoder().decode(SavedRecipeList.self, from: Data(answer.body.readableBytesView))
            #expect(list.recipes == recipes)
        }
    }

    @Test("cookable=false, like no cookable, is the plain newest-first list")
    func falseIsPlainList() async throws {
        let recipes = [Self.recipe("Feta salad", [("feta", nil)]), Self.recipe("Rice", [("rice", nil)], secondsAgo: 60)]
        let (gateway, token, _) = try await Self.gateway(recipes: recipes, pantry: [Self.item("Rice")])
        try await gateway.test { client async throws in
            for path in ["/v1/recipes", "/v1/recipes?cookable=false"] {
                let answer = try await client.execute(.get, path, token: token)
                #expect(try KiwiJSON.decoder().decode(SavedRecipeList.self, from: Data(answer.body.readableBytesView)).recipes == recipes)
                let listed = try #require(try answer.json()["recipes"] as? [[String: Any]])
                #expect(listed.allSatisfy { $0["cookable"] == nil }, "\(path)")
            }
        }
    }

    @Test("cookable other than true or false is a 400 that names it", arguments: ["maybe", "TRUE", "1", ""])
    func badCookableRefused(value: String) async throws {
        let (gateway, token, _) = try await Self.gateway(recipes: [], pantry: [])
        try await gateway.test { client async throws in
            let answer = try await client.execute(.get, "/v1/recipes?cookable=\(value)", token: token)
            #expect(answer.status == .badRequest)
            #expect(answer.errorCode == "bad_request")
            let message = try answer.json()["message"] as? String
            #expect(message?.contains("cookable") == true)
        }
    }

    @Test("pages of limit 1 walk the whole ranking once, and the last has no nextCursor")
    func pagingWalksRankingOnce() async throws {
        let recipes = (0..<5).map {
            Self.recipe("Dish \($0)", [("rice", nil), ($0.isMultiple(of: 2) ? "feta" : "rice", nil)], secondsAgo: Double($0))
        }
        let (gateway, token, _) = try await Self.gateway(recipes: recipes, pantry: [Self.item("Rice")])
        try await gateway.test { client async throws in
            let ranking = try await Self.ranking(client, token: token).map(\.saved.id)
            var walked: [UUID] = []
            var cursor: String? = ""
            while let next = cursor, walked.count <= recipes.count {
                let page = try Self.cookable(try await client.execute(.get, "/v1/recipes?cookable=true&limit=1&cursor=\(next)", token: token))
                #expect(page.recipes.count == 1)
                walked += page.recipes.map(\.saved.id)
                cursor = page.nextCursor
            }
            #expect(walked == ranking)
            #expect(Set(ranking) == Set(recipes.map(\.id)))
        }
    }

    @Test("a recipe saved between pages, ranked before the cursor, shifts nothing")
    func pagingSurvivesSave() async throws {
        try await Self.nextPage { gateway, userID, _ async throws in
            let newest = Self.recipe("Newest", [("rice", nil)])
            #expect(try await gateway.recipes.save(newest, for: .own(userID), capacity: RecipesController.capacity) == .saved(newest))
        }
    }

    @Test("when the page's last recipe is deleted, the next page starts with the recipe that followed it")
    func pagingSurvivesDeletingCursorRecipe() async throws {
        try await Self.nextPage { gateway, userID, cursorRecipe async throws in
            #expect(try await gateway.recipes.delete(cursorRecipe, of: .own(userID)))
        }
    }

    /// Reads a first page of one of three equally covered recipes, lets `change` change the box (given the first
    /// page's recipe), and expects the next page to be the other two.
    static func nextPage(after change: @Sendable (FakeGateway, UUID, UUID) async throws -> Void) async throws {
        let recipes = (1...3).map { Self.recipe("Dish \($0)", [("rice", nil)], secondsAgo: Double($0 * 10)) }
        let (gateway, token, userID) = try await Self.gateway(recipes: recipes, pantry: [Self.item("Rice")])
        try await gateway.test { client async throws in
            let first = try Self.cookable(try await client.execute(.get, "/v1/recipes?cookable=true&limit=1", token: token))
            #expect(first.recipes.map(\.saved.id) == [recipes[0].id])
            try await change(gateway, userID, recipes[0].id)
            let cursor = try #require(first.nextCursor)
            let rest = try Self.cookable(try await client.execute(.get, "/v1/recipes?cookable=true&cursor=\(cursor)", token: token))
            #expect(rest.recipes.map(\.saved.id) == [recipes[1].id, recipes[2].id])
        }
    }

    @Test("q narrows the ranking to the recipes it finds")
    func queryNarrowsRanking() async throws {
        let salad = Self.recipe("Feta salad", [("feta", nil)])
        let (gateway, token, _) = try await Self.gateway(recipes: [salad, Self.recipe("Rice", [("rice", nil)])], pantry: [Self.item("Rice")])
        try await gateway.test { client async throws in
            #expect(try await Self.ranking(client, token: token, query: "&q=FETA").map(\.saved.id) == [salad.id])
        }
    }

    @Test("with an empty pantry every recipe is less than covered, except those of staples alone")
    func emptyPantry() async throws {
        let staplesOnly = Self.recipe("Salted water", [("salt", nil), ("water", nil)], secondsAgo: 60)
        let recipes = [
            Self.recipe("Rice", [("rice", nil), ("salt", nil)]), staplesOnly, Self.recipe("Feta salad", [("feta", nil)], secondsAgo: 120),
        ]
        let (gateway, token, _) = try await Self.gateway(recipes: recipes, pantry: [])
        try await gateway.test { client async throws in
            let ranking = try await Self.ranking(client, token: token)
            #expect(ranking.count == recipes.count)
            for entry in ranking {
                #expect((entry.cookable.coverage == 1) == (entry.saved.id == staplesOnly.id), "\(entry.saved.recipe.name)")
            }
            #expect(ranking.first?.saved.id == staplesOnly.id)
        }
    }
}

extension Date {
    /// To the whole second, as the API's dates travel.
    fileprivate var rounded: Date { Date(timeIntervalSince1970: timeIntervalSince1970.rounded(.down)) }
}
