import Foundation
import JWTKit
import KiwiAppleSignIn
import KiwiDevelopment
import KiwiModels
import Logging
import Testing
import _CryptoExtras

/// Tokens signed with locally generated RSA keys, verified against those keys served as a real JWKS over
/// HTTP, at a fixed instant. Nothing about the verifier is mocked.
@Suite("Apple identity token verification")
struct AppleIdentityTokenVerifierTests {
    static let now = Date(timeIntervalSince1970: 1_770_681_600)  // 2026-02-10T00:00:00Z
    static let audience = "app.kiwi.ios"
    let key: DevelopmentAppleKey
    let logger = Logger(label: "test.apple")

    init() throws {
        key = try DevelopmentAppleKey.generate(keyID: "key-a")
    }

    func claims(
        issuer: String = AppleIdentityTokenVerifier.issuer,
        audience: String = audience,
        expires: Date = now.addingTimeInterval(600),
        issuedAt: Date = now.addingTimeInterval(-10),
        email: String? = "abc@privaterelay.appleid.com"
    ) -> AppleIdentityClaims {
        AppleIdentityClaims(
            issuer: issuer,
            audience: audience,
            expires: expires,
            issuedAt: issuedAt,
            subject: "001234.abcdef.0042",
            email: email,
            emailVerified: true,
            isPrivateEmail: true
        )
    }

    /// Verifies `token` against `key`'s JWKS served over HTTP.
    func verify(_ token: String, keys jwks: JWKS? = nil) async throws -> Result<AppleIdentity, AppleTokenError> {
        let server = JWKSServer(try jwks ?? key.jwks())
        return try await server.serving { url in
            let verifier = AppleIdentityTokenVerifier(
                keys: AppleSigningKeys(source: HTTPJWKSSource(url: url), logger: logger),
                audiences: [Self.audience, "app.kiwi.web"],
                now: { Self.now }
            )
            do throws(AppleTokenError) {
                return .success(try await verifier.verify(token))
            } catch {
                return .failure(error)
            }
        }
    }

    @Test("a valid token yields Apple's subject and email")
    func validToken() async throws {
        let identity = try await verify(try await key.mint(claims())).get()
        #expect(identity == AppleIdentity(subject: "001234.abcdef.0042", email: "abc@privaterelay.appleid.com", isPrivateEmail: true))
    }

    @Test("the base64 of a compact token is accepted too")
    func base64OfToken() async throws {
        let token = try await key.mint(claims())
        #expect(try await verify(Data(token.utf8).base64EncodedString()).get().subject == "001234.abcdef.0042")
    }

    @Test("base64 of a token with a trailing newline, as `base64 <<< $token` writes it, is accepted")
    func base64WithNewline() async throws {
        let token = try await key.mint(claims())
        #expect(try await verify(Data((token + "\n").utf8).base64EncodedString()).get().subject == "001234.abcdef.0042")
    }

    @Test("a token without email, as after the first sign-in, is valid")
    func tokenWithoutEmail() async throws {
        #expect(try await verify(try await key.mint(claims(email: nil))).get().email == nil)
    }

    @Test("email_verified and is_private_email as strings, as older tokens carry them, are accepted")
    func stringBooleans() async throws {
        struct OlderClaims: JWTPayload {
            let iss = AppleIdentityTokenVerifier.issuer
            let aud = "app.kiwi.ios"
            let exp = 1_770_681_600 + 600
            let iat = 1_770_681_600 - 10
            let sub = "001234.older.0001"
            let email = "old@example.com"
            let email_verified = "true"
            let is_private_email = "false"
            func verify(using _: some JWTAlgorithm) throws {}
        }
        let identity = try await verify(try await key.mint(OlderClaims())).get()
        #expect(identity.isPrivateEmail == false)
        #expect(identity.email == "old@example.com")
    }

    @Test("a token that expired within the leeway is still accepted")
    func leewayOnExpiry() async throws {
        #expect(try await verify(try await key.mint(claims(expires: Self.now.addingTimeInterval(-30)))).get().subject == "001234.abcdef.0042")
    }

    @Test("each kind of bad claim is refused", arguments: ["issuer", "audience", "expired", "issued in the future"])
    func badClaims(_ kind: String) async throws {
        let bad =
            switch kind {
            case "issuer": claims(issuer: "https://evil.example.com")
            case "audience": claims(audience: "com.other.app")
            case "expired": claims(expires: Self.now.addingTimeInterval(-120))
            default: claims(issuedAt: Self.now.addingTimeInterval(300))
            }
        let result = try await verify(try await key.mint(bad))
        #expect(throws: AppleTokenError.self) { try result.get() }
        guard case .failure(.invalidClaims) = result else {
            Issue.record("expected invalid claims, got \(result)")
            return
        }
    }

    @Test("a token signed by another key under the same key id has an invalid signature")
    func badSignature() async throws {
        let impostor = try DevelopmentAppleKey.generate(keyID: key.keyID)
        #expect(try await verify(try await impostor.mint(claims())) == .failure(.invalidSignature))
    }

    @Test("a token with one byte of its payload changed is refused")
    func tamperedPayload() async throws {
        let token = try await key.mint(claims())
        var parts = token.split(separator: ".").map(String.init)
        var payload = Array(parts[1].utf8)
        payload[10] = payload[10] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        parts[1] = String(decoding: payload, as: UTF8.self)
        let result = try await verify(parts.joined(separator: "."))
        #expect(throws: AppleTokenError.self) { try result.get() }
    }

    @Test("a token signed with a key Apple does not publish is refused after one refresh")
    func unknownKeyID() async throws {
        let stranger = try DevelopmentAppleKey.generate(keyID: "key-unknown")
        #expect(try await verify(try await stranger.mint(claims())) == .failure(.unknownKey("key-unknown")))
    }

    @Test("alg none, HS256 with the public key as secret, and ES256 are all refused", arguments: ["none", "HS256", "ES256"])
    func wrongAlgorithms(_ algorithm: String) async throws {
        let token: String
        switch algorithm {
        case "none":
            let header = Data(#"{"alg":"none","kid":"key-a"}"#.utf8).base64URLEncodedString
            let payload = Data(try JSONEncoder().encode(claims())).base64URLEncodedString
            token = "\(header).\(payload).c2lnbmF0dXJl"
        case "HS256":
            let publicPEM = try JWTKit.Insecure.RSA.PublicKey(modulus: modulus(), exponent: "AQAB").pemRepresentation
            let keys = await JWTKeyCollection().add(hmac: HMACKey(from: publicPEM), digestAlgorithm: .sha256, kid: "key-a")
            token = try await keys.sign(claims(), kid: "key-a")
        default:
            let keys = await JWTKeyCollection().add(ecdsa: ES256PrivateKey(), kid: "key-a")
            token = try await keys.sign(claims(), kid: "key-a")
        }
        #expect(try await verify(token) == .failure(.unsupportedAlgorithm(algorithm)))
    }

    @Test("garbage, an empty string and three segments of junk are malformed", arguments: ["not a token", "", "abc.def.ghi"])
    func junk(_ token: String) async throws {
        let result = try await verify(token)
        guard case .failure(.malformed) = result else {
            Issue.record("expected malformed, got \(result)")
            return
        }
    }

    @Test("a token over 16 KiB is refused before parsing")
    func tooLong() async throws {
        #expect(try await verify(String(repeating: "a", count: 16 * 1024 + 1)) == .failure(.tooLong))
    }

    private func modulus() throws -> String {
        try #require(key.jwks().keys.first?.modulus)
    }
}
