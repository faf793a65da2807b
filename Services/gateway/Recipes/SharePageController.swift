import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import KiwiConcurrency
import KiwiModels
import KiwiServiceSupport
import NIOCore
import Synchronization

/// The public pages of shared recipes, `GET /r/{token}`, scaled by `?servings=&units=` as ``RecipeScaling`` reads
/// them: no sign-in, read-only, a page per request read from the database (so an unshared or deleted recipe is gone at
/// once, on every gateway), limited per client address, and cacheable only with revalidation (`ETag`,
/// `Cache-Control: no-cache`) for the same reason.
struct SharePageController: Sendable {
    let recipes: any SavedRecipeStore
    let limiter: ClientRateLimiter

    func addRoutes(to router: Router<GatewayRequestContext>) {
        router.get("r/:token", use: page)
    }

    /// A new share token: 256 random bits, base64url (43 characters).
    static func newToken() -> String {
        Data.random(count: 32).base64URLEncodedString
    }

    @Sendable func page(request: Request, context: GatewayRequestContext) async throws -> Response {
        try limiter.admit(context.remoteAddress ?? "unknown") { _ in
            "Too many recipe pages opened from this address; please try again in a moment."
        }
        let scaling = try RecipeScaling(request)
        guard let token = context.parameters.get("token"), token.utf8.count == 43,
            var shared = try await recipes.sharedRecipe(token)
        else {
            throw APIError(.notFound, .notFound, "There is no such recipe page; its link may have been withdrawn.")
        }
        shared.recipe = try scaling.apply(to: shared.recipe)
        let html = Data(try RecipeSharePage.html(shared).utf8)
        return .cacheable(
            ByteBuffer(bytes: html),
            contentType: "text/html; charset=utf-8",
            entityTag: "\"" + SHA256.hash(data: html).prefix(16).hexEncodedString + "\"",
            headers: [
                .cacheControl: "public, no-cache",
                .contentSecurityPolicy: RecipeSharePage.contentSecurityPolicy,
                .xContentTypeOptions: "nosniff",
                .referrerPolicy: "no-referrer",
            ],
            for: request
        )
    }
}

/// How many requests one client may make: `burst` at once, then `perSecond`.
struct RateLimit: Sendable, Hashable {
    var burst: Int
    var perSecond: Double
}

/// A token bucket per client address, in this process (each gateway replica limits on its own). Buckets of clients
/// that have been quiet long enough to be full again are dropped, so the table stays as small as the active clients.
final class ClientRateLimiter: Sendable {
    private struct Bucket {
        var tokens: Double
        var updated: ContinuousClock.Instant
    }

    private struct Table {
        var buckets: [String: Bucket] = [:]
        /// The size at which full buckets are next dropped: at least twice what the last sweep kept, so that many
        /// active clients do not make every request sweep the whole table.
        var sweepAt = ClientRateLimiter.smallestSweep
    }

    private static let smallestSweep = 10_000

    let limit: RateLimit
    private let table = Mutex(Table())

    init(_ limit: RateLimit) {
        self.limit = limit
    }

    /// Takes one request of `client`'s allowance, or throws 429 `rate_limit_exceeded` with `Retry-After` and the
    /// sentence `refusal` makes of the seconds to wait.
    func admit(_ client: String, refusing refusal: (_ wait: Int) -> String) throws {
        guard let wait = take(for: client) else { return }
        throw APIError(.tooManyRequests, .rateLimitExceeded, refusal(wait), headers: [.retryAfter: String(wait)])
    }

    /// Takes one request of `client`'s allowance: nil when it may go ahead, else the seconds until it may.
    func take(for client: String, at now: ContinuousClock.Instant = .now) -> Int? {
        table.withLock { table in
            if table.buckets.count > table.sweepAt {
                table.buckets = table.buckets.filter { self.refilled($0.value, at: now) < Double(limit.burst) }
                table.sweepAt = max(Self.smallestSweep, 2 * table.buckets.count)
            }
            var bucket =
                table.buckets[client].map { Bucket(tokens: refilled($0, at: now), updated: now) }
                ?? Bucket(tokens: Double(limit.burst), updated: now)
            guard bucket.tokens >= 1 else {
                table.buckets[client] = bucket
                return max(1, Int(((1 - bucket.tokens) / limit.perSecond).rounded(.up)))
            }
            bucket.tokens -= 1
            table.buckets[client] = bucket
            return nil
        }
    }

    private func refilled(_ bucket: Bucket, at now: ContinuousClock.Instant) -> Double {
        min(Double(limit.burst), bucket.tokens + (now - bucket.updated).seconds * limit.perSecond)
    }
}

extension HTTPField.Name {
    static let xContentTypeOptions = Self("X-Content-Type-Options")!
    static let referrerPolicy = Self("Referrer-Policy")!
}
