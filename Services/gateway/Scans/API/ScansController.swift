import CoreMetrics
import Foundation
import HTTPTypes
import Hummingbird
import KiwiDatabase
import KiwiModels
import KiwiScans
import KiwiServiceSupport
import Logging
import NIOCore

/// The scan as a resource (docs/architecture.md, "Scans as resources"): `POST /v1/scans` starts one and answers at once
/// (202) or, with `Prefer: wait=N`, once it is final within N seconds; `GET /v1/scans/{id}` shows it,
/// `GET /v1/scans/{id}/events` streams its progress, `GET /v1/scans` lists the user's scans,
/// `DELETE /v1/scans/{id}` cancels or deletes one, and `POST /v1/scans/{id}/refinements` starts a scan from one's
/// confirmed ingredients. Another user's scan is 404, like one that never was.
struct ScansController: Sendable {
    let scans: ScanCoordinator
    let costs: AnswerCosts

    /// The longest `Prefer: wait` honoured, in seconds.
    static let longestWait = 60

    func addRoutes(to group: RouterGroup<GatewayRequestContext>) {
        group.post("scans", use: create)
        group.get("scans", use: list)
        group.get("scans/:id", use: show)
        group.delete("scans/:id", use: delete)
        group.get("scans/:id/events", use: events)
        group.post("scans/:id/refinements", use: refine)
    }

    /// `POST /v1/scans`: 202 with the scan, `Location` of its resource; 200 with the final scan when `Prefer: wait=N`
    /// was sent and the scan ended within N seconds (`Preference-Applied` says the wait was honoured). A repeated
    /// `Idempotency-Key` answers the earlier scan in the same way. A JSON body `{"source": "pantry"}` starts a scan from
    /// the pantry instead of photos (docs/architecture.md, "Scans from the pantry").
    @Sendable func create(request: Request, context: GatewayRequestContext) async throws -> Response {
        let started =
            PantryScanRequest.isPantryScan(request)
            ? try await scans.startFromPantry(request, context: context)
            : try await scans.start(request, showingPartials: true, context: context)
        return try await answer(started, request: request, context: context)
    }

    /// `POST /v1/scans/{id}/refinements` (docs/architecture.md, "Refinements"): a text-only scan from the ingredients
    /// the person confirmed of scan `id`, answered as `POST /v1/scans` answers. 404 when `id` is not the caller's scan,
    /// 409 `scan_not_refinable` when it is open, failed or a dish scan.
    @Sendable func refine(request: Request, context: GatewayRequestContext) async throws -> Response {
        let parentID = try context.pathID(else: Self.notFound)
        return try await answer(try await scans.refine(parentID, request, context: context), request: request, context: context)
    }

    /// A started scan's answer: 202, or 200 once final within `Prefer: wait=N`.
    private func answer(_ started: ScanCoordinator.StartedScan, request: Request, context: GatewayRequestContext) async throws -> Response {
        var scan = started.scan
        var headers: HTTPFields = [.location: scan.location]
        if let wait = Self.preferredWait(request.headers[values: .prefer]) {
            headers[.preferenceApplied] = "wait=\(wait)"
            do {
                scan = try await scans.follow(started, until: .now + .seconds(wait)) ?? scan
            } catch let error where DatabaseFailure(error) == .outage {
                // A store out of reach for the whole wait leaves the scan as started: 202, with its resource to fetch.
                context.logger.warning("could not read a scan while its request waited", metadata: ["scanId": "\(scan.id)"])
            }
        }
        return try Response.json(try await costs.costed(scan).resource, status: scan.state.isOpen ? .accepted : .ok, headers: headers)
    }

    /// `GET /v1/scans/{id}`.
    @Sendable func show(request: Request, context: GatewayRequestContext) async throws -> Response {
        try Response.json(try await costs.costed(try await ownScan(context)).resource)
    }

    /// `GET /v1/scans?mode=&limit=&cursor=`: the user's retained scans, newest first, a page at a time; of one `mode`
    /// when the app names one, else of the modes every app knows (``ScanMode/listedByDefault``).
    @Sendable func list(request: Request, context: GatewayRequestContext) async throws -> Response {
        let session = try context.authenticatedSession
        let query = request.uri.queryParameters
        let page = try PageRequest(query)
        let modes =
            try query.get("mode").map { name in
                guard let mode = ScanMode(rawValue: name) else {
                    throw APIError.badRequest("mode must be one of \(ScanMode.allCases.map(\.rawValue).joined(separator: ", ")).")
                }
                return [mode]
            } ?? ScanMode.listedByDefault
        let scans = try await scans.scans(of: session.userID, modes: modes, after: page.cursor, limit: page.limit)
        let costed = try await costs.costed(scans.scans, of: session.userID)
        return try Response.json(ScanList(scans: costed.map(\.resource), nextCursor: scans.next?.token))
    }

