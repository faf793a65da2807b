import Foundation
import JWTKit
import Synchronization
import Testing

@testable import KiwiNotifier

@Suite("The provider token")
struct ProviderTokenTests {
    struct Claims: JWTPayload {
        var iss: IssuerClaim
        var iat: IssuedAtClaim
        func verify(using algorithm: some JWTAlgorithm) throws {}
    }

    let privateKey = ES256PrivateKey()
    var signingKey: APNsSigningKey { APNsSigningKey(key: privateKey, keyID: "ABC123DEFG", teamID: "DEF123GHIJ") }

    /// The token's header and claims, its signature checked with the public key.
    func verified(_ token: String) async throws -> (header: [String: String], claims: Claims) {
        let keys = await JWTKeyCollection().add(ecdsa: privateKey.publicKey, kid: "ABC123DEFG")
        let claims = try await keys.verify(token, as: Claims.self)
        let header = try JSONDecoder().decode([String: String].self, from: try part(0, of: token))
        return (header, claims)
    }

    /// Part `index` of `token`, its base64url decoded.
    func part(_ index: Int, of token: String) throws -> Data {
        let text = token.split(separator: ".")[index].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        return try #require(Data(base64Encoded: text + String(repeating: "=", count: (4 - text.count % 4) % 4)))
    }

    @Test("is an ES256 JWT naming the key and the team, issued in whole seconds")
    func shape() async throws {
        let now = Date(timeIntervalSince1970: 1_800_000_000.75)
        let token = try await ProviderToken(signingKey: signingKey, now: { now }).token()
        let (header, claims) = try await verified(token)
        #expect(header["alg"] == "ES256")
        #expect(header["kid"] == "ABC123DEFG")
        #expect(claims.iss.value == "DEF123GHIJ")
        #expect(claims.iat.value == Date(timeIntervalSince1970: 1_800_000_000))
        #expect(String(decoding: try part(1, of: token), as: UTF8.self).contains(#""iat":1800000000"#))
    }

    @Test("is made once and used for 50 minutes, then made again")
    func lifetime() async throws {
        let clock = Mutex(Date(timeIntervalSince1970: 1_800_000_000))
        let tokens = await ProviderToken(signingKey: signingKey, now: { clock.withLock { $0 } })
        let first = try await tokens.token()
        clock.withLock { $0 += 49 * 60 }
        #expect(try await tokens.token() == first)
        clock.withLock { $0 += 2 * 60 }
        #expect(try await tokens.token() != first)
    }

    @Test("an expired token is replaced once, however many requests saw it expire")
    func replacedOnce() async throws {
        let clock = Mutex(Date(timeIntervalSince1970: 1_800_000_000))
        let tokens = await ProviderToken(signingKey: signingKey, now: { clock.withLock { $0 } })
        let expired = try await tokens.token()
        clock.withLock { $0 += 1 }
        let replacement = try await tokens.token(replacing: expired)
        #expect(replacement != expired)
        #expect(try await tokens.token(replacing: expired) == replacement)
        #expect(try await tokens.token() == replacement)
    }

    @Test("Apple's ids are 10 upper-case letters and digits")
    func identifiers() {
        #expect((try? APNsSigningKey.identifier(parsing: "ABC123DEFG")) == "ABC123DEFG")
        for bad in ["abc123defg", "ABC123DEF", "ABC123DEFGH", "ABC-23DEFG", ""] {
            #expect(throws: (any Error).self) { try APNsSigningKey.identifier(parsing: bad) }
        }
    }

    @Test("the key is the .p8 file's PEM text, a P-256 private key")
    func privateKeyText() throws {
        let pem = privateKey.pemRepresentation
        #expect(try APNsSigningKey.privateKey(parsing: pem + "\n").publicKey.pemRepresentation == privateKey.publicKey.pemRepresentation)
        #expect(throws: (any Error).self) { try APNsSigningKey.privateKey(parsing: "-----BEGIN PRIVATE KEY-----\nnope\n-----END PRIVATE KEY-----") }
    }
}
