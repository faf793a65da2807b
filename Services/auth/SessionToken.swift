import Foundation
import KiwiModels

/// An opaque session token: 32 bytes from the system CSPRNG, base64url-encoded for the client. The database
/// keeps only its SHA-256 (``SessionTokenDigest``), so a leaked database does not hand out working tokens.
struct SessionToken: Sendable {
    /// How long a session lasts.
    static let lifetime: TimeInterval = 30 * 24 * 3600

    let value: String

    /// A fresh random token.
    static func generate() -> SessionToken {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return SessionToken(value: Data(bytes).base64URLEncodedString)
    }
}
