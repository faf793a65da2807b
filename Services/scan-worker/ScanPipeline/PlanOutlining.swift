import Foundation
import KiwiDietGuard
import KiwiModels
import KiwiScans
import Logging

/// The pipeline's step for a plan's valid outline (docs/architecture.md, "Meal plans"): held to Kiwi's rules of plans
/// (``PlanChecks``). The meals that break one are asked for once more, the model told why and to keep the others; a
/// replacement that breaks none is planned, and any other such meal is left empty, saying why, for the person to fill.
struct PlanOutlining: Sendable {
    let repair: AnswerRepair
    let dietGuard: DietGuard

    func outlined(
        _ answer: ValidAnswer,
        plan: PlanQuestion,
        profile: KitchenProfile?,
        shown: ShownState,
        logger: Logger,
        asking ask: (ScanPrompt.Repair?) async -> ModelReply
    ) async -> ScanResponse {
        let profile = profile.flatMap { $0.isEmpty ? nil : $0 }
        let checks = PlanChecks(dietGuard: dietGuard, plan: plan, profile: profile)
        var response = answer.response
        response.appliedProfile = profile
        var meals = response.plan?.meals ?? []
        let problems = checks.problems(in: meals)
        guard !problems.isEmpty else { return response }
        logger.info("the plan breaks Kiwi's rules; asking for a repair", metadata: ["meals": "\(problems.count)"])
        // What streamed stays as it is: the repair's meals are not shown, and the result replaces them all.
        shown.abandon()
        let described = meals.compactMap { meal in
            problems[meal.id].map { "\(slotLabel(of: meal, in: plan.request)) (\"\(meal.outline?.name ?? "")\"): \($0)" }
        }
        let problem = described.joined(separator: " ") + " Replace those meals, and keep every other meal as it was"
        var replacements: [UUID: PlannedMeal] = [:]
        switch await repair.validAnswer(
            rounds: 1,
            repair: ScanPrompt.Repair(previousAnswer: answer.content, problem: problem),
            logger: logger,
            asking: ask
        ) {
        case .success(let repaired):
            replacements = Dictionary(repaired.response.plan?.meals.map { ($0.id, $0) } ?? [], uniquingKeysWith: { first, _ in first })
        case .failure(let failure):
            logger.warning("the plan's repair got no usable answer; leaving its broken meals empty", metadata: ["code": "\(failure.code.rawValue)"])
        }
        var accepted = meals.filter { problems[$0.id] == nil }
        for index in meals.indices {
            guard let first = problems[meals[index].id] else { continue }
            let replacement = replacements[meals[index].id]
            let remaining = replacement.map { checks.problem(of: $0, among: accepted) } ?? first
            if let replacement, remaining == nil {
                meals[index] = replacement
                accepted.append(replacement)
            } else {
                meals[index].outline = nil
                meals[index].emptyReason = remaining
            }
        }
        response.plan = MealPlanOutline(meals: meals)
        return response
    }

    /// The label the model knows a meal's slot by.
    private func slotLabel(of meal: PlannedMeal, in request: PlanRequest) -> String {
        request.slot(on: meal.date, meal.meal).label
    }
}
