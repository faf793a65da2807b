import CoreMetrics
import KiwiScans
import Logging

/// The pipeline's repair step: a valid answer in up to `rounds` requests, the model asked again, shown its unusable
/// answer and told why, while its answer cannot be used. Each repair is counted in `kiwi_llm_repairs_total`.
struct AnswerRepair: Sendable {
    let metrics: WorkerMetrics

    /// The first valid answer `ask` gets in `rounds` requests, the first with `repair` when given; or why there is none.
    func validAnswer(
        rounds: Int,
        repair: ScanPrompt.Repair? = nil,
        logger: Logger,
        asking ask: (ScanPrompt.Repair?) async -> ModelReply
    ) async -> Result<ValidAnswer, ScanFailure> {
        var repair = repair
        var failure = ScanFailure(.invalidModelResponse, "no answer")
        for round in 1...rounds {
            switch await ask(repair) {
            case .failed(let failure):
                return .failure(failure)
            case .valid(let answer):
                return .success(answer)
            case .unusable(let unusable):
                logger.warning("unusable model answer", metadata: ["round": "\(round)", "problem": "\(unusable.kind)"])
                repair = ScanPrompt.Repair(previousAnswer: unusable.answer, problem: unusable.problem)
                if round < rounds { metrics.repairs.increment() }
                failure = ScanFailure(.invalidModelResponse, "The model's answer could not be used: \(unusable.kind).")
            }
        }
        return .failure(failure)
    }
}
