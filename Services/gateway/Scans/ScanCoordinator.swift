import CoreMetrics
import Crypto
import Foundation
import Hummingbird
import KiwiConcurrency
import KiwiDatabase
import KiwiModels
import KiwiScans
import KiwiServiceSupport
import Logging

/// Starts scans and follows them, for every scan route (docs/architecture.md, "2. The scan data flow"): the quota first (a
/// 429 before the photo is read), then the photo, then the scan reserved in the ledger (atomically, or found again
/// by its `Idempotency-Key`) and its job handed to the workers, who record its outcome. Anyone may then follow the
/// scan's record: woken by news of it (``ScanEventHub``), and looking again every ``recheckInterval`` in case news
/// was lost.
///
/// The routes (`Scans/API/`) call this alone. What it uses lives by role: `Scans/Start/` (the photo, the key, the start
/// slots, the job queue), `Scans/Wait/` (news of scans, a follower, an event stream's steps), `Scans/End/` (the
/// announcer, the sweeper) and `Scans/Ledger/` (the records).
struct ScanCoordinator: Sendable {
    let ledger: any ScanLedger
    /// The table each scan is made for, its person's and the household members' it cooks for, read as it starts.
    let tableProfile: TableProfile
    /// What a pantry scan is started from.
    let pantryScans: PantryScanRequest
    let jobQueue: any ScanJobQueue
    let announcer: any ScanAnnouncer
    let hub: ScanEventHub
    let policy: QuotaPolicy
    let startLimiter: ScanStartLimiter
    let metrics: GatewayMetrics
    /// How long a scan may take (`SCAN_TIMEOUT_SECONDS`): its deadline.
    let timeout: Duration

    /// The errors a scan's start is refused with, counted.
    private var errors: ScanAPIErrors { ScanAPIErrors(policy: policy, metrics: metrics) }

    /// How long a follower waits for news before reading the scan's record again anyway.
    static let recheckInterval = Duration.seconds(10)

    /// A scan a request started, with its follower from before its job was published; or one found again by its
    /// `Idempotency-Key`.
    enum StartedScan: Sendable {
        case new(ScanRecord, ScanFollower)
        case repeated(ScanRecord)

        var scan: ScanRecord {
            switch self {
            case .new(let scan, _), .repeated(let scan): scan
            }
        }
    }

    // MARK: - Start

    /// Reserves a scan for the request's photo and hands its job to the workers; or finds the scan the same
    /// `Idempotency-Key` started. Throws the API's error for a spent allowance (429), a bad photo or key (400/422),
    /// too many scans starting on this gateway (503 with `Retry-After`), a store that is down (503), or a job the
    /// broker would not take (503, and the scan refunded). `showingPartials`: whether the workers show the answer's
    /// elements as they stream; false when the client waits for the result alone (``ScanJob/showsPartials``).
    func start(_ request: Request, showingPartials: Bool, context: GatewayRequestContext) async throws -> StartedScan {
        try await start(request, refusingEarly: true, showingPartials: showingPartials, context: context) {
            ScanInput(try await ImageUpload.read(from: request, context: context))
        }
    }

    /// Starts a refinement of scan `parentID` (docs/architecture.md, "Refinements") from the ingredient names of
    /// `request`, as ``start(_:showingPartials:context:)`` starts a photo scan; or finds the refinement the same `Idempotency-Key`
    /// started. Throws besides 400/422 for a body that is not a list of names, 404 when the parent is not a scan of the
    /// caller, and 409 `scan_not_refinable` when it is open, failed or a dish scan.
    func refine(_ parentID: UUID, _ request: Request, context: GatewayRequestContext) async throws -> StartedScan {
        // No refusal before the body: it is small, and a free refinement meets no scan limit; the reservation decides.
        try await start(request, refusingEarly: false, showingPartials: true, context: context) {
            ScanInput(try await RefinementRequest.read(from: request, refining: parentID))
        }
    }

    /// Starts a scan from the caller's pantry (``PantryScanRequest``), as ``start(_:showingPartials:context:)`` starts a
    /// photo scan; throws besides 409 `pantry_empty` when the pantry has nothing to cook from.
    func startFromPantry(_ request: Request, context: GatewayRequestContext) async throws -> StartedScan {
        let userID = try context.authenticatedSession.userID
        do {
            return try await start(request, refusingEarly: true, showingPartials: true, context: context) {
                try await pantryScans.input(of: request, for: userID)
            }
        } catch is PantryScanRequest.Empty {
            // A retry answers its scan, though the pantry has emptied since.
            if let key = try IdempotencyKey.of(request), let earlier = try await ledger.scan(idempotencyKey: key, of: userID),
                earlier.photoSHA256 == PantryScanRequest.digest
            {
                return .repeated(earlier)
            }
            throw PantryScanRequest.empty
        }
    }

