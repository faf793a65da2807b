import CoreMetrics
import Foundation
import KiwiDietGuard
import KiwiModels
import KiwiScans
import Logging
import Synchronization
import Tracing

/// The pipeline's guarding step: an answer as the user may see it (``DietGuard``). When a recipe breaks the user's
/// allergies or diets the model is told what broke which rule and asked once more; whatever still breaks them is
/// withheld. If the repair gets no valid answer, the first answer is kept, without what broke the profile. Every
/// recipe, guarded or not, is labelled with its allergens.
struct ProfileGuard: Sendable {
    let metrics: WorkerMetrics

    /// `answer` guarded against `profile` (when it has any rule) in the language it is written in, and labelled by
    /// `labels`, which read that language, each withheld recipe saying for whom of a household's `table`; `askAgain` asks
    /// the model for the guard's repair.
    func guarded(
        _ answer: ValidAnswer,
        profile: KitchenProfile?,
        table: [TableSeat] = [],
        labels: RecipeLabels,
        safe: SafeRecipes = SafeRecipes(),
        logger: Logger,
        askingAgain askAgain: (ScanPrompt.Repair) async -> Result<ValidAnswer, ScanFailure>
    ) async -> ScanResponse {
        var response = answer.response
        if let profile, !profile.isEmpty {
            response = await enforced(
                answer,
                profile: profile,
                by: labels.dietGuard,
                table: table,
                safe: safe,
                logger: logger,
                askingAgain: askAgain
            )
            response.appliedProfile = profile
        }
        return labels.labelled(response)
    }

    private func enforced(
        _ answer: ValidAnswer,
        profile: KitchenProfile,
        by dietGuard: DietGuard,
        table: [TableSeat],
        safe: SafeRecipes,
        logger: Logger,
        askingAgain askAgain: (ScanPrompt.Repair) async -> Result<ValidAnswer, ScanFailure>
    ) async -> ScanResponse {
        let findings = withSpan("guard the answer") { _ in dietGuard.findings(in: answer.response, for: profile, except: safe.contains) }
        guard !findings.isEmpty else { return answer.response }
        logger.info("the answer breaks the user's allergies or diets; asking for a repair", metadata: ["recipes": "\(findings.count)"])
        metrics.guardRepairs.increment()
        let repair = ScanPrompt.Repair(previousAnswer: answer.content, problem: dietGuard.repairProblem(findings))
        let guarded: ScanResponse
        switch await askAgain(repair) {
        case .success(let repaired):
            guarded = dietGuard.enforce(dietGuard.findings(in: repaired.response, for: profile), on: repaired.response, table: table)
        case .failure(let failure):
            logger.warning(
                "the guard's repair got no usable answer; keeping the first without what breaks the profile",
                metadata: ["code": "\(failure.code.rawValue)"]
            )
            guarded = dietGuard.enforce(findings, on: answer.response, table: table)
        }
        if !guarded.withheldRecipes.isEmpty {
            logger.info("recipes withheld for the user's allergies or diets", metadata: ["count": "\(guarded.withheldRecipes.count)"])
            metrics.recipesWithheld.increment(by: guarded.withheldRecipes.count)
        }
        return guarded
    }
}

/// The recipes of one scan that the guard has read and found safe for the scan's profile, by id. A recipe checked as it
/// streamed is the whole answer's same recipe, its id derived from the scan's id, its place and its JSON, so the whole
/// answer's guard need not read it again. Only this process's checks count: a recipe shown before a restart, perhaps
/// by an older release's lexicon, is read again.
final class SafeRecipes: Sendable {
    private let ids = Mutex<Set<UUID>>([])

    /// Records that the guard found nothing in `recipe` for the scan's profile.
    func insert(_ recipe: Recipe) {
        _ = ids.withLock { $0.insert(recipe.id) }
    }

    /// Whether the guard has found `recipe` safe for the scan's profile.
    func contains(_ recipe: Recipe) -> Bool {
        ids.withLock { $0.contains(recipe.id) }
    }
}
