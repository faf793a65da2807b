import Foundation
import KiwiDietGuard
import KiwiModels
import Testing

/// The guard over whole answers: what it finds, what it withholds and how it says why.
@Suite("Allergen and diet guard")
struct DietGuardTests {
    let dietGuard = DietGuard()

    func recipe(_ name: String, ingredients: [(String, String?)], steps: [String] = ["Cook it."], tip: String? = nil) -> Recipe {
        Recipe.fixture(name, ingredients: ingredients, steps: steps, tip: tip)
    }

    var answer: ScanResponse {
        ScanResponse(
            ingredients: [],
            recipes: [
                recipe("Pasta with pesto", ingredients: [("spaghetti", nil), ("basil pesto", nil)]),
                recipe("Tomato salad", ingredients: [("tomatoes", nil), ("olive oil", "any oil")]),
            ]
        )
    }

    @Test("a profile without allergies or guarded diets finds nothing")
    func emptyProfileFindsNothing() {
        #expect(dietGuard.findings(in: answer, for: KitchenProfile(dislikes: ["olives"], maxCookTimeMinutes: 20)).isEmpty)
        #expect(dietGuard.findings(in: answer, for: KitchenProfile(diets: [.lowCarb])).isEmpty)
    }

    @Test("a recipe with pesto breaks a tree-nut allergy, in its name and in the ingredient that names it")
    func pestoBreaksTreeNutAllergy() throws {
        let findings = dietGuard.findings(in: answer, for: KitchenProfile(allergies: [.treeNuts]))
        let finding = try #require(findings.first)
        #expect(findings.count == 1)
        #expect(finding.index == 0)
        #expect(finding.violations.map(\.ingredient) == ["pesto", "basil pesto"])
        #expect(finding.violations.map(\.place) == ["its name", "ingredient 2"])
        #expect(finding.violations.allSatisfy { $0.rule == .allergy(.treeNuts) })
    }

    @Test("a recipe the caller already found safe for the profile is not read again")
    func recipeFoundSafeIsNotReadAgain() {
        let findings = dietGuard.findings(in: answer, for: KitchenProfile(allergies: [.treeNuts])) { $0.name == "Pasta with pesto" }
        #expect(findings.isEmpty)
    }

    @Test("a recipe that breaks the profile is withheld, with a reason a user understands")
    func withholdsWithReason() {
        let guarded = dietGuard.enforce(dietGuard.findings(in: answer, for: KitchenProfile(allergies: [.treeNuts])), on: answer)
        #expect(guarded.recipes.map(\.name) == ["Tomato salad"])
        #expect(guarded.withheldRecipes == [WithheldRecipe(name: "Pasta with pesto", reason: "It uses basil pesto, which contains tree nuts.")])
    }

    @Test("at a household's table, a withheld recipe and a conflict name the members whose rules it breaks, in the table's order")
    func withheldSaysForWhom() {
        let (sam, alex, kim) = (UUID(), UUID(), UUID())
        let table = [
            TableSeat(memberId: sam, allergies: [], diets: [.vegan]), TableSeat(memberId: alex, allergies: [.treeNuts], diets: []),
            TableSeat(memberId: kim, allergies: [.treeNuts, .milk], diets: []),
        ]
        let profile = KitchenProfile(diets: [.vegan], allergies: [.treeNuts, .milk])
        let guarded = dietGuard.enforce(dietGuard.findings(in: answer, for: profile), on: answer, table: table)
        #expect(guarded.withheldRecipes.first { $0.name == "Pasta with pesto" }?.for == [alex, kim])
        let pesto = answer.recipes.first { $0.name == "Pasta with pesto" }!
        let conflicts = dietGuard.checked(pesto, against: profile, table: table).conflicts
        #expect(conflicts.first { $0.name == "tree_nuts" }?.for == [alex, kim])
        #expect(dietGuard.checked(pesto, against: profile).conflicts.allSatisfy { $0.for == nil })
    }

    @Test("a diet is guarded like an allergy: honey is not vegan")
    func veganExcludesHoney() {
        let honeyed = ScanResponse(ingredients: [], recipes: [recipe("Honey toast", ingredients: [("toast", nil), ("honey", nil)])])
        let guarded = dietGuard.enforce(dietGuard.findings(in: honeyed, for: KitchenProfile(diets: [.vegan])), on: honeyed)
        #expect(guarded.recipes.isEmpty)
        #expect(guarded.withheldRecipes.first?.reason == "It uses honey, which is not vegan.")
    }

    @Test("a step that names an allergen breaks the recipe even when the ingredient list does not")
    func checksSteps() {
        let sneaky = ScanResponse(
            ingredients: [],
            recipes: [recipe("Greens", ingredients: [("spinach", nil)], steps: ["Wilt the spinach.", "Finish with a knob of butter."])]
        )
        let findings = dietGuard.findings(in: sneaky, for: KitchenProfile(allergies: [.milk]))
        #expect(findings.first?.violations.map(\.place) == ["step 2"])
    }

    @Test("a summary that names an allergen breaks the recipe")
    func checksSummary() {
        var topped = recipe("Green beans", ingredients: [("green beans", nil)])
        topped.summary = "Green beans topped with toasted pine nuts."
        let findings = dietGuard.findings(in: ScanResponse(ingredients: [], recipes: [topped]), for: KitchenProfile(allergies: [.treeNuts]))
        #expect(findings.first?.violations.map(\.place) == ["its summary"])
    }

    @Test("a substitution that breaks the profile is removed and the recipe kept")
    func removesSubstitution() {
        let advised = ScanResponse(
            ingredients: [],
            recipes: [recipe("Rice bowl", ingredients: [("rice", nil), ("olive oil", "sesame oil")], tip: "Use microwave rice.")]
        )
        let guarded = dietGuard.enforce(dietGuard.findings(in: advised, for: KitchenProfile(allergies: [.sesame])), on: advised)
        #expect(guarded.recipes.count == 1)
        #expect(guarded.recipes[0].ingredients[1].substitution == nil)
        #expect(guarded.recipes[0].makeItFasterTip == "Use microwave rice.")
        #expect(guarded.withheldRecipes.isEmpty)
    }

    @Test("a make-it-faster tip that breaks the profile is removed and the recipe kept")
    func removesTip() {
        let advised = ScanResponse(
            ingredients: [],
            recipes: [recipe("Noodles", ingredients: [("rice noodles", nil)], tip: "Use store-bought peanut sauce.")]
        )
        let guarded = dietGuard.enforce(dietGuard.findings(in: advised, for: KitchenProfile(allergies: [.peanuts])), on: advised)
        #expect(guarded.recipes.first?.makeItFasterTip == nil)
        #expect(guarded.recipes.count == 1)
    }

    @Test("the repair tells the model which ingredient broke which allergy, and where")
    func repairNamesIngredientAndAllergy() {
        let problem = dietGuard.repairProblem(dietGuard.findings(in: answer, for: KitchenProfile(allergies: [.treeNuts])))
        #expect(problem.contains(#"recipe 1 ("Pasta with pesto") uses "basil pesto" in ingredient 2"#))
        #expect(problem.contains("allergic to tree nuts"))
    }

    @Test("an allergy and a diet that exclude the same group give the allergy as the reason")
    func allergyComesFirst() {
        let rules = dietGuard.rules(for: KitchenProfile(diets: [.vegan], allergies: [.milk]))
        #expect(rules.first { $0.group.id == "milk" }?.rule == .allergy(.milk))
    }
}
