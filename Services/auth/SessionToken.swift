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
        SessionToken(value: Data.random(count: 32).base64URLEncodedString)
    }
}
