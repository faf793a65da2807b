import Foundation
import JWTKit
import KiwiAppleSignIn
import KiwiDevelopment
import Logging
import Testing

@Suite("Apple's signing keys")
struct AppleSigningKeysTests {
    let logger = Logger(label: "test.apple-keys")

    func verifier(_ keys: AppleSigningKeys) -> AppleIdentityTokenVerifier {
        AppleIdentityTokenVerifier(keys: keys, audiences: ["app.kiwi.ios"])
    }

    func token(_ key: DevelopmentAppleKey) async throws -> String {
        try await key.mint(AppleIdentityClaims(audience: "app.kiwi.ios", expires: Date() + 600, issuedAt: Date(), subject: "s-1"))
    }

    @Test("a rotated-in key is fetched once, then accepted")
    func rotation() async throws {
        let old = try DevelopmentAppleKey.generate(keyID: "old")
        let new = try DevelopmentAppleKey.generate(keyID: "new")
        let server = JWKSServer(try old.jwks())
        try await server.serving { url in
            let keys = AppleSigningKeys(source: HTTPJWKSSource(url: url), minimumRefreshInterval: .milliseconds(200), logger: logger)
            _ = try await verifier(keys).verify(try await token(old))
            server.publish(JWKS(keys: try old.jwks().keys + new.jwks().keys))
            try await Task.sleep(for: .milliseconds(250))
            _ = try await verifier(keys).verify(try await token(new))
            _ = try await verifier(keys).verify(try await token(new))
            #expect(await keys.fetchCount == 2)
            #expect(server.requests == 2)
        }
    }

    @Test("a storm of tokens with unknown key ids causes at most one refresh")
    func unknownKeyStorm() async throws {
        let known = try DevelopmentAppleKey.generate(keyID: "known")
        let server = JWKSServer(try known.jwks())
        try await server.serving { url in
            let keys = AppleSigningKeys(source: HTTPJWKSSource(url: url), logger: logger)
            _ = try await verifier(keys).verify(try await token(known))
            // One key under 50 unknown ids: generating 50 RSA keys would hold the test run's threads for seconds.
            let stranger = try DevelopmentAppleKey.generate(keyID: "stranger")
            let strangers = try (0..<50).map { try DevelopmentAppleKey(pem: stranger.pemRepresentation, keyID: "stranger-\($0)") }
            try await withThrowingDiscardingTaskGroup { group in
                for stranger in strangers {
                    let forged = try await token(stranger)
                    group.addTask {
                        await #expect(throws: AppleTokenError.unknownKey(stranger.keyID)) { try await verifier(keys).verify(forged) }
                    }
                }
            }
            #expect(server.requests <= 2)
        }
    }

    @Test("with Apple's keys unreachable and none cached, tokens cannot be judged")
    func keysUnavailable() async throws {
        let key = try DevelopmentAppleKey.generate()
        let keys = AppleSigningKeys(source: HTTPJWKSSource(url: URL(string: "http://127.0.0.1:1/auth/keys")!), logger: logger)
        await #expect {
            try await verifier(keys).verify(try await token(key))
        } throws: { error in
            if case AppleTokenError.keysUnavailable = error { true } else { false }
        }
    }

    @Test("while Apple's keys cannot be fetched, a key the cache does not know means unavailable, not invalid")
    func outageDuringRotation() async throws {
        let old = try DevelopmentAppleKey.generate(keyID: "old")
        let rotated = try DevelopmentAppleKey.generate(keyID: "rotated")
        let server = JWKSServer(try old.jwks())
        try await server.serving { url in
            let keys = AppleSigningKeys(source: HTTPJWKSSource(url: url), minimumRefreshInterval: .milliseconds(100), logger: logger)
            _ = try await verifier(keys).verify(try await token(old))
            server.setFailing(true)
            try await Task.sleep(for: .milliseconds(150))
            await #expect {
                try await verifier(keys).verify(try await token(rotated))
            } throws: { error in
                if case AppleTokenError.keysUnavailable = error { true } else { false }
            }
            // Keys already cached keep working during the outage.
            _ = try await verifier(keys).verify(try await token(old))
        }
    }

    @Test("a key server that takes the request and never answers is given up after the fetch timeout: unavailable, not hung", .timeLimit(.minutes(1)))
    func frozenKeyServer() async throws {
        let old = try DevelopmentAppleKey.generate(keyID: "old")
        let rotated = try DevelopmentAppleKey.generate(keyID: "rotated")
        let server = JWKSServer(try old.jwks())
        try await server.serving { url in
            let keys = AppleSigningKeys(
                source: HTTPJWKSSource(url: url, timeout: .seconds(1)),
                minimumRefreshInterval: .milliseconds(100),
                retryAfterFailure: .milliseconds(100),
                logger: logger
            )
            // The first fetch, on a machine the whole suite keeps busy, may itself take longer than the timeout.
            var cached = false
            for _ in 1...10 where !cached {
                cached = (try? await verifier(keys).verify(try await token(old))) != nil
                if !cached { try await Task.sleep(for: .milliseconds(200)) }
            }
            try #require(cached)
            let asked = server.requests
            server.setFrozen(true)
            try await Task.sleep(for: .milliseconds(150))
            await #expect {
                try await verifier(keys).verify(try await token(rotated))
            } throws: { error in
                if case AppleTokenError.keysUnavailable = error { true } else { false }
            }
            #expect(server.requests == asked + 1)
            // Keys already cached keep working while the server hangs.
            _ = try await verifier(keys).verify(try await token(old))
        }
    }

    @Test("a key set without any usable key never replaces a good cache")
    func emptyKeySetKeepsCache() async throws {
        let key = try DevelopmentAppleKey.generate(keyID: "kept")
        let server = JWKSServer(try key.jwks())
        try await server.serving { url in
            let keys = AppleSigningKeys(source: HTTPJWKSSource(url: url), minimumRefreshInterval: .milliseconds(100), logger: logger)
            _ = try await verifier(keys).verify(try await token(key))
            server.publish(JWKS(keys: []))
            try await Task.sleep(for: .milliseconds(150))
            let stranger = try DevelopmentAppleKey.generate(keyID: "stranger")
            await #expect(throws: AppleTokenError.self) { try await verifier(keys).verify(try await token(stranger)) }
            #expect(server.requests == 2, "the empty key set was never fetched")
            #expect(try await verifier(keys).verify(try await token(key)).subject == "s-1")
        }
    }

    @Test("after a failed fetch, sign-in recovers soon after Apple does")
    func recoversAfterFailure() async throws {
        let key = try DevelopmentAppleKey.generate(keyID: "back")
        let server = JWKSServer(try key.jwks())
        server.setFailing(true)
        try await server.serving { url in
            let keys = AppleSigningKeys(source: HTTPJWKSSource(url: url), retryAfterFailure: .milliseconds(100), logger: logger)
            await #expect(throws: AppleTokenError.self) { try await verifier(keys).verify(try await token(key)) }
            server.setFailing(false)
            try await Task.sleep(for: .milliseconds(150))
            #expect(try await verifier(keys).verify(try await token(key)).subject == "s-1")
        }
    }

    @Test("a development key set read from a file verifies tokens of that key")
    func fileSource() async throws {
        let key = try DevelopmentAppleKey.generate()
        let file = FileManager.default.temporaryDirectory.appending(path: "jwks-\(UUID().uuidString).json")
        try JSONEncoder().encode(try key.jwks()).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let keys = AppleSigningKeys(source: FileJWKSSource(path: file.path), logger: logger)
        #expect(try await verifier(keys).verify(try await token(key)).subject == "s-1")
    }
}
