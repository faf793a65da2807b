import Crypto
import Foundation
import KiwiModels

/// An opaque session token: 32 bytes from the system CSPRNG, base64url-encoded for the client. The database
/// keeps only its SHA-256, so a leaked database does not hand out working tokens.
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

    /// The SHA-256 of a token as presented by a client: what the database stores and looks up.
    static func hash(_ token: String) -> Data {
        Data(SHA256.hash(data: Data(token.utf8)))
    }

    /// The hash in hex, as revocation events carry it.
    static func hexHash(_ token: String) -> String {
        hash(token).hexEncodedString
    }
}
