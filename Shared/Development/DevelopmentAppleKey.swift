import Foundation
import JWTKit
import KiwiModels
import _CryptoExtras

/// A locally generated RSA key that stands in for Apple's in development and tests: it publishes itself as a
/// JWKS (for `APPLE_JWKS_FILE` or a test's JWKS server) and mints identity tokens shaped like Apple's.
public struct DevelopmentAppleKey: Sendable {
    public let keyID: String
    private let privateKey: JWTKit.Insecure.RSA.PrivateKey

    /// A new 2048-bit key.
    public static func generate(keyID: String = "kiwi-dev-\(UUID().uuidString.prefix(8).lowercased())") throws -> DevelopmentAppleKey {
        DevelopmentAppleKey(keyID: keyID, privateKey: try JWTKit.Insecure.RSA.PrivateKey(backing: _RSA.Signing.PrivateKey(keySize: .bits2048)))
    }

    /// A key read from its PEM form.
    public init(pem: String, keyID: String) throws {
        self.init(keyID: keyID, privateKey: try JWTKit.Insecure.RSA.PrivateKey(pem: pem))
    }

    private init(keyID: String, privateKey: JWTKit.Insecure.RSA.PrivateKey) {
        self.keyID = keyID
        self.privateKey = privateKey
    }

    /// The key id of the key `kiwi dev-keys` keeps for a local stack; the development tools sign under it.
    public static let localKeyID = "kiwi-dev"

    /// The key `kiwi dev-keys` keeps in `directory` (its `key.pem`), or nil when it has not made one there.
    public static func local(in directory: String) throws -> DevelopmentAppleKey? {
        guard let pem = try? String(contentsOfFile: "\(directory)/key.pem", encoding: .utf8) else { return nil }
        return try DevelopmentAppleKey(pem: pem, keyID: localKeyID)
    }

    /// The private key in PEM form, to keep in a local file.
    public var pemRepresentation: String { privateKey.pemRepresentation }

    /// The public half as a key set, the way Apple publishes its keys.
    public func jwks() throws -> JWKS {
        let primitives = try privateKey.publicKey.getKeyPrimitives()
        return JWKS(keys: [
            .rsa(
                .rs256,
                identifier: JWKIdentifier(string: keyID),
                modulus: primitives.modulus.base64URLEncodedString,
                exponent: primitives.publicExponent.base64URLEncodedString
            )
        ])
    }

    /// An RS256 identity token with these claims, signed with this key and naming it as `kid`.
    public func mint(_ claims: some JWTPayload) async throws -> String {
        let keys = await JWTKeyCollection().add(rsa: privateKey, digestAlgorithm: .sha256, kid: JWKIdentifier(string: keyID))
        return try await keys.sign(claims, kid: JWKIdentifier(string: keyID))
    }
}
