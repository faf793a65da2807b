import KiwiModels
import KiwiScans
import Logging

/// A valid answer, and the model's text of it (shown to the model again when the guard asks for a repair).
struct ValidAnswer: Sendable {
    var response: ScanResponse
    var content: String
}

/// What one request to the model came to.
enum ModelReply: Sendable {
    /// An answer that keeps the contract.
    case valid(ValidAnswer)
    /// An answer that arrived and cannot be used: worth a repair.
    case unusable(UnusableAnswer)
    /// No answer: the scan ends with this failure.
    case failed(ScanFailure)
}

/// The middle of the scan's pipeline: one answer of the model to the scan's request (with a repair prompt when
/// given), its spending counted. ``ScanPipeline`` asks it for every answer, repairs and the guard's included, so a
/// different way of asking (a streamed call that validates each recipe as it arrives) replaces this step alone.
protocol ModelAnswering: Sendable {
    func answer(_ request: ScanRequest, repair: ScanPrompt.Repair?, spending: inout ScanSpending, logger: Logger) async -> ModelReply
}
