import Foundation
import KiwiModels
import Testing

@testable import KiwiDietGuard

/// Why a recipe breaks the profile, in the language it is written in (`allergen-labels.json`): the EU declaration of
/// the allergen and the ingredient that brings it, or the diet's wording.
@Suite("Allergen labels in the cook's language")
struct AllergenLabelsTests {
    @Test("a German peanut-allergic cook reads the EU declaration of peanuts and the ingredient that brings them")
    func germanAllergyReason() throws {
        let recipe = Recipe.fixture("Bananenbrot", ingredients: [("Erdnussbutter", nil), ("Bananen", nil)], steps: ["Backen."])
        let finding = try #require(DietGuard.reading(.de).finding(in: recipe, for: KitchenProfile(allergies: [.peanuts])))
        #expect(DietGuard.reading(.de).reason(finding.violations) == "Enthält Erdnüsse und Erdnusserzeugnisse (Erdnussbutter).")
    }

    @Test("an allergen only the model declared reads its declaration alone")
    func declaredAllergenReason() throws {
        let recipe = Recipe.fixture("Soupe du jour", ingredients: [("carottes", nil)], steps: ["Cuire."], allergens: [.celery])
        let finding = try #require(DietGuard.reading(.fr).finding(in: recipe, for: KitchenProfile(allergies: [.celery])))
        #expect(DietGuard.reading(.fr).reason(finding.violations) == "Contient du céleri et produits à base de céleri.")
    }

    @Test("a recipe outside a diet reads the diet's wording and what breaks it")
    func dietReason() throws {
        let recipe = Recipe.fixture("Fresas con miel", ingredients: [("fresas", nil), ("miel", nil)], steps: ["Mezclar."])
        let finding = try #require(DietGuard.reading(.es).finding(in: recipe, for: KitchenProfile(diets: [.vegan])))
        #expect(DietGuard.reading(.es).reason(finding.violations) == "No apta para una dieta vegana: miel.")
    }

    @Test("every language Kiwi answers in besides English words every allergen, group and diet", arguments: AnswerLanguage.allCases)
    func everyLanguageIsWorded(_ language: AnswerLanguage) {
        #expect((AllergenLabels.of(language) == nil) == (language == .en))
    }

    @Test("English reasons stay the guard's own sentences")
    func englishReasonIsUnchanged() throws {
        let recipe = Recipe.fixture("Pasta with pesto", ingredients: [("basil pesto", nil)], steps: ["Toss."])
        let finding = try #require(DietGuard().finding(in: recipe, for: KitchenProfile(allergies: [.treeNuts])))
        #expect(DietGuard().reason(finding.violations) == "It uses basil pesto, which contains tree nuts.")
    }
}
