import KiwiModels
import KiwiScans

/// What a client watching a scan has not seen of it, in order (``ScanCoordinator/watch(_:of:lastEventID:)``,
/// docs/architecture.md, "Streamed scans"): each step of the scan's path as it is seen — `queued`, `running`, each
/// partial a worker showed, the end — and a ``Element/quiet`` after each ``ScanCoordinator/recheckInterval`` without
/// news. Ends after the final event, or when the scan is gone.
///
/// Partials follow the client's view: a restart withdraws what came before it, so of the partials the client has
/// not seen, those before the last restart among them are skipped; a client that shows no partial yet skips that
/// restart too. A final scan keeps no partials: whatever the client has not seen of them, `result` replaces.
struct ScanSteps: AsyncSequence, Sendable {
    enum Element: Sendable {
        /// An event the client has not seen.
        case event(ScanServerEvent)
        /// No news for a while; the scan goes on.
        case quiet
    }

    private let follower: ScanFollower
    /// The scan as first read.
    private let first: ScanRecord
    /// The id of the last event the client has seen (its `Last-Event-ID`; 0 for none).
    private let seen: Int
    /// What the recipes shown cost the person watching; nil to show them as stored.
    private var costs: AnswerCosts?

    init(following follower: ScanFollower, from first: ScanRecord, after seen: Int) {
        self.follower = follower
        self.first = first
        self.seen = seen
    }

    /// These steps with each recipe, streamed or in the result, costed for the person watching (``AnswerCosts``), at
    /// the prices read when the first recipe shows.
    func costed(by costs: AnswerCosts) -> ScanSteps {
        var costed = self
        costed.costs = costs
        return costed
    }

    /// How many of the scan's partials a client has had once it has seen the events up to `lastEventID`: a partial's
    /// event id is 2 + its number, after `queued` (1) and `running` (2).
    static func partialsSent(upTo lastEventID: Int) -> Int {
        Swift.max(0, lastEventID - 2)
    }

    /// Whether the client has seen every event: the scan is final, and its final event was sent.
    var allSeen: Bool { !first.state.isOpen && seen >= 3 + first.partialCount }

    func makeAsyncIterator() -> Iterator {
        Iterator(follower: follower, unread: first, sent: seen, costs: costs)
    }

    struct Iterator: AsyncIteratorProtocol {
        var follower: ScanFollower
        /// The record first read, until its recipes are costed.
        var unread: ScanRecord?
        /// The record whose events are being sent.
        var scan: ScanRecord?
        /// The id of the last event the client has.
        var sent: Int
        let costs: AnswerCosts?
        /// The prices, once a recipe showed.
        var prices: PriceList?

        init(follower: ScanFollower, unread: ScanRecord, sent: Int, costs: AnswerCosts?) {
            self.follower = follower
            self.unread = unread
            self.sent = sent
            self.costs = costs
        }

        mutating func next() async throws -> Element? {
            while true {
                if let unread {
                    self.unread = nil
                    scan = try await costed(unread)
                }
                if let scan {
                    if let event = nextEvent(of: scan) {
                        sent = event.id
                        return .event(event)
                    }
                    if !scan.state.isOpen { return nil }
                    self.scan = nil
                }
                follower.partialsSeen = ScanSteps.partialsSent(upTo: sent)
                switch try await follower.next(until: nil) {
                case .record(let read)?: scan = try await costed(read)
                case .quiet?: return .quiet
                case .gone?, nil: return nil
                }
            }
        }

        /// `read` with its recipes costed, when the steps are.
        private mutating func costed(_ read: ScanRecord) async throws -> ScanRecord {
            guard let costs, read.answerHasRecipes || read.showsRecipes else { return read }
            if let prices { return read.costed(at: prices) }
            let prices = try await costs.prices(of: read.userID)
            self.prices = prices
            return read.costed(at: prices)
        }

        /// The next event of `scan` the client has not seen; nil when it has seen all that `scan` shows.
        private func nextEvent(of scan: ScanRecord) -> ScanServerEvent? {
            if sent < 1 { return .status(.queued, of: scan) }
            // `running` is reported only when seen: a scan cancelled or failed in the queue never ran.
            if sent < 2 && scan.state == .running { return .status(.running, of: scan) }
            guard scan.state.isOpen else { return sent < 3 + scan.partialCount ? .end(of: scan) : nil }
            let unseen = scan.partials.drop(while: { 2 + $0.seq <= sent })
            guard let restart = unseen.last(where: { $0.partial == .restart }) else { return unseen.first.map { .partial($0, of: scan.id) } }
            guard sent <= 2 else { return .partial(restart, of: scan.id) }
            // Nothing shown, nothing to withdraw: what stands starts after the restart.
            return unseen.first { $0.seq > restart.seq }.map { .partial($0, of: scan.id) }
        }
    }
}
