import HTTPTypes
import Hummingbird
import KiwiModels
import KiwiServiceSupport

/// The `Idempotency-Key` request header (IETF draft-ietf-httpapi-idempotency-key-header): a client's name for one
/// scan, so that retrying a request whose answer was lost gets that scan again instead of a second one. Keys are per
/// user and live as long as the scan's record.
enum IdempotencyKey {
    /// The request's key; nil without one. Throws 400 for a key that is not 1–255 visible ASCII characters.
    static func of(_ request: Request) throws -> String? {
        guard let value = request.headers[.idempotencyKey] else { return nil }
        // The draft makes the key a structured-field string; a bare token is taken as it is too.
        let key = value.count >= 2 && value.hasPrefix("\"") && value.hasSuffix("\"") ? String(value.dropFirst().dropLast()) : value
        guard (1...255).contains(key.utf8.count), key.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            throw APIError.badRequest("The Idempotency-Key header must be 1 to 255 visible ASCII characters.")
        }
        return key
    }

    /// The same key was sent for another scan (other photos, or another refinement): 422, as the draft asks.
    static let reused = APIError(
        .unprocessableContent,
        .idempotencyKeyReused,
        "This Idempotency-Key was already used for another scan (other photos, or other ingredients to refine); use a new key for a new scan."
    )
}

extension HTTPField.Name {
    static let idempotencyKey = Self("Idempotency-Key")!
}
