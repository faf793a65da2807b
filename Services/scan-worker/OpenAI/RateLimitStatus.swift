import Foundation
import NIOHTTP1

/// What OpenAI's `x-ratelimit-*` response headers say about the organisation's limits on a route: how many requests
/// and tokens are left in the current window, and how long until each bucket is full again.
struct RateLimitStatus: Sendable, Hashable {
    var remainingRequests: Int?
    var remainingTokens: Int?
    var requestsResetIn: Duration?
    var tokensResetIn: Duration?

    /// The headers of one response; nil when it carries none (OpenAI-compatible servers need not send them).
    init?(headers: HTTPHeaders) {
        remainingRequests = headers.first(name: "x-ratelimit-remaining-requests").flatMap { Int($0) }
        remainingTokens = headers.first(name: "x-ratelimit-remaining-tokens").flatMap { Int($0) }
        requestsResetIn = headers.first(name: "x-ratelimit-reset-requests").flatMap(Self.duration)
        tokensResetIn = headers.first(name: "x-ratelimit-reset-tokens").flatMap(Self.duration)
        if remainingRequests == nil, remainingTokens == nil { return nil }
    }

    init(remainingRequests: Int?, remainingTokens: Int?, requestsResetIn: Duration?, tokensResetIn: Duration?) {
        self.remainingRequests = remainingRequests
        self.remainingTokens = remainingTokens
        self.requestsResetIn = requestsResetIn
        self.tokensResetIn = tokensResetIn
    }

    /// A Go duration as OpenAI writes them (`12ms`, `1s`, `6m0s`, `1m7.5s`, `2h0m0s`); nil for anything else.
    static func duration(_ text: String) -> Duration? {
        var total = Duration.zero
        var rest = Substring(text.trimmingCharacters(in: .whitespaces))
        guard !rest.isEmpty else { return nil }
        // Nanoseconds per unit, so that whole values come out exact.
        let units: [(String, Double)] = [("ms", 1e6), ("us", 1e3), ("µs", 1e3), ("ns", 1), ("h", 3.6e12), ("m", 6e10), ("s", 1e9)]
        while !rest.isEmpty {
            let number = rest.prefix { $0.isNumber || $0 == "." }
            guard let value = Double(number), value.isFinite else { return nil }
            rest = rest.dropFirst(number.count)
            guard let (unit, nanoseconds) = units.first(where: { rest.hasPrefix($0.0) }) else { return nil }
            rest = rest.dropFirst(unit.count)
            total += .nanoseconds(Int64((value * nanoseconds).rounded()))
        }
        return total
    }
}
