import Foundation
import KiwiModels

extension Recipe {
    /// A quick, easy recipe of the given text, every ingredient (name, substitution) detected: what the guard reads.
    static func fixture(
        _ name: String,
        ingredients: [(String, String?)],
        steps: [String],
        tip: String? = nil,
        allergens: [KitchenProfile.Allergen]? = nil
    ) -> Recipe {
        Recipe(
            id: UUID(),
            name: name,
            summary: "Quick.",
            cookTimeMinutes: 10,
            difficulty: .easy,
            ingredients: ingredients.map { RecipeIngredient(id: UUID(), name: $0.0, isDetected: true, substitution: $0.1) },
            steps: steps,
            makeItFasterTip: tip,
            allergens: allergens
        )
    }
}
