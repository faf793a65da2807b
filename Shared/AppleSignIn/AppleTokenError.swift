/// Why an identity token was not accepted.
public enum AppleTokenError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Longer than ``AppleIdentityTokenVerifier/maximumTokenLength``: refused before any parsing.
    case tooLong
    /// Not a compact JWT (or base64 of one) with a readable header and payload.
    case malformed(String)
    /// Signed with anything but RS256 (including `none`, HMAC and ECDSA).
    case unsupportedAlgorithm(String)
    /// Signed with a key Apple does not publish, even after refreshing the keys.
    case unknownKey(String)
    /// The signature does not match the token.
    case invalidSignature
    /// Issuer, audience, expiry or issue time are wrong.
    case invalidClaims(String)
    /// Apple's keys could not be fetched and none are cached: the token cannot be judged right now.
    case keysUnavailable(String)

    public var description: String {
        switch self {
        case .tooLong: "the identity token is too long"
        case .malformed(let reason): "the identity token is malformed: \(reason)"
        case .unsupportedAlgorithm(let algorithm): "the identity token is signed with \(algorithm), not RS256"
        case .unknownKey(let keyID): "the identity token is signed with an unknown key (\(keyID))"
        case .invalidSignature: "the identity token's signature is invalid"
        case .invalidClaims(let reason): "the identity token's claims are invalid: \(reason)"
        case .keysUnavailable(let reason): "Apple's signing keys are unavailable: \(reason)"
        }
    }
}
