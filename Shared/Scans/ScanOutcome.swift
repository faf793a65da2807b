import Foundation
import KiwiModels

/// How a scan ended: its validated answer, or why there is none.
public enum ScanOutcome: Sendable, Hashable {
    case ok(ScanResponse)
    case error(ScanFailure)
}

/// Why a scan produced no recipes.
public struct ScanFailure: Sendable, Hashable, Codable, Error {
    /// What went wrong, as the gateway maps it to a status (docs/architecture.md, "6. Failure semantics").
    public enum Code: String, Sendable, Hashable, Codable {
        /// The model's answers (the first and the repair) broke the contract.
        case invalidModelResponse = "invalid_model_response"
        /// OpenAI could not be reached, kept failing, or refused for a reason retrying cannot fix.
        case llmUnavailable = "llm_unavailable"
        /// The deadline passed before an answer.
        case scanTimeout = "scan_timeout"
        /// The bytes are not a well-formed JPEG.
        case invalidImage = "invalid_image"
        /// A receipt scan's photos show no receipt: the model said so.
        case notAReceipt = "not_a_receipt"
    }

    public var code: Code
    /// A sentence for logs and, where it helps, for the client; it never contains the image or the model's answer.
    public var message: String
    /// For `llm_unavailable`: when trying again may help, in whole seconds (the model's `retry-after`, or the time
    /// until a route's circuit breaker lets a call through); the gateway's `Retry-After`.
    public var retryAfterSeconds: Int?

    public init(_ code: Code, _ message: String, retryAfterSeconds: Int? = nil) {
        self.code = code
        self.message = message
        self.retryAfterSeconds = retryAfterSeconds
    }
}
