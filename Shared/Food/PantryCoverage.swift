import Foundation
import KiwiDietGuard
import KiwiModels

/// "What can I cook now" (`GET /v1/recipes?cookable=true`): how much of each saved recipe the pantry covers, and the
/// recipes in the order to cook them (docs/architecture.md, "The pantry and the shopping list"). Pure, so that the
/// rules are tested without a store.
public enum PantryCoverage {
    /// A pantry item is "use soon" when its use-soon date is at most this many days after today (an item past its
    /// date included: it is still in the kitchen, and the sooner it goes the better).
    public static let useSoonDays = 3

    /// The orders of the cookable list (`sort`).
    public enum Order: String, Sendable, CaseIterable {
        /// The most covered first, then the one that uses up more use-soon items.
        case coverage
        /// The one that uses up more use-soon items first, then the most covered: food about to spoil goes first.
        case useSoon
    }

    /// Every recipe with its coverage, in the order to cook them (`order`), then the newest saved, then by id
    /// (ascending) so that the order is total and pages of it never overlap.
    public static func ranked(_ recipes: [SavedRecipe], pantry: [PantryItem], today: CalendarDay, order: Order = .coverage) -> [CookableRecipe] {
        // Keys are unique in a pantry; should two items share one anyway, the first stands for it.
        let stocked = Dictionary(pantry.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        let useSoonBy = today.adding(days: useSoonDays)
        return recipes.map { CookableRecipe(saved: $0, cookable: coverage(of: $0.recipe, stocked: stocked, useSoonBy: useSoonBy)) }
            .sorted { precedes($0, $1, in: order) }
    }

    /// The coverage of `recipe` by the pantry items `stocked` by key.
    ///
    /// An ingredient's key is ``IngredientKey/of(_:)`` of its plain English name (``EnglishNamed``), as the pantry keys it. An ingredient counts unless its key is a
    /// ``PantryStaples`` key or empty (a name without a letter or digit names nothing a pantry could hold); a key the
    /// recipe names twice counts once, as its first ingredient (name and substitution). Staples the pantry holds do
    /// count towards `usesSoon`: a bottle of oil past its date is used up like anything else.
    static func coverage(of recipe: Recipe, stocked: [String: PantryItem], useSoonBy: CalendarDay) -> RecipeCoverage {
        var seen: Set<String> = []
        var (counted, covered) = (0, 0)
        var missing: [MissingIngredient] = []
        var usesSoon: [(day: CalendarDay, name: String)] = []
        for ingredient in recipe.ingredients {
            let key = IngredientKey.of(ingredient.englishName)
            guard !key.isEmpty, seen.insert(key).inserted else { continue }
            let item = stocked[key]
            if let item, let day = item.useSoonBy, day <= useSoonBy { usesSoon.append((day, item.name)) }
            guard !PantryStaples.contains(key: key) else { continue }
            counted += 1
            if item == nil {
                missing.append(MissingIngredient(name: ingredient.name, substitution: ingredient.substitution))
            } else {
                covered += 1
            }
        }
        return RecipeCoverage(
            coverage: counted == 0 ? 1 : Double(covered) / Double(counted),
            missing: missing,
            usesSoon: usesSoon.sorted { ($0.day, $0.name) < ($1.day, $1.name) }.map(\.name)
        )
    }

    /// Whether `one` is ranked before `other`. Equal fractions are equal doubles (division rounds correctly), so
    /// 2/4 and 1/2 tie.
    static func precedes(_ one: CookableRecipe, _ other: CookableRecipe, in order: Order) -> Bool {
        let (coverage, usesSoon) = ((one.cookable.coverage, other.cookable.coverage), (one.cookable.usesSoon.count, other.cookable.usesSoon.count))
        switch order {
        case .coverage:
            if coverage.0 != coverage.1 { return coverage.0 > coverage.1 }
            if usesSoon.0 != usesSoon.1 { return usesSoon.0 > usesSoon.1 }
        case .useSoon:
            if usesSoon.0 != usesSoon.1 { return usesSoon.0 > usesSoon.1 }
            if coverage.0 != coverage.1 { return coverage.0 > coverage.1 }
        }
        if one.saved.savedAt != other.saved.savedAt { return one.saved.savedAt > other.saved.savedAt }
        return one.saved.id.uuidString < other.saved.id.uuidString
    }
}
