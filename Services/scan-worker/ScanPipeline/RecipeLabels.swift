import CoreMetrics
import Foundation
import KiwiConcurrency
import KiwiDietGuard
import KiwiModels
import KiwiNutrition
import Synchronization

#if canImport(SwiftOverlayShims)
// timespec's members: a whole-module (release) build does not see them through Foundation or Glibc.
import SwiftOverlayShims
#endif

/// One scan's recipes labelled with their allergens (``DietGuard/allergens(of:)``) and, with a ``NutritionEstimator``,
/// their nutrition per serving (a recipe with servings, a dish recipe written with amounts), each recipe worked out
/// once: a streamed recipe is labelled when it is shown, and the whole answer's same recipe takes that label instead of
/// being read and weighed again. A recipe is known by its id: derived from the scan's id, its place and its JSON, an id
/// names one recipe as the model wrote it, and is cheaper to look up than the recipe's every field. Labelling comes
/// after the guard, so every recipe shown, streamed or whole, carries it. The CPU time of each estimate is counted in
/// `kiwi_worker_nutrition_cpu_seconds` (`make bench` reports it per scan).
final class RecipeLabels: Sendable {
    /// The guard of the answer's language.
    let dietGuard: DietGuard
    /// The language recipes are labelled as written in; nil for English, which a recipe without one is.
    private let language: AnswerLanguage?
    /// Whether recipes are labelled with their allergens: always, but in a benchmark leg that measures what it costs.
    private let allergens: Bool
    private let nutrition: NutritionEstimator?
    private let known = Mutex<[UUID: Label]>([:])

    /// What labelling adds to one recipe.
    private struct Label {
        var allergens: [KitchenProfile.Allergen]
        var nutrition: RecipeNutrition?
    }

    init(language: AnswerLanguage = .en, allergens: Bool = true, nutrition: NutritionEstimator? = nil) {
        self.language = language == .en ? nil : language
        dietGuard = .reading(language)
        self.allergens = allergens
        self.nutrition = nutrition
    }

    /// `recipe` with its allergens, nutrition and language.
    func labelled(_ recipe: Recipe) -> Recipe {
        let label = label(of: recipe)
        var labelled = recipe
        if allergens { labelled.allergens = label.allergens }
        labelled.nutrition = label.nutrition
        labelled.language = language
        return labelled
    }

    /// `answer` with each recipe's allergens, as ``DietGuard/labelled(_:)`` labels it, nutrition and language.
    func labelled(_ answer: ScanResponse) -> ScanResponse {
        var labelled = allergens ? dietGuard.labelled(answer) { label(of: $0).allergens } : answer
        for (index, recipe) in answer.recipes.enumerated() {
            labelled.recipes[index].nutrition = label(of: recipe).nutrition
            labelled.recipes[index].language = language
        }
        if let recipe = labelled.dish?.recipe {
            labelled.dish?.recipe?.nutrition = measured { $0.nutrition(of: recipe) }
            labelled.dish?.recipe?.language = language
        }
        return labelled
    }

    /// What `estimate` gives with the estimator, its thread's CPU time counted; nil without an estimator.
    private func measured(_ estimate: (NutritionEstimator) -> RecipeNutrition?) -> RecipeNutrition? {
        guard let nutrition else { return nil }
        let started = Self.threadCPUTime()
        defer { Self.cpuTime.recordNanoseconds((Self.threadCPUTime() - started).nanoseconds) }
        return estimate(nutrition)
    }

    /// `kiwi_worker_nutrition_cpu_seconds`: the CPU time of each recipe's nutrition estimate.
    private static let cpuTime = Timer(label: "kiwi_worker_nutrition_cpu_seconds", preferredDisplayUnit: .seconds)

    /// The CPU time the calling thread has used: an estimate runs on one thread, with no suspension.
    private static func threadCPUTime() -> Duration {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
    }

    /// `recipe`'s label, as the model answered it: worked out the first time, then remembered.
    private func label(of recipe: Recipe) -> Label {
        if let label = known.withLock({ $0[recipe.id] }) { return label }
        let label = Label(allergens: allergens ? dietGuard.allergens(of: recipe) : [], nutrition: measured { $0.nutrition(of: recipe) })
        known.withLock { $0[recipe.id] = label }
        return label
    }
}
