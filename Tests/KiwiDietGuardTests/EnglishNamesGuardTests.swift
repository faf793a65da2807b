import Foundation
import KiwiDietGuard
import KiwiModels
import Testing

/// The guard reads each ingredient's plain English name with the English lexicon, whatever the recipe's language: a
/// recipe is withheld when its text, its ingredients' English names or the model's declaration names an allergy.
@Suite("Ingredients' plain English names in the guard")
struct EnglishNamesGuardTests {
    let german = DietGuard.reading(.de)

    /// A German recipe whose one ingredient's German name says nothing the lexicon knows, and whose English name does.
    var recipe: Recipe {
        var recipe = Recipe.fixture("Apfelschnitze mit Aufstrich", ingredients: [("Aufstrich nach Art des Hauses", nil)], steps: ["Bestreichen."])
        recipe.ingredients[0].canonicalName = "peanut butter"
        return recipe
    }

    @Test("a German ingredient whose plain English name is peanut butter breaks a peanut allergy, named as written")
    func englishNameBreaksTheAllergy() throws {
        let finding = try #require(german.finding(in: recipe, for: KitchenProfile(allergies: [.peanuts])))
        #expect(finding.violations.map(\.ingredient) == ["Aufstrich nach Art des Hauses"])
        #expect(finding.violations.map(\.place) == ["ingredient 1"])
    }

    @Test("a German recipe is labelled with the allergens its ingredients' English names name")
    func englishNamesLabelTheRecipe() {
        #expect(german.allergens(of: recipe) == [.peanuts])
    }

    @Test("without its English name, the same German recipe reads as safe: the English name is what catches it")
    func germanTextAloneMissesIt() {
        var unnamed = recipe
        unnamed.ingredients[0].canonicalName = nil
        #expect(german.finding(in: unnamed, for: KitchenProfile(allergies: [.peanuts])) == nil)
    }
}
