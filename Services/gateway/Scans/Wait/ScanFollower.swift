import Foundation
import KiwiConcurrency
import KiwiDatabase
import KiwiScans

/// One follower's sight of a scan (``ScanCoordinator``): its record each time it is read, read again when news of the
/// scan comes (``ScanWatch``) and every ``ScanCoordinator/recheckInterval`` in case news was lost. Its watch was
/// registered before the record it starts from was read, and the news of a scan another gateway started asked for
/// before the record was read again (``ScanWatchRegistration/listen()``), so no news after that reading is missed.
///
/// A store out of reach does not end the following, since the scan goes on without it: the record is read again after
/// each wait of ``RetrySchedule/storeOutage``, or at once on news of the scan, until the following's deadline
/// (without one, the scan's own deadline and the sweeper's grace); the following ends then with the record last read,
/// or throws the store's error if none was.
struct ScanFollower: Sendable {
    /// What the follower sees next.
    enum Sighting: Sendable {
        /// The scan's record, as just read or as known when the following began.
        case record(ScanRecord)
        /// A ``ScanCoordinator/recheckInterval`` passed without news; the record is read again next.
        case quiet
        /// The scan is gone: deleted, with its account or by `DELETE /v1/scans/{id}`.
        case gone
    }

    let id: UUID
    let userID: UUID
    private let ledger: any ScanLedger
    private let registration: ScanWatchRegistration
    /// The record the following starts from without reading it, if it has one.
    private var unread: ScanRecord?
    /// The record as last seen; nil before the first.
    private(set) var last: ScanRecord?
    /// How many of the scan's partials the reader has: a reading leaves them out (``ScanLedger/scan(_:of:partialsAfter:)``).
    var partialsSeen = 0
    private var outageWaits = RetrySchedule.storeOutage.waits()
    /// Whether the record last seen is open, so that news comes before the next reading.
    private var awaitingNews = false
    private var ended = false

    /// Follows scan `id` of `userID` from `known`, its record as read after `registration` (nil: read it first).
    init(_ id: UUID, of userID: UUID, ledger: any ScanLedger, registration: ScanWatchRegistration, known: ScanRecord?) {
        self.id = id
        self.userID = userID
        self.ledger = ledger
        self.registration = registration
        self.unread = known
    }

    /// What the follower sees next; nil once the following has ended: after the scan was seen final or gone, once
    /// `deadline` passed (never, without one), or once the store stayed out of reach. The record is read again on the
    /// news its watch's ``ScanWatch/Interest`` asks for.
    mutating func next(until deadline: ContinuousClock.Instant?) async throws -> Sighting? {
        while !ended {
            if awaitingNews {
                let now = ContinuousClock.now
                if let deadline, now >= deadline { return end() }
                let wait = deadline.map { min(ScanCoordinator.recheckInterval, $0 - now) } ?? ScanCoordinator.recheckInterval
                let heard = await registration.watch.next(within: wait)
                try Task.checkCancellation()
                awaitingNews = false
                if !heard { return .quiet }
                continue
            }
            if let known = unread {
                unread = nil
                return seen(known)
            }
            do {
                guard let read = try await ledger.scan(id, of: userID, partialsAfter: partialsSeen) else {
                    ended = true
                    return .gone
                }
                outageWaits = RetrySchedule.storeOutage.waits()
                // An open scan another gateway started: its news is asked for now, and the row read again, so that news
                // sent before the asking took effect is in the reading. A final or missing scan asks for nothing.
                if read.state.isOpen, await registration.listen() { continue }
                return seen(read)
            } catch let error where DatabaseFailure(error) == .outage {
                let wait = outageWaits.next()
                guard let giveUp = deadline ?? last.map({ $0.deadlineInstant + ScanSweeper.grace }), .now + wait < giveUp else {
                    if last != nil { return end() }
                    throw error
                }
                _ = await registration.watch.next(within: wait)
                try Task.checkCancellation()
            }
        }
        return nil
    }

    private mutating func seen(_ record: ScanRecord) -> Sighting {
        last = record
        if record.state.isOpen { awaitingNews = true } else { ended = true }
        return .record(record)
    }

    private mutating func end() -> Sighting? {
        ended = true
        return nil
    }
}