    /// Starts the scan that outlines a plan, or one meal's replacement (docs/architecture.md, "Meal plans"), as a pantry
    /// scan starts, from `input`; `keep` keeps the plan (or ties the scan to the meal) once its scan is reserved and
    /// before its job leaves, so that the worker finds it to write its meals into. A scan whose plan cannot be kept is
    /// freed (503, refunded).
    func startPlan(
        _ request: Request,
        context: GatewayRequestContext,
        input: @Sendable () async throws -> ScanInput,
        keeping keep: @Sendable (ScanRecord) async throws -> Void
    ) async throws -> StartedScan {
        try await start(request, refusingEarly: true, showingPartials: true, context: context, input: input, beforeJob: keep)
    }

    /// Starts the scan that writes a planned meal's recipe (docs/architecture.md, "Meal plans"), free: it is included in
    /// the plan's price, so a spent allowance does not refuse it, though spent tokens or budget do. It cooks for the
    /// whole household, since every member reads the recipe. `keep` ties the scan to its meal before its job leaves, so
    /// that the worker writes the recipe there.
    func startMealRecipe(
        _ request: Request,
        context: GatewayRequestContext,
        input: @Sendable () async throws -> ScanInput,
        keeping keep: @Sendable (ScanRecord) async throws -> Void
    ) async throws -> StartedScan {
        try await start(request, refusingEarly: false, ownRequest: false, showingPartials: true, context: context, input: input, beforeJob: keep)
    }

    /// A scan of `input`, in one of this gateway's start slots. `refusingEarly`: a spent allowance is refused before
    /// `input` is read; `beforeJob` runs once the scan is reserved, before its job leaves. Not `ownRequest`: the
    /// request is not the scan's own (one request may start a scan for each of a plan's meals), so neither its
    /// `Idempotency-Key` nor its `for` is the scan's: it has no key, and cooks for the whole household.
    private func start(
        _ request: Request,
        refusingEarly: Bool,
        ownRequest: Bool = true,
        showingPartials: Bool,
        context: GatewayRequestContext,
        input: @Sendable () async throws -> ScanInput,
        beforeJob: @Sendable (ScanRecord) async throws -> Void = { _ in }
    ) async throws -> StartedScan {
        let session = try context.authenticatedSession
        let idempotencyKey = ownRequest ? try IdempotencyKey.of(request) : nil
        let audience = ownRequest ? try ScanAudience.members(of: request) : nil
        let askedLanguage = request.headers[.acceptLanguage].flatMap(AnswerLanguage.preferred(by:))
        guard
            let started = try await startLimiter.withSlot({
                try await start(
                    of: session,
                    for: audience,
                    askedLanguage: askedLanguage,
                    idempotencyKey: idempotencyKey,
                    refusingEarly: refusingEarly,
                    showingPartials: showingPartials,
                    context: context,
                    input: input,
                    beforeJob: beforeJob
                )
            })
        else { throw ScanAPIErrors.busy }
        return started
    }

