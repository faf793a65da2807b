import Foundation
import JWTKit
import KiwiModels

/// Verifies Sign in with Apple identity tokens (docs/architecture.md, "3. The auth flow"): RS256 only, the key chosen by `kid` from
/// Apple's published keys, issuer `https://appleid.apple.com`, audience one of the app's client ids, and
/// expiry and issue time within a small leeway. The key source and the clock are dependencies, so the
/// verifier can be tested at a fixed instant against recorded tokens.
public struct AppleIdentityTokenVerifier: Sendable {
    public static let issuer = "https://appleid.apple.com"
    /// Longer tokens are refused before anything is parsed. Apple's are about 1 KiB.
    public static let maximumTokenLength = 16 * 1024

    private let keys: AppleSigningKeys
    private let audiences: Set<String>
    private let leeway: TimeInterval
    private let now: @Sendable () -> Date

    /// - Parameters:
    ///   - audiences: The accepted `aud` values: the app's bundle id and services id (`APPLE_CLIENT_ID`).
    ///   - leeway: Tolerated clock difference for `exp` and `iat`.
    ///   - now: The clock.
    public init(
        keys: AppleSigningKeys,
        audiences: some Sequence<String>,
        leeway: Duration = .seconds(60),
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.keys = keys
        self.audiences = Set(audiences)
        self.leeway = TimeInterval(leeway.components.seconds)
        self.now = now
    }

    /// Verifies a token (the compact JWT, or base64 of it: clients differ) and returns who it identifies.
    public func verify(_ presented: String) async throws(AppleTokenError) -> AppleIdentity {
        guard presented.utf8.count <= Self.maximumTokenLength else { throw .tooLong }
        let token = Self.compactJWT(presented)
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, parts.allSatisfy({ !$0.isEmpty }) else { throw .malformed("not three dot-separated parts") }
        guard let headerData = Data(base64URLEncoded: String(parts[0])),
            let header = try? JSONDecoder().decode(Header.self, from: headerData)
        else { throw .malformed("the header is not base64url-encoded JSON") }
        guard header.alg == "RS256" else { throw .unsupportedAlgorithm(header.alg ?? "none") }
        guard let keyID = header.kid else { throw .malformed("the header names no key") }

        let collection = try await keys.keys(including: keyID)
        let claims: AppleIdentityClaims
        do {
            claims = try await collection.verify(token, as: AppleIdentityClaims.self)
        } catch let error as JWTError where error.errorType == .signatureVerificationFailed {
            throw .invalidSignature
        } catch {
            throw .malformed("\(error)")
        }
        try check(claims)
        return AppleIdentity(subject: claims.subject.value, email: claims.email, isPrivateEmail: claims.isPrivateEmail?.value)
    }

    private func check(_ claims: AppleIdentityClaims) throws(AppleTokenError) {
        let now = now()
        guard claims.issuer.value == Self.issuer else { throw .invalidClaims("issuer \(claims.issuer.value)") }
        guard !audiences.isDisjoint(with: claims.audience.value) else { throw .invalidClaims("audience \(claims.audience.value)") }
        guard claims.expires.value.addingTimeInterval(leeway) > now else { throw .invalidClaims("expired at \(claims.expires.value)") }
        guard claims.issuedAt.value.addingTimeInterval(-leeway) <= now else { throw .invalidClaims("issued in the future") }
        guard !claims.subject.value.isEmpty else { throw .invalidClaims("no subject") }
    }

    /// The token itself when it looks like a compact JWT, else its base64 decoding when that is one.
    private static func compactJWT(_ presented: String) -> String {
        let trimmed = presented.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.contains("."), let data = Data(base64Encoded: trimmed) ?? Data(base64URLEncoded: trimmed),
            let decoded = String(data: data, encoding: .utf8)?.trimmingCharacters(in: .whitespacesAndNewlines),
            decoded.split(separator: ".").count == 3
        else { return trimmed }
        return decoded
    }

    private struct Header: Decodable {
        let alg: String?
        let kid: String?
    }
}
