import Foundation
import KiwiConcurrency
import KiwiMessaging
import KiwiModels

/// A worker's answer to a ``ScanJob``: `{"ok": ScanResponse}` or `{"error": {"code", "message"}}`.
public enum ScanJobResult: Sendable, Hashable, Codable {
    case ok(ScanResponse)
    case error(ScanFailure)

    private enum CodingKeys: String, CodingKey {
        case ok, error
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        guard container.allKeys.count == 1 else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "exactly one of ok and error is expected"))
        }
        if let response = try container.decodeIfPresent(ScanResponse.self, forKey: .ok) {
            self = .ok(response)
        } else {
            self = .error(try container.decode(ScanFailure.self, forKey: .error))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .ok(let response): try container.encode(response, forKey: .ok)
        case .error(let failure): try container.encode(failure, forKey: .error)
        }
    }

    /// The reply header in which a worker reports how long the model spent on the scan, in milliseconds (the sum of
    /// OpenAI's `openai-processing-ms` over its completions), so the gateway can tell its clients (`Server-Timing`).
    public static let modelTimeHeader = "x-kiwi-model-ms"

    /// The result as a reply message body (JSON), with the model's time when known; the publisher adds the job's
    /// correlation id.
    public func message(modelTime: Duration? = nil) -> AMQPMessage {
        // Encoding plain value types with string keys cannot fail.
        let body = try! KiwiJSON.encoder().encode(self)
        var properties = AMQPProperties(contentType: "application/json", persistent: false)
        if let modelTime { properties.headers[Self.modelTimeHeader] = String(modelTime.seconds * 1000) }
        return AMQPMessage(body: Array(body), properties: properties)
    }

    /// How long the model spent on the scan, as a reply reports it; nil when it does not, or not sensibly.
    public static func modelTime(in message: AMQPMessage) -> Duration? {
        message.properties.headers[modelTimeHeader].flatMap { Duration(milliseconds: $0) }
    }

    /// Reads a result from a reply message.
    public init(message: AMQPMessage) throws {
        self = try KiwiJSON.decoder().decode(Self.self, from: Data(message.body))
    }
}

/// Why a scan produced no recipes.
public struct ScanFailure: Sendable, Hashable, Codable, Error {
    /// What went wrong, as the gateway maps it to a status (DESIGN.md §3).
    public enum Code: String, Sendable, Hashable, Codable {
        /// The model's answers (the first and the repair) broke the contract.
        case invalidModelResponse = "invalid_model_response"
        /// OpenAI could not be reached, kept failing, or refused for a reason retrying cannot fix.
        case llmUnavailable = "llm_unavailable"
        /// The deadline passed before an answer.
        case scanTimeout = "scan_timeout"
        /// The bytes are not a well-formed JPEG.
        case invalidImage = "invalid_image"
    }

    public var code: Code
    /// A sentence for logs and, where it helps, for the client; it never contains the image or the model's answer.
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }
}