    /// ``start(_:refusingEarly:showingPartials:context:input:)`` in its slot, cooking for `audience` (``ScanAudience``),
    /// answering in the profile's language, else in `askedLanguage` (the request's `Accept-Language`), else English.
    private func start(
        of session: AuthenticatedSession,
        for audience: [UUID]?,
        askedLanguage: AnswerLanguage?,
        idempotencyKey: String?,
        refusingEarly: Bool,
        showingPartials: Bool,
        context: GatewayRequestContext,
        input readInput: () async throws -> ScanInput,
        beforeJob: (ScanRecord) async throws -> Void
    ) async throws -> StartedScan {
        let now = Date()
        let started = ContinuousClock.now
        let day = policy.day(of: now)
        // Read while the usage is, so that it costs no extra round trip; a store that is down is a 503 before the upload.
        async let reading = tableProfile.table(of: session.userID, for: audience)
        if refusingEarly, let refusal = policy.refusal(after: try await ledger.usage(of: session.quotaKey, on: day)),
            try await !startedBefore(idempotencyKey, by: session.userID)
        {
            throw errors.refusal(refusal, at: now)
        }
        var table = try await reading
        if let askedLanguage, askedLanguage != .en, table.profile?.language == nil {
            var profile = table.profile ?? KitchenProfile()
            profile.language = askedLanguage
            table.profile = profile
        }
        let uploadStarted = ContinuousClock.now
        let input = try await readInput()
        let uploadTime = ContinuousClock.now - uploadStarted
        let deadline = now.addingTimeInterval(timeout.seconds)
        // A fresh key for its photos, written with the scan: its job is sealed under it.
        let queued = QueuedScan(
            userID: session.userID,
            quotaKey: session.quotaKey,
            day: day,
            idempotencyKey: idempotencyKey,
            photoSHA256: input.digest,
            deadline: deadline,
            refinement: input.refinement,
            free: input.meal != nil,
            mode: input.mode
        )
        let reservation = try await ledger.reserve(queued, policy: policy)
        let scan: ScanRecord
        switch reservation {
        case .refused(let refusal): throw errors.refusal(refusal, at: now)
        case .keyReused: throw IdempotencyKey.reused
        case .noParent: throw ScanAPIErrors.noSuchScan
        case .notRefinable: throw ScanAPIErrors.notRefinable
        case .replay(let earlier):
            context.logger.info("answering a repeated request with its earlier scan", metadata: ["scanId": "\(earlier.id)"])
            return .repeated(earlier)
        case .reserved(let reserved): scan = reserved
        }
        do {
            try await beforeJob(scan)
        } catch {
            context.logger.warning("could not prepare the scan's job", metadata: ["scanId": "\(scan.id)", "error": "\(error)"])
            _ = await fail(scan, .llmUnavailable, releasingKey: true, until: .now + Self.briefRetries, context: context)
            throw error
        }
        let userKey = ScanJob.userKey(forUserID: session.userID.uuidString.lowercased())
        // Its job names this gateway, so the scan's news comes here unasked while a worker may have any.
        hub.started(scan.id, until: scan.deadlineInstant + ScanSweeper.grace)
        // Followed from before its job leaves, so that the follower starts from this record without reading it again.
        let follower = follower(of: scan.id, of: session.userID, for: .outcome, from: scan)
        do {
            try await jobQueue.submit(
                ScanJob(
                    scanID: scan.id,
                    photos: input.photos,
                    mode: input.mode,
                    deadline: deadline,
                    requestID: context.requestID,
                    userKey: userKey,
                    // A receipt is read the same for everyone: only the language its foods are named in goes with it, not the
                    // table's allergies and diets.
                    profile: input.mode == .receipt ? table.profile?.language.map { KitchenProfile(language: $0) } : table.profile,
                    table: input.mode == .receipt ? nil : table.seats,
                    ingredients: input.refinement?.ingredients,
                    pantry: input.pantry,
                    plan: input.plan,
                    meal: input.meal,
                    replacement: input.replacement,
                    showsPartials: showingPartials
                ),
                sealedWith: queued.photoKey
            )
        } catch {
            context.logger.warning("could not hand the scan to the workers", metadata: ["scanId": "\(scan.id)", "error": "\(error)"])
            // A job that never left frees its key, so that the client's retry, on a replica that reaches the broker,
            // starts the scan afresh; one whose fate is unknown may yet reach a worker, and keeps it. A job that could
            // not be sealed (its profile with it) is this gateway's fault, not the workers': 500, refunded.
            let unsealable = error is ScanJobEncodingError
            _ = await fail(scan, .llmUnavailable, releasingKey: unsealable || error is ScanNotSent, until: .now + Self.briefRetries, context: context)
            throw (unsealable ? ScanAPIErrors.unsealable : ScanAPIErrors.apiError(for: ScanFailure(.llmUnavailable, ""))).about(scan)
        }
        metrics.scanStarted(gatewayTime: ContinuousClock.now - started - uploadTime)
        return .new(scan, follower)
    }

    /// Whether `key` names a scan the user already started. Its retry is answered with that scan (its answer, its
    /// 202 or its failure), so the quota that scan counts in never refuses it; any other request meets the quota
    /// before its upload.
    private func startedBefore(_ key: String?, by userID: UUID) async throws -> Bool {
        guard let key else { return false }
        return try await ledger.scan(idempotencyKey: key, of: userID) != nil
    }

    // MARK: - Wait

