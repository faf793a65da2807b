import KiwiDietGuard
import KiwiModels
import Synchronization

/// One scan's recipes labelled with their allergens (``DietGuard/allergens(of:)``), each recipe read through the lexicon
/// once: a streamed recipe is labelled when it is shown, and the whole answer's same recipe (equal, its ids derived from
/// the scan's) takes that label instead of being read again.
final class RecipeLabels: Sendable {
    private let dietGuard: DietGuard
    private let known = Mutex<[Recipe: [KitchenProfile.Allergen]]>([:])

    init(dietGuard: DietGuard = DietGuard()) {
        self.dietGuard = dietGuard
    }

    /// `recipe` with its allergens.
    func labelled(_ recipe: Recipe) -> Recipe {
        var labelled = recipe
        labelled.allergens = allergens(of: recipe)
        return labelled
    }

    /// `answer` with each recipe's allergens, as ``DietGuard/labelled(_:)`` labels it.
    func labelled(_ answer: ScanResponse) -> ScanResponse {
        dietGuard.labelled(answer, recipeAllergens: allergens(of:))
    }

    private func allergens(of recipe: Recipe) -> [KitchenProfile.Allergen] {
        if let allergens = known.withLock({ $0[recipe] }) { return allergens }
        let allergens = dietGuard.allergens(of: recipe)
        known.withLock { $0[recipe] = allergens }
        return allergens
    }
}
