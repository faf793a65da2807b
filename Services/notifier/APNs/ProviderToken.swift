import Foundation
import JWTKit

/// The provider token every request to APNs carries (Apple, "Establishing a token-based connection to APNs",
/// https://developer.apple.com/documentation/usernotifications/establishing-a-token-based-connection-to-apns): a JWT
/// signed with ES256, its header naming the key (`kid`) and its claims the team (`iss`) and when it was made (`iat`).
/// Apple refuses one older than an hour (403 `ExpiredProviderToken`) and one made again sooner than every 20 minutes
/// (429 `TooManyProviderTokenUpdates`), so one token serves every request for ``lifetime``, and a new one is made only
/// then, or once when APNs calls the current one expired.
actor ProviderToken {
    /// How long a token is used: well inside Apple's hour, well past its 20 minutes.
    static let lifetime: TimeInterval = 50 * 60

    private struct Claims: JWTPayload {
        var iss: IssuerClaim
        var iat: IssuedAtClaim

        func verify(using algorithm: some JWTAlgorithm) throws {}
    }

    private let keys: JWTKeyCollection
    private let signingKey: APNsSigningKey
    private let now: @Sendable () -> Date
    private var current: (token: String, madeAt: Date)?

    init(signingKey: APNsSigningKey, now: @escaping @Sendable () -> Date = Date.init) async {
        keys = await JWTKeyCollection().add(ecdsa: signingKey.key, kid: JWKIdentifier(string: signingKey.keyID))
        self.signingKey = signingKey
        self.now = now
    }

    /// The token to send now.
    func token() async throws -> String {
        if let current, now().timeIntervalSince(current.madeAt) < Self.lifetime { return current.token }
        return try await make()
    }

    /// A token to send instead of `expired`, which APNs refused as expired: a new one, unless another request has
    /// already replaced it.
    func token(replacing expired: String) async throws -> String {
        if let current, current.token != expired { return current.token }
        return try await make()
    }

    private func make() async throws -> String {
        // Whole seconds: Apple's `iat` is a number of seconds.
        let madeAt = Date(timeIntervalSince1970: now().timeIntervalSince1970.rounded(.down))
        // Apple's header is `alg` and `kid`; jwt-kit adds `typ: JWT`, which a JWT header may always carry.
        let token = try await keys.sign(
            Claims(iss: IssuerClaim(value: signingKey.teamID), iat: IssuedAtClaim(value: madeAt)),
            kid: JWKIdentifier(string: signingKey.keyID)
        )
        current = (token, madeAt)
        return token
    }
}