    /// Follows `started` until it is final or `deadline` passes, waiting for its outcome (``ScanFollower``). Returns the
    /// scan as last read; nil once it is gone (deleted, with its account or by `DELETE /v1/scans/{id}`).
    func follow(_ started: StartedScan, until deadline: ContinuousClock.Instant) async throws -> ScanRecord? {
        var follower: ScanFollower
        switch started {
        case .new(_, let following): follower = following
        case .repeated(let scan): follower = self.follower(of: scan.id, of: scan.userID, for: .outcome)
        }
        while let sighting = try await follower.next(until: deadline) {
            if case .gone = sighting { return nil }
        }
        return follower.last
    }

    /// Scan `id` of `userID` for its event stream: the steps a client that has seen `lastEventID` of them has not, as
    /// they come, until the scan is final. Nil when the user has no such scan.
    func watch(_ id: UUID, of userID: UUID, lastEventID seen: Int) async throws -> ScanSteps? {
        var follower = follower(of: id, of: userID, for: .everyState)
        follower.partialsSeen = ScanSteps.partialsSent(upTo: seen)
        guard case .record(let scan)? = try await follower.next(until: nil) else { return nil }
        return ScanSteps(following: follower, from: scan, after: seen)
    }

    /// A follower of scan `id` of `userID`, its watch registered here: before the record it starts from is read
    /// (`known`, or its own first reading), so that news of the scan after that reading is not missed.
    private func follower(of id: UUID, of userID: UUID, for interest: ScanWatch.Interest, from known: ScanRecord? = nil) -> ScanFollower {
        ScanFollower(id, of: userID, ledger: ledger, registration: hub.register(id, for: interest), known: known)
    }

    /// Scan `id` of user `userID`; nil for another user's, or none.
    func scan(_ id: UUID, of userID: UUID) async throws -> ScanRecord? {
        try await ledger.scan(id, of: userID)
    }

    /// A page of at most `limit` of the user's scans of `modes`, newest first, starting after `cursor`.
    func scans(of userID: UUID, modes: [ScanMode], after cursor: PageCursor?, limit: Int) async throws -> ScanPage {
        try await ledger.scans(of: userID, modes: modes, after: cursor, limit: limit)
    }

    // MARK: - End

    /// Cancels a scan no worker has started, and tells every replica; or deletes a final one (``ScanDeletion``).
    func delete(_ id: UUID, of session: AuthenticatedSession) async throws -> ScanDeletion {
        let deletion = try await ledger.delete(id, of: session.userID, quotaKey: session.quotaKey)
        if deletion == .cancelled { await announcer.announce(ScanEvent(scanID: id, state: .failed)) }
        return deletion
    }

    /// How long a request tries to record a failure the client is waiting to be told (a job the broker refused).
    static let briefRetries = Duration.seconds(1)

    /// Fails an open scan with `code`, trying again on ``RetrySchedule/storeOutage`` until `giveUp`, and tells every
    /// replica. Returns the scan as it is then: when it was final already (a worker answered just in time), that
    /// outcome stands. Nil if every try failed: the scan stays open and the sweeper fails it after its deadline and
    /// grace, so it is refunded all the same. `releasingKey`: the scan's job never left, so its idempotency key is
    /// freed too (``ScanLedger/release(_:code:)``).
    func fail(
        _ scan: ScanRecord,
        _ code: ScanFailure.Code,
        releasingKey: Bool = false,
        until giveUp: ContinuousClock.Instant,
        context: GatewayRequestContext
    ) async -> ScanRecord? {
        do {
            return try await retrying(.storeOutage, until: giveUp) {
                do {
                    if try await releasingKey ? ledger.release(scan.id, code: code) : ledger.fail(scan.id, code: code) {
                        context.logger.info("scan refunded", metadata: ["scanId": "\(scan.id)", "reason": .string(code.rawValue)])
                        metrics.refunded(true)
                        await announcer.announce(ScanEvent(scanID: scan.id, state: .failed))
                        return ScanRecord(copying: scan, state: .failed, errorCode: code)
                    }
                    return try await ledger.scan(scan.id, of: scan.userID) ?? scan
                } catch {
                    context.logger.warning("could not record a scan's failure yet", metadata: ["scanId": "\(scan.id)", "error": "\(error)"])
                    throw error
                }
            }
        } catch {
            context.logger.error("gave up recording a scan's failure; the sweeper will fail it", metadata: ["scanId": "\(scan.id)"])
            metrics.refunded(false)
            return nil
        }
    }
}
