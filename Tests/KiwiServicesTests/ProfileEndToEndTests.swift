import Foundation
import KiwiDevelopment
import KiwiModels
import KiwiTestSupport
import NIOHTTP1
import PostgresNIO
import Testing

@testable import KiwiLLMStub

/// A profile through all three services: set at the gateway, carried by the job, applied and guarded by the worker,
/// with the model's answers dictated to the stub; and gone with the account.
@Suite("Profile and allergen guard end to end", .serialized, .timeLimit(.minutes(3)))
struct ProfileEndToEndTests {
    let photo = SyntheticJPEG.make(size: 16 * 1024, seed: 83)

    /// Every name, ingredient, substitution, step and tip of the answer's recipes, lower-cased.
    func recipeText(_ response: ScanResponse) -> String {
        response.recipes.flatMap { recipe in
            [recipe.name, recipe.makeItFasterTip ?? ""] + recipe.steps + recipe.ingredients.flatMap { [$0.name, $0.substitution ?? ""] }
        }
        .joined(separator: "\n").lowercased()
    }

    @Test("a tree-nut-allergic user whose model answer suggests pesto never gets the pesto, and the repair call reaches the model")
    func treeNutAllergyNeverSeesPesto() async throws {
        let pesto = ModelAnswers.fridge([
            ModelAnswers.Dish("Pesto pasta", ingredients: ["spaghetti", "basil pesto"]),
            ModelAnswers.Dish("Caprese toast", ingredients: ["bread", "tomato"], substitutions: ["bread": "walnut bread"]),
        ])
        try await SystemRig.run(behaviour: StubBehaviour(answers: [pesto])) { rig in
            let token = try await rig.signIn()
            #expect(try await rig.putProfile(#"{"allergies": ["tree_nuts"]}"#, token: token).status == 200)
            let answer = try await rig.scan(photo, token: token)
            #expect(answer.status == 200)
            let response = try ScanResponseContract.validate(answer.body)
            #expect(!recipeText(response).contains("pesto"))
            #expect(!recipeText(response).contains("walnut"))
            #expect(response.recipes.map(\.name) == ["Caprese toast"])
            #expect(response.withheldRecipes == [WithheldRecipe(name: "Pesto pasta", reason: "It uses basil pesto, which contains tree nuts.")])
            #expect(response.appliedProfile == KitchenProfile(allergies: [.treeNuts]))
            let received = rig.stub.snapshot.recent
            #expect(received.count == 2)
            #expect(received.last?.parameters.userTexts.last?.contains(#"uses "basil pesto" in ingredient 2"#) == true)
        }
    }

    @Test("a vegan user never sees honey, eggs or dairy")
    func veganNeverSeesAnimalProducts() async throws {
        let answer = ModelAnswers.fridge([
            ModelAnswers.Dish("Honey oat bowl", ingredients: ["oats", "honey"]),
            ModelAnswers.Dish("Scrambled eggs", ingredients: ["eggs", "butter"]),
            ModelAnswers.Dish("Cheese toastie", ingredients: ["bread", "cheddar"]),
            ModelAnswers.Dish(
                "Bean salad",
                ingredients: ["butter beans", "tomatoes", "olive oil"],
                steps: ["Drain the beans.", "Toss with the tomatoes."]
            ),
        ])
        try await SystemRig.run(behaviour: StubBehaviour(answers: [answer])) { rig in
            let token = try await rig.signIn()
            #expect(try await rig.putProfile(#"{"diets": ["vegan"]}"#, token: token).status == 200)
            let scan = try await rig.scan(photo, token: token)
            #expect(scan.status == 200)
            let response = try ScanResponseContract.validate(scan.body)
            for banned in ["honey", "egg", "cheddar", "cheese"] { #expect(!recipeText(response).contains(banned), "\(banned)") }
            #expect(!response.recipes.flatMap(\.ingredients).contains { $0.name == "butter" })
            #expect(response.recipes.map(\.name) == ["Bean salad"])
            #expect(response.withheldRecipes.count == 3)
            #expect(response.withheldRecipes.first?.reason == "It uses honey, which is not vegan.")
        }
    }

    @Test("deleting the account deletes the profile from the database")
    func accountDeletionRemovesProfile() async throws {
        try await SystemRig.run(workers: 0) { rig in
            let token = try await rig.signIn()
            let userID = try await rig.userID(of: token)
            #expect(try await rig.putProfile(#"{"allergies": ["milk"], "servings": 2}"#, token: token).status == 200)
            let count: @Sendable (PostgresClient) async throws -> Int = { client in
                for try await count in try await client.query("SELECT count(*)::int FROM profiles WHERE user_id = \(userID)").decode(Int.self) {
                    return count
                }
                return 0
            }
            #expect(try await rig.database(count) == 1)
            #expect(try await rig.send(.DELETE, "/v1/account", token: token).status == 200)
            #expect(try await rig.database(count) == 0)
        }
    }
}
