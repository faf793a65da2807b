import CoreMetrics
import Foundation
import KiwiConcurrency
import KiwiScans
import KiwiServiceSupport
import Logging

/// What the gateway counts beyond HTTP requests: scans by outcome and in flight, quota rejections and refunds,
/// and how often the session cache spared a call to the auth service.
struct GatewayMetrics: Sendable {
    /// `kiwi_gateway_scans_in_flight`: scans reserved and waiting for their result.
    let scansInFlight = Meter(label: "kiwi_gateway_scans_in_flight")
    /// `kiwi_gateway_quota_rejections_total`: scans refused with 429 because the day's scans were used up.
    let quotaRejections = Counter(label: "kiwi_gateway_quota_rejections_total")
    /// `kiwi_gateway_budget_rejections_total`: scans refused with 503 because everyone's scans spent the day's budget.
    let budgetRejections = Counter(label: "kiwi_gateway_budget_rejections_total")
    /// `kiwi_gateway_scans_swept_total`: open scans failed (and refunded) by the sweeper because nobody recorded an
    /// outcome by their deadline and its grace.
    let sweptScans = Counter(label: "kiwi_gateway_scans_swept_total")
    /// `kiwi_gateway_scan_news_requests_total`: watches here of a scan another gateway started, each of which bound this
    /// gateway's subscription to that scan's news (``ScanNewsBindings``).
    let scanNewsRequests = Counter(label: "kiwi_gateway_scan_news_requests_total")
    private let refunds = Counter(label: "kiwi_gateway_quota_refunds_total", dimensions: [("result", "ok")])
    private let failedRefunds = Counter(label: "kiwi_gateway_quota_refunds_total", dimensions: [("result", "failed")])
    private let cacheHits = Counter(label: "kiwi_gateway_session_cache_total", dimensions: [("result", "hit")])
    private let cacheMisses = Counter(label: "kiwi_gateway_session_cache_total", dimensions: [("result", "miss")])
    private let sharedIntrospections = Counter(label: "kiwi_gateway_session_cache_total", dimensions: [("result", "shared")])
    private let scanStartTime = Timer(label: "kiwi_gateway_scan_start_seconds")
    private let eventDelay = Timer(label: "kiwi_scan_event_delay_seconds")
    private let sweeps = Counter(label: "kiwi_gateway_sweeps_total", dimensions: [("result", "ok")])
    private let failedSweeps = Counter(label: "kiwi_gateway_sweeps_total", dimensions: [("result", "failed")])
    private let pantrySize = Recorder(label: "kiwi_gateway_pantry_items")
    private let pantryItemsAdded = Counter(label: "kiwi_gateway_pantry_items_added_total")
    private let shoppingListAdds = Counter(label: "kiwi_gateway_shopping_list_items_added_total")

    /// `kiwi_gateway_scans_total{outcome}`: `ok`, or the API error code the client got.
    func scanEnded(_ outcome: String) {
        Counter(label: "kiwi_gateway_scans_total", dimensions: [("outcome", outcome)]).increment()
    }

    /// `kiwi_gateway_scan_start_seconds`: the gateway's own time to start a scan — quota check, reservation and the
    /// broker's confirm of its job — without the photo's upload, which runs at the client's pace. The gateway-added
    /// latency SLO of docs/operations.md is measured on it.
    func scanStarted(gatewayTime: Duration) {
        scanStartTime.recordNanoseconds(gatewayTime.nanoseconds)
    }

    /// `kiwi_scan_event_delay_seconds`: for each partial event (`ingredients`, `recipe`, `restart`) a stream writes
    /// live, the time from the worker's append being accepted (the database's clock) to the event's write: the
    /// gateway-added delay per event (the news through the broker, the record read, the write), which the bench
    /// reports against its goal of 20 ms p99. Partials a reconnecting client is sent again are not counted.
    func partialEventWritten(acceptedAt: Date) {
        eventDelay.recordSeconds(max(0, Date().timeIntervalSince(acceptedAt)))
    }

    /// `kiwi_gateway_sweeps_total{result="ok|failed"}`: rounds of the sweeper; a failed one could not reach the
    /// ledger, so overdue scans stay open (and charged) until a later round succeeds.
    func swept(_ succeeded: Bool) {
        (succeeded ? sweeps : failedSweeps).increment()
    }

    /// `kiwi_gateway_quota_refunds_total{result="ok|failed"}`: scans given back after a failure.
    func refunded(_ succeeded: Bool) {
        (succeeded ? refunds : failedRefunds).increment()
    }

    /// `kiwi_gateway_scans_watched`: scans this replica's requests and event streams are waiting for.
    let watchedScans = Gauge(label: "kiwi_gateway_scans_watched")

    /// `kiwi_scans{state}`: the scans the ledger holds `queued` and `running` (every replica reports the same numbers), and
    /// `kiwi_scans_queue_age_seconds`: how long the oldest scan still `queued` has waited for a worker (0 when none).
    /// Read from the ledger every 15 seconds, with this replica's `kiwi_gateway_scans_watched`.
    func ledgerGauges(ledger: any ScanLedger, hub: ScanEventHub, logger: Logger) -> PeriodicTask {
        let queueAge = Gauge(label: "kiwi_scans_queue_age_seconds")
        return PeriodicTask("report scans by state", every: .seconds(15), logger: logger) {
            watchedScans.record(hub.watchedScans)
            // Both read before either is recorded, so that a scrape does not see new counts with an old queue age.
            let counts = try await ledger.countOpenByState()
            let oldest = try await ledger.oldestQueued()
            for state in ScanState.allCases where state.isOpen {
                Gauge(label: "kiwi_scans", dimensions: [("state", state.rawValue)]).record(counts[state] ?? 0)
            }
            queueAge.record(oldest.map { max(0, Date().timeIntervalSince($0)) } ?? 0)
        }
    }

    /// `kiwi_gateway_pantry_items`: a histogram of how many items a pantry holds after each add; and
    /// `kiwi_gateway_pantry_items_added_total`: items new to a pantry (those an add found again are not counted).
    func pantryAdded(newItems: Int, holding count: Int) {
        pantryItemsAdded.increment(by: newItems)
        pantrySize.record(count)
    }

    /// `kiwi_gateway_shopping_list_items_added_total`: items new to a shopping list (those an add found again are not
    /// counted).
    func shoppingListAdded(newItems: Int) {
        shoppingListAdds.increment(by: newItems)
    }

    /// `kiwi_gateway_session_cache_total{result="hit|miss|shared"}`: a miss asks the auth service; a shared lookup
    /// waited for the answer to another request's.
    func sessionLookedUp(_ lookup: SessionLookup) {
        switch lookup {
        case .cached: cacheHits.increment()
        case .asked: cacheMisses.increment()
        case .shared: sharedIntrospections.increment()
        }
    }
}
