import Foundation
import JWTKit
import Logging

/// Apple's signing keys, cached. A token signed with a key not in the cache triggers a refresh, but at most
/// one per `minimumRefreshInterval`, so a storm of tokens with made-up key ids cannot hammer Apple (or us);
/// concurrent requests for a refresh share one fetch.
public actor AppleSigningKeys {
    private let source: any JWKSSource
    private let minimumRefreshInterval: Duration
    private let logger: Logger
    private let clock = ContinuousClock()
    private var keys: JWTKeyCollection?
    private var keyIDs: Set<String> = []
    private var lastFetch: ContinuousClock.Instant?
    private var fetching: Task<Void, Never>?
    private var lastFailure: String?

    public init(source: any JWKSSource, minimumRefreshInterval: Duration = .seconds(60), logger: Logger) {
        self.source = source
        self.minimumRefreshInterval = minimumRefreshInterval
        self.logger = logger
    }

    /// How many times the source was asked for keys; lets tests see that refreshes are throttled.
    public private(set) var fetchCount = 0

    /// Keys that include `keyID`, refreshing the cache first when it does not (and a refresh is allowed).
    func keys(including keyID: String) async throws(AppleTokenError) -> JWTKeyCollection {
        if let keys, keyIDs.contains(keyID) { return keys }
        await refreshIfAllowed()
        guard let keys else { throw .keysUnavailable(lastFailure ?? "no keys fetched yet") }
        guard keyIDs.contains(keyID) else { throw .unknownKey(keyID) }
        return keys
    }

    private func refreshIfAllowed() async {
        if let fetching { return await fetching.value }
        if let lastFetch, clock.now - lastFetch < minimumRefreshInterval { return }
        lastFetch = clock.now
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
            let collection = JWTKeyCollection()
            try await collection.add(jwks: JWKS(keys: rsaKeys))
            keys = collection
            keyIDs = Set(rsaKeys.compactMap { $0.keyIdentifier?.string })
            lastFailure = nil
            logger.info("fetched Apple's signing keys", metadata: ["keyIDs": "\(keyIDs.sorted())"])
        } catch {
            lastFailure = "\(error)"
            logger.warning("cannot fetch Apple's signing keys", metadata: ["error": "\(error)"])
        }
    }
}
