import Foundation
import HTTPTypes
import HummingbirdTesting
import KiwiModels
import NIOCore
import Testing

@testable import KiwiGateway

/// Saved recipes meet the profile as it is now (docs/architecture.md, "Saved recipes meet today's profile"), in-process
/// on fakes: a recipe saved before an allergy or a diet was added says so wherever it is answered as JSON, and is never
/// offered as cookable.
@Suite("Gateway router: saved recipes against today's profile")
struct SavedRecipeConflictRouterTests {
    /// A peanut noodle recipe, labelled with no allergen (as answered before the person's allergy was added), whose
    /// substitution for its second ingredient names cashews.
    static let noodles: SavedRecipe = {
        var saved = CookableRouterTests.recipe("Noodle bowl", [("rice noodles", nil), ("peanut butter", "cashew butter")])
        saved.recipe.allergens = []
        return saved
    }()
    static let rice = CookableRouterTests.recipe("Fried rice", [("rice", nil), ("spring onion", nil)], secondsAgo: 60)

    /// A gateway whose user keeps `recipes`, has their ingredients at home, and whose profile is then set to
    /// `profile`.
    static func gateway(
        profile: KitchenProfile,
        recipes: [SavedRecipe] = [noodles, rice]
    ) async throws -> (gateway: FakeGateway, token: String, userID: UUID) {
        let (gateway, token, userID) = try await CookableRouterTests.gateway(
            recipes: recipes,
            pantry: ["Rice noodle", "Peanut butter", "Rice", "Spring onion"].map { CookableRouterTests.item($0) }
        )
        try await gateway.profiles.save(profile, for: userID)
        return (gateway, token, userID)
    }

    static func saved(_ answer: TestResponse) throws -> SavedRecipe {
        try #require(answer.status == .ok)
        return try KiwiJSON.decoder().decode(SavedRecipe.self, from: Data(answer.body.readableBytesView))
    }

    @Test("a recipe saved in German is read in German, whatever the profile's language is now")
    func readInItsOwnLanguage() async throws {
        var toast = CookableRouterTests.recipe("Bananentoast", [("Toastbrot", nil), ("Banane", nil)])
        toast.recipe.allergens = []
        toast.recipe.steps = ["Das Brot mit Erdnussbutter bestreichen."]
        toast.recipe.language = .de
        let id = toast.id
        let (gateway, token, _) = try await Self.gateway(profile: KitchenProfile(allergies: [.peanuts], language: .fr), recipes: [toast])
        try await gateway.test { client async throws in
            let shown = try Self.saved(try await client.execute(.get, "/v1/recipes/\(id)", token: token))
            #expect(shown.conflicts.map(\.name) == ["peanuts"])
            #expect(shown.conflicts.first?.place == "step 1")
        }
    }

