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
/// `GET /v1/scans/{id}/events` streams its progress, `GET /v1/scans` lists the user's scans, and
/// `DELETE /v1/scans/{id}` cancels or deletes one. Another user's scan is 404, like one that never was.
struct ScansController: Sendable {
    let scans: ScanCoordinator
    let ledger: any ScanLedger
    let metrics: GatewayMetrics

    /// The longest `Prefer: wait` honoured, in seconds.
    static let longestWait = 60

    func addRoutes(to group: RouterGroup<GatewayRequestContext>) {
        group.post("scans", use: create)
        group.get("scans", use: list)
        group.get("scans/:id", use: show)
        group.delete("scans/:id", use: delete)
        group.get("scans/:id/events", use: events)
    }

    /// `POST /v1/scans`: 202 with the scan, `Location` of its resource; 200 with the final scan when `Prefer: wait=N`
    /// was sent and the scan ended within N seconds (`Preference-Applied` says the wait was honoured). A repeated
    /// `Idempotency-Key` answers the earlier scan in the same way.
    @Sendable func create(request: Request, context: GatewayRequestContext) async throws -> Response {
        let started: ScanCoordinator.StartedScan
        do {
            started = try await scans.start(request, context: context)
        } catch let error as APIError where error.body.error == .rateLimitExceeded {
            metrics.quotaRejections.increment()
            throw error
        }
        var scan = started.scan
        var headers: HTTPFields = [.location: scan.location]
        if let wait = Self.preferredWait(request.headers[values: .prefer]) {
            headers[.preferenceApplied] = "wait=\(wait)"
            do {
                scan = try await scans.follow(scan.id, of: scan.userID, until: .now + .seconds(wait), known: started.known) ?? scan
            } catch let error where DatabaseFailure(error) == .outage {
                // A store out of reach for the whole wait leaves the scan as started: 202, with its resource to fetch.
                context.logger.warning("could not read a scan while its request waited", metadata: ["scanId": "\(scan.id)"])
            }
        }
        return try Response.json(scan.resource, status: scan.state.isOpen ? .accepted : .ok, headers: headers)
    }

    /// `GET /v1/scans/{id}`.
    @Sendable func show(request: Request, context: GatewayRequestContext) async throws -> Response {
        try Response.json(try await ownScan(context).resource)
    }

    /// `GET /v1/scans?limit=&cursor=`: the user's retained scans, newest first, a page at a time.
    @Sendable func list(request: Request, context: GatewayRequestContext) async throws -> Response {
        let session = try context.authenticatedSession
        let page = try PageRequest(request.uri.queryParameters)
        let scans = try await ledger.scans(of: session.userID, after: page.cursor, limit: page.limit)
        return try Response.json(ScanList(scans: scans.scans.map(\.resource), nextCursor: scans.next?.token))
    }

    /// `DELETE /v1/scans/{id}`: 204. A scan no worker has started is cancelled and given back; a final one is
    /// deleted with its result (a success stays charged for its day); one a worker is on is 409.
    @Sendable func delete(request: Request, context: GatewayRequestContext) async throws -> Response {
        let session = try context.authenticatedSession
        guard let id = Self.scanID(context) else { throw Self.notFound }
        switch try await ledger.delete(id, of: session.userID, quotaKey: session.quotaKey) {
        case .notFound: throw Self.notFound
        case .running:
            throw APIError(.conflict, .scanInProgress, "The scan is being analysed and can't be cancelled; delete it once it has finished.")
        case .cancelled:
            context.logger.info("scan cancelled before a worker took it; refunded", metadata: ["scanId": "\(id)"])
            await scans.announcer.announce(ScanEvent(scanID: id, state: .failed))
        case .deleted:
            context.logger.info("scan deleted", metadata: ["scanId": "\(id)"])
        }
        return Response(status: .noContent)
    }

    /// `GET /v1/scans/{id}/events`: server-sent events. Each event's data is the scan resource: `status` events as
    /// the scan is `queued` and `running` (when seen running), then one `result` or `error` event, and the stream
    /// ends. Event ids are the steps' positions (1, 2, 3): a client reconnecting with `Last-Event-ID` gets only what it has not seen,
    /// and one that has seen the end gets 204, which tells `EventSource` to stop. A comment every
    /// ``ScanCoordinator/recheckInterval`` without news keeps idle proxies from closing the stream.
    @Sendable func events(request: Request, context: GatewayRequestContext) async throws -> Response {
        // Watched before it is read, so that the stream starts from this reading without missing news in between.
        guard let id = Self.scanID(context) else { throw Self.notFound }
        let registration = scans.events.register(id)
        let scan = try await ownScan(context)
        let seen = request.headers[.lastEventID].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } ?? 0
        if !scan.state.isOpen && seen >= scan.state.path.count { return Response(status: .noContent) }
        let scans = self.scans
        let body = ResponseBody { writer in
            var sent = seen
            _ = try await scans.follow(
                scan.id,
                of: scan.userID,
                known: (scan, registration),
                everyState: true,
                onRead: { current in
                    let path = current.state.path
                    while sent < path.count {
                        sent += 1
                        // `running` is reported only when seen: a scan cancelled or failed in the queue never ran.
                        if path[sent - 1] == .running && current.state != .running { continue }
                        try await writer.write(ScanServerEvent(step: sent, of: current, in: path).buffer)
                    }
                },
                onQuiet: { try await writer.write(ByteBuffer(string: ": still working\n\n")) }
            )
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

    private static let notFound = APIError(.notFound, .notFound, "There is no such scan; it may have passed its retention period.")

    private static func scanID(_ context: GatewayRequestContext) -> UUID? {
        context.parameters.get("id").flatMap(UUID.init(uuidString:))
    }

    /// The caller's scan named in the path; 404 for anything else.
    private func ownScan(_ context: GatewayRequestContext) async throws -> ScanRecord {
        let session = try context.authenticatedSession
        guard let id = Self.scanID(context), let scan = try await ledger.scan(id, of: session.userID) else { throw Self.notFound }
        return scan
    }
}

/// One server-sent event of a scan's stream.
struct ScanServerEvent {
    /// The event's id: the step's position on the scan's path, from 1.
    let step: Int
    /// `status`, `result` or `error`.
    let name: String
    let resource: ScanResource

    /// Step `step` of `path` (the scan's path so far), showing `scan` as it stood then: a status event for every step
    /// but a final one.
    init(step: Int, of scan: ScanRecord, in path: [ScanState]) {
        let state = path[step - 1]
        self.step = step
        switch state {
        case .queued, .running:
            name = "status"
            var resource = scan.resource
            resource.status = state.rawValue
            (resource.result, resource.error) = (nil, nil)
            self.resource = resource
        case .succeeded:
            name = "result"
            resource = scan.resource
        case .failed:
            name = "error"
            resource = scan.resource
        }
    }

    /// `id`, `event` and one `data` line of JSON, then the blank line that ends an event.
    var buffer: ByteBuffer {
        // Encoding the resource cannot fail; JSON without pretty printing has no line breaks.
        let json = String(decoding: try! KiwiJSON.encoder().encode(resource), as: UTF8.self)
        return ByteBuffer(string: "id: \(step)\nevent: \(name)\ndata: \(json)\n\n")
    }
}

extension HTTPField.Name {
    static let prefer = Self("Prefer")!
    static let preferenceApplied = Self("Preference-Applied")!
    static let lastEventID = Self("Last-Event-ID")!
    static let xAccelBuffering = Self("X-Accel-Buffering")!
}
