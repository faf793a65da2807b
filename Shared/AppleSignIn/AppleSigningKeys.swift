import CoreMetrics
import Foundation
import JWTKit
import Logging

/// Apple's signing keys, cached.
///
/// A token signed with a key not in the cache triggers a refresh, but at most one per
/// `minimumRefreshInterval`, so a storm of tokens with made-up key ids cannot hammer Apple; concurrent requests
/// for a refresh share one fetch. After a failed fetch the next attempt may come sooner (`retryAfterFailure`),
/// and while fetches fail, a key the cache does not know means "cannot judge" (503), not "invalid" (401) —
/// Apple may have rotated its keys during the outage. A cache older than `maximumAge` is refreshed too, so
/// keys Apple withdrew stop being trusted. A fetch that yields no usable key never replaces a good cache.
///
/// Metrics: `kiwi_auth_jwks_fetches_total{result="ok|failed"}`, `kiwi_auth_jwks_fetched_timestamp_seconds` (Unix time
/// of the last good fetch) and `kiwi_auth_jwks_max_age_seconds` (`maximumAge`): fetches failing while the cache nears
/// its maximum age mean sign-ins break at Apple's next key rotation.
public actor AppleSigningKeys {
    private let source: any JWKSSource
    private let minimumRefreshInterval: Duration
    private let retryAfterFailure: Duration
    private let maximumAge: Duration
    private let logger: Logger
    private let clock = ContinuousClock()
    private var keys: JWTKeyCollection?
    private var keyIDs: Set<String> = []
    private var fetchedAt: ContinuousClock.Instant?
    private var lastAttempt: ContinuousClock.Instant?
    private var lastFailure: String?
    private var fetching: Task<Void, Never>?

    public init(
        source: any JWKSSource,
        minimumRefreshInterval: Duration = .seconds(60),
        retryAfterFailure: Duration = .seconds(5),
        maximumAge: Duration = .seconds(24 * 3600),
        logger: Logger
    ) {
        self.source = source
        self.minimumRefreshInterval = minimumRefreshInterval
        self.retryAfterFailure = retryAfterFailure
        self.maximumAge = maximumAge
        self.logger = logger
        Gauge(label: "kiwi_auth_jwks_max_age_seconds").record(maximumAge / .seconds(1))
    }

    /// How many times the source was asked for keys; lets tests see that refreshes are throttled.
    public private(set) var fetchCount = 0

    /// Keys that include `keyID`, refreshing the cache first when it does not (and a refresh is allowed).
    func keys(including keyID: String) async throws(AppleTokenError) -> JWTKeyCollection {
        let stale = fetchedAt.map { clock.now - $0 > maximumAge } ?? true
        if let keys, keyIDs.contains(keyID), !stale { return keys }
        await refreshIfAllowed()
        if let keys, keyIDs.contains(keyID) { return keys }
        if let lastFailure { throw .keysUnavailable(lastFailure) }
        throw .unknownKey(keyID)
    }

    private func refreshIfAllowed() async {
        if let fetching { return await fetching.value }
        if let lastAttempt, clock.now - lastAttempt < (lastFailure == nil ? minimumRefreshInterval : retryAfterFailure) { return }
        lastAttempt = clock.now
        let task = Task { await self.refresh() }
        fetching = task
        await task.value
        fetching = nil
    }

    private func refresh() async {
        fetchCount += 1
        do {
            let jwks = try await source.fetchKeys()
            let rsaKeys = jwks.keys.filter { $0.keyType == .rsa && $0.keyIdentifier != nil }
            guard !rsaKeys.isEmpty else { throw JWKSFetchError("the key set holds no RSA key with a key id") }
            let collection = JWTKeyCollection()
            try await collection.add(jwks: JWKS(keys: rsaKeys))
            keys = collection
            keyIDs = Set(rsaKeys.compactMap { $0.keyIdentifier?.string })
            fetchedAt = clock.now
            lastFailure = nil
            Counter(label: "kiwi_auth_jwks_fetches_total", dimensions: [("result", "ok")]).increment()
            Gauge(label: "kiwi_auth_jwks_fetched_timestamp_seconds").record(Date().timeIntervalSince1970)
            logger.info("fetched Apple's signing keys", metadata: ["keyIDs": "\(keyIDs.sorted())"])
        } catch {
            lastFailure = "\(error)"
            Counter(label: "kiwi_auth_jwks_fetches_total", dimensions: [("result", "failed")]).increment()
            logger.warning("cannot fetch Apple's signing keys", metadata: ["error": "\(error)"])
        }
    }
}