    @Test("a recipe saved before an allergy was added answers the conflict, its source and place, when shown")
    func shownWithItsConflict() async throws {
        let (gateway, token, _) = try await Self.gateway(profile: KitchenProfile(allergies: [.peanuts]))
        try await gateway.test { client async throws in
            let shown = try Self.saved(try await client.execute(.get, "/v1/recipes/\(Self.noodles.id)", token: token))
            #expect(
                shown.conflicts == [
                    RecipeConflict(
                        rule: .allergy,
                        name: "peanuts",
                        source: .text,
                        found: "peanut butter",
                        place: "ingredient 2",
                        reason: "It uses peanut butter, which contains peanuts."
                    )
                ]
            )
        }
    }

    @Test("the list, a note's answer and a save answered again carry each recipe's conflicts; a recipe that fits has none")
    func everyJSONAnswerIsChecked() async throws {
        let (gateway, token, _) = try await Self.gateway(profile: KitchenProfile(allergies: [.peanuts]))
        try await gateway.test { client async throws in
            let listed = try await client.execute(.get, "/v1/recipes", token: token)
            try #require(listed.status == .ok)
            let list = try KiwiJSON.decoder().decode(SavedRecipeList.self, from: Data(listed.body.readableBytesView))
            #expect(list.recipes.map { $0.conflicts.map(\.name) } == [["peanuts"], []])
            let noted = try await client.execute(
                .patch,
                "/v1/recipes/\(Self.noodles.id)",
                token: token,
                headers: [.contentType: "application/json"],
                body: ByteBuffer(string: #"{"note": "Kids love it"}"#)
            )
            #expect(try Self.saved(noted).conflicts.map(\.name) == ["peanuts"])
        }
    }

    @Test("a conflict only the recipe's allergen labels show names the labels as its source")
    func labelledConflict() async throws {
        var labelled = Self.rice
        labelled.recipe.allergens = [.soybeans]
        let (gateway, token, _) = try await Self.gateway(profile: KitchenProfile(allergies: [.soybeans]), recipes: [labelled])
        try await gateway.test { client async throws in
            let shown = try Self.saved(try await client.execute(.get, "/v1/recipes/\(Self.rice.id)", token: token))
            #expect(shown.conflicts.map(\.source) == [.allergens])
            #expect(shown.conflicts.first?.place == "the allergens it declares")
        }
    }

    @Test("a diet added after the save is a conflict too")
    func dietConflict() async throws {
        var withEgg = Self.rice
        withEgg.recipe.steps = ["Scramble two eggs in the wok, then add the rice."]
        let (gateway, token, _) = try await Self.gateway(profile: KitchenProfile(diets: [.vegan]), recipes: [withEgg])
        try await gateway.test { client async throws in
            let shown = try Self.saved(try await client.execute(.get, "/v1/recipes/\(Self.rice.id)", token: token))
            #expect(shown.conflicts.map(\.rule) == [.diet])
            #expect(shown.conflicts.map(\.name) == ["vegan"])
            #expect(shown.conflicts.map(\.place) == ["step 1"])
        }
    }

    @Test("cookable=true never offers a recipe that breaks today's profile, however well the pantry covers it")
    func cookableLeavesConflictsOut() async throws {
        let (gateway, token, _) = try await Self.gateway(profile: KitchenProfile(allergies: [.peanuts]))
        try await gateway.test { client async throws in
            let ranking = try await CookableRouterTests.ranking(client, token: token)
            #expect(ranking.map(\.saved.id) == [Self.rice.id])
        }
    }

    @Test("a substitution that breaks today's profile is left out of the recipe shown, and the recipe kept")
    func adviceLeftOut() async throws {
        let (gateway, token, userID) = try await Self.gateway(profile: KitchenProfile(allergies: [.treeNuts]))
        try await gateway.test { client async throws in
            let shown = try Self.saved(try await client.execute(.get, "/v1/recipes/\(Self.noodles.id)", token: token))
            #expect(shown.conflicts.isEmpty)
            #expect(shown.recipe.ingredients.map(\.substitution) == [nil, nil])
        }
        #expect(try await gateway.recipes.recipe(Self.noodles.id, of: .own(userID))?.recipe.ingredients[1].substitution == "cashew butter")
    }

    @Test("adding a recipe to the shopping list answers its conflicts with today's profile")
    func shoppingListAdditionCarriesConflicts() async throws {
        let (gateway, token, _) = try await Self.gateway(profile: KitchenProfile(allergies: [.peanuts]))
        try await gateway.test { client async throws in
            let answer = try await ShoppingListRouterTests.addRecipe(client, token: token, Self.noodles)
            try #require(answer.status == .ok)
            let addition: ShoppingListAddition = try ShoppingListRouterTests.decoded(answer)
            #expect(addition.conflicts.map(\.name) == ["peanuts"])
        }
    }

    @Test("with no profile, no recipe has a conflict")
    func noProfileNoConflicts() async throws {
        let (gateway, token, _) = try await Self.gateway(profile: KitchenProfile())
        try await gateway.test { client async throws in
            let ranking = try await CookableRouterTests.ranking(client, token: token)
            #expect(ranking.count == 2)
            #expect(ranking.allSatisfy { $0.saved.conflicts.isEmpty })
        }
    }
}
