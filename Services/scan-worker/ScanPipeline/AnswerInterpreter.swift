import Foundation
import KiwiModels
import KiwiOpenAI
import KiwiStrictJSON

/// Why an answer cannot be used: a short kind for logs, and for the repair prompt the problem and the answer.
struct UnusableAnswer: Error, Sendable {
    var kind: String
    var problem: String
    var answer: String?
}

/// The pipeline's interpreting step: a completion read as the scan's answer, held to the contract of its mode
/// (``ScanResponseContract``, ``DishAnswerContract``, ``ReceiptAnswerContract``), or a plan's to ``MealPlanContract``; a refusal, a cut-off, an empty or filtered answer, or JSON that
/// breaks the contract (a fridge answer's by `rules`) is an ``UnusableAnswer`` for ``AnswerRepair`` to show the model.
/// The answer's ids are derived from `idSeed`, the scan's id.
enum AnswerInterpreter {
    static func interpret(
        _ completion: ChatCompletion,
        mode: ScanMode = .fridge,
        rules: ScanResponseContract.ModelRules = .photos,
        plan: MealPlanContract.Rules? = nil,
        idSeed: UUID
    ) -> Result<ScanResponse, UnusableAnswer> {
        guard let choice = completion.choices.first else {
            return .failure(UnusableAnswer(kind: "no choices", problem: "it contained no answer"))
        }
        if let refusal = choice.message.refusal, !refusal.isEmpty {
            return .failure(UnusableAnswer(kind: "refusal", problem: "you declined to answer"))
        }
        if choice.finishReason == "length" {
            return .failure(UnusableAnswer(kind: "cut off at the token limit", problem: "it was cut off before the JSON was complete"))
        }
        // OpenAI's filter stops an answer part-way; what it kept, complete JSON or not, is not the model's answer.
        if choice.finishReason == "content_filter" {
            return .failure(UnusableAnswer(kind: "stopped by the content filter", problem: "it was stopped by the content filter"))
        }
        guard let content = choice.message.content, !content.isEmpty else {
            return .failure(UnusableAnswer(kind: "empty", problem: "it was empty"))
        }
        do throws(ScanResponseValidationError) {
            let data = Data(content.utf8)
            if let plan { return .success(try MealPlanContract.validateModelAnswer(data, by: plan, idSeed: idSeed)) }
            switch mode {
            case .fridge: return .success(try ScanResponseContract.validateModelAnswer(data, by: rules, idSeed: idSeed))
            case .dish: return .success(try DishAnswerContract.validateModelAnswer(data, idSeed: idSeed))
            case .receipt: return .success(try ReceiptAnswerContract.validateModelAnswer(data, idSeed: idSeed))
            }
        } catch {
            let notJSON = error.violations.count == 1 && error.violations[0].message.hasPrefix("not valid JSON")
            return .failure(
                UnusableAnswer(
                    kind: notJSON ? "not JSON" : "\(error.violations.count) rule violations",
                    problem: error.violations.prefix(10).map(\.description).joined(separator: "; "),
                    answer: content
                )
            )
        }
    }
}
