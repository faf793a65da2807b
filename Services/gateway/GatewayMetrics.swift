import CoreMetrics

/// What the gateway counts beyond HTTP requests: scans by outcome and in flight, quota rejections and refunds,
/// and how often the session cache spared a call to the auth service.
struct GatewayMetrics: Sendable {
    /// `kiwi_gateway_scans_in_flight`: scans reserved and waiting for their result.
    let scansInFlight = Meter(label: "kiwi_gateway_scans_in_flight")
    /// `kiwi_gateway_quota_rejections_total`: scans refused with 429 because the day's scans were used up.
    let quotaRejections = Counter(label: "kiwi_gateway_quota_rejections_total")
    /// `kiwi_gateway_scans_swept_total`: open scans failed (and refunded) by the sweeper because their gateway never
    /// recorded an outcome.
    let sweptScans = Counter(label: "kiwi_gateway_scans_swept_total")
    private let refunds = Counter(label: "kiwi_gateway_quota_refunds_total", dimensions: [("result", "ok")])
    private let failedRefunds = Counter(label: "kiwi_gateway_quota_refunds_total", dimensions: [("result", "failed")])
    private let cacheHits = Counter(label: "kiwi_gateway_session_cache_total", dimensions: [("result", "hit")])
    private let cacheMisses = Counter(label: "kiwi_gateway_session_cache_total", dimensions: [("result", "miss")])

    /// `kiwi_gateway_scans_total{outcome}`: `ok`, or the API error code the client got.
    func scanEnded(_ outcome: String) {
        Counter(label: "kiwi_gateway_scans_total", dimensions: [("outcome", outcome)]).increment()
    }

    /// `kiwi_gateway_quota_refunds_total{result="ok|failed"}`: scans given back after a failure.
    func refunded(_ succeeded: Bool) {
        (succeeded ? refunds : failedRefunds).increment()
    }

    /// `kiwi_gateway_session_cache_total{result="hit|miss"}`: a miss asks the auth service.
    func sessionLookedUp(cached: Bool) {
        (cached ? cacheHits : cacheMisses).increment()
    }
}