    /// `DELETE /v1/scans/{id}`: 204. A scan no worker has started is cancelled and given back; a final one is
    /// deleted with its result (a success stays charged for its day); one a worker is on is 409.
    @Sendable func delete(request: Request, context: GatewayRequestContext) async throws -> Response {
        let session = try context.authenticatedSession
        let id = try context.pathID(else: Self.notFound)
        switch try await scans.delete(id, of: session) {
        case .notFound: throw Self.notFound
        case .running:
            throw APIError(.conflict, .scanInProgress, "The scan is being analysed and can't be cancelled; delete it once it has finished.")
        case .cancelled:
            context.logger.info("scan cancelled before a worker took it; refunded", metadata: ["scanId": "\(id)"])
        case .deleted:
            context.logger.info("scan deleted", metadata: ["scanId": "\(id)"])
        }
        return Response(status: .noContent)
    }

    /// `GET /v1/scans/{id}/events` (docs/architecture.md, "Streamed scans"): server-sent events. `status` events, the
    /// scan resource, as the scan is `queued` and `running` (when seen running); then, while a worker writes the answer,
    /// `ingredients`, `recipe` and `restart` events, each element as soon as it is checked; then one `result` or
    /// `error` event, the scan resource and the last word, and the stream ends. Event ids are positions on the scan's
    /// path (``ScanServerEvent/id``): a client reconnecting with `Last-Event-ID` gets only what it has not seen (from
    /// the last restart after it, if one came), and one that has seen the end gets 204, which tells `EventSource` to
    /// stop. A comment every ``ScanCoordinator/recheckInterval`` without news keeps idle proxies from closing the
    /// stream. Each partial accepted after the stream opened is counted in `kiwi_scan_event_delay_seconds` as written.
    @Sendable func events(request: Request, context: GatewayRequestContext) async throws -> Response {
        let id = try context.pathID(else: Self.notFound)
        let session = try context.authenticatedSession
        let seen = request.headers[.lastEventID].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } ?? 0
        let opened = Date()
        guard let steps = try await scans.watch(id, of: session.userID, lastEventID: seen)?.costed(by: costs) else { throw Self.notFound }
        if steps.allSeen { return Response(status: .noContent) }
        let metrics = scans.metrics
        let body = ResponseBody { writer in
            for try await element in steps {
                switch element {
                case .event(let event):
                    try await writer.write(event.buffer)
                    if let acceptedAt = event.acceptedAt, acceptedAt >= opened { metrics.partialEventWritten(acceptedAt: acceptedAt) }
                case .quiet: try await writer.write(ByteBuffer(string: ": still working\n\n"))
                }
            }
            try await writer.finish(nil)
        }
        return Response(
            status: .ok,
            headers: [.contentType: "text/event-stream", .cacheControl: "no-cache", .xAccelBuffering: "no"],
            body: body
        )
    }

    /// `Prefer: wait=N` (RFC 7240) among the request's preferences, capped at ``longestWait``; nil without one.
    static func preferredWait(_ values: [String]) -> Int? {
        for preference in values.flatMap({ $0.split(separator: ",") }) {
            let parts = preference.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, parts[0].lowercased() == "wait", let seconds = Int(parts[1].trimmingCharacters(in: ["\""])), seconds >= 0
            else { continue }
            return min(seconds, longestWait)
        }
        return nil
    }

    private static let notFound = ScanAPIErrors.noSuchScan

    /// The caller's scan named in the path; 404 for anything else.
    private func ownScan(_ context: GatewayRequestContext) async throws -> ScanRecord {
        let session = try context.authenticatedSession
        guard let scan = try await scans.scan(try context.pathID(else: Self.notFound), of: session.userID) else { throw Self.notFound }
        return scan
    }
}

extension HTTPField.Name {
    static let prefer = Self("Prefer")!
    static let preferenceApplied = Self("Preference-Applied")!
    static let lastEventID = Self("Last-Event-ID")!
    static let xAccelBuffering = Self("X-Accel-Buffering")!
}
