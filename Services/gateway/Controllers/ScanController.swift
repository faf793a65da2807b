import CoreMetrics
import Foundation
import HTTPTypes
import Hummingbird
import KiwiConcurrency
import KiwiDatabase
import KiwiModels
import KiwiScanJobs
import KiwiScans
import KiwiServiceSupport
import Logging

/// `POST /v1/scan`, the one blocking call: the scan is started like any other (``ScanCoordinator``) and the request
/// waits for its outcome, up to the scan's deadline, and answers it as version 1 did: 200 with the result (and the
/// scan's `Location`), or the failure's error. A scan still open at its deadline is failed (`scan_timeout`, 504).
/// A scan is charged when it succeeds, whether or not its client is still connected, and given back only when it
/// fails; a client that lost the answer finds it at `GET /v1/scans/{id}`, or by sending the request again with the
/// same `Idempotency-Key`.
struct ScanController: Sendable {
    let scans: ScanCoordinator
    let metrics: GatewayMetrics

    func addRoutes(to group: RouterGroup<GatewayRequestContext>) {
        group.post("scan", use: scan)
    }

    /// Counts every scan by how it ended (``GatewayMetrics``): `ok`, or the error code the client got; a 429 is a
    /// quota rejection rather than a scan.
    @Sendable func scan(request: Request, context: GatewayRequestContext) async throws -> Response {
        do {
            let response = try await scanning(request, context: context)
            metrics.scanEnded("ok")
            return response
        } catch let error as APIError where error.body.error == .rateLimitExceeded {
            metrics.quotaRejections.increment()
            throw error
        } catch let error as APIError {
            metrics.scanEnded(error.body.error.rawValue)
            throw error
        } catch {
            metrics.scanEnded("error")
            throw error
        }
    }

    private func scanning(_ request: Request, context: GatewayRequestContext) async throws -> Response {
        let started = try await scans.start(request, context: context)
        metrics.scansInFlight.increment()
        defer { metrics.scansInFlight.decrement() }
        let scan = started.scan
        do {
            return try answer(try await outcome(of: started, context: context))
        } catch let error as APIError {
            throw error.about(scan)
        } catch let error where DatabaseFailure(error) == .outage {
            // The store never answered while the scan could still end: its outcome is not known here, so the client
            // is sent to it rather than told to scan again.
            context.logger.warning("could not learn a scan's outcome", metadata: ["scanId": "\(scan.id)", "error": "\(error)"])
            throw ScanOutcome.unknown.about(scan)
        }
    }

    /// The started scan once it is final. A new scan still open at its deadline is failed, unless a worker's answer
    /// lands first; while the store is out of reach the failure is tried again until the worker could no longer record
    /// an answer either (the sweeper's grace), so that the client is never told the scan was not counted when it was.
    private func outcome(of started: ScanCoordinator.Started, context: GatewayRequestContext) async throws -> ScanRecord {
        let scan = started.scan
        switch started {
        case .new:
            guard let final = try await scans.follow(scan.id, of: scan.userID, until: scan.deadlineInstant, known: started.known) else {
                throw ScanOutcome.gone
            }
            guard final.state.isOpen else { return final }
            guard let failed = await scans.fail(final, .scanTimeout, until: scan.deadlineInstant + ScanSweeper.grace, context: context) else {
                throw ScanOutcome.unknown
            }
            return failed
        case .repeated:
            // Another request's scan: its own request, worker or the sweeper ends it, by its deadline and the grace.
            let giveUp = scan.deadlineInstant + ScanSweeper.grace
            guard let final = try await scans.follow(scan.id, of: scan.userID, until: giveUp) else { throw ScanOutcome.gone }
            guard !final.state.isOpen else { throw ScanOutcome.apiError(for: ScanFailure(.scanTimeout, "")) }
            return final
        }
    }

    /// A final scan's answer: 200 with its result, `Location` of its resource and the model's time as
    /// `Server-Timing`, or its failure's error.
    private func answer(_ scan: ScanRecord) throws -> Response {
        switch scan.outcome {
        case .ok(let result)?:
            var response = try Response.json(result, headers: [.location: scan.location])
            // The model's share of the wait, as a standard header: clients and load tests see what Kiwi itself adds.
            // Only when OpenAI reported its time: an unknown time is not an instant one.
            if let modelTime = scan.modelTime, modelTime > .zero {
                response.headers[.serverTiming] = ScanOutcome.serverTiming(modelTime: modelTime)
            }
            return response
        case .error(let failure)?: throw ScanOutcome.apiError(for: failure)
        case nil: throw ScanOutcome.apiError(for: ScanFailure(.scanTimeout, ""))
        }
    }
}

/// How scans look through the API: a record as a resource, a failure as an error.
enum ScanOutcome {
    /// `Server-Timing: llm;dur=<milliseconds>` (W3C Server Timing).
    static func serverTiming(modelTime: Duration) -> String {
        "llm;dur=" + String(format: "%.1f", modelTime.seconds * 1000)
    }

    /// The scan was deleted while its request waited (with its account, or by `DELETE /v1/scans/{id}`).
    static let gone = APIError(.notFound, .notFound, "There is no such scan; it was deleted.")

    /// The store did not answer while the scan could still end: the scan goes on, and its outcome is at its
    /// `Location` once Kiwi is back. Not "try again": a scan started again would be charged again.
    static let unknown = APIError.unavailableForAMoment(
        .serviceUnavailable,
        "Kiwi is briefly unavailable; your scan goes on. Fetch its answer from the Location given; do not start it again."
    )

    /// `Retry-After` of a scan the model could not answer when the worker knew no better: about one circuit
    /// breaker's cool-down.
    static let defaultRetryAfterSeconds = 30

    static func apiError(for failure: ScanFailure) -> APIError {
        switch failure.code {
        case .invalidModelResponse:
            APIError(.badGateway, .invalidModelResponse, "We couldn't read recipes from this photo; your scan was not counted. Please try again.")
        case .llmUnavailable:
            APIError(
                .serviceUnavailable,
                .scanUnavailable,
                "Scanning is unavailable right now; your scan was not counted. Please try again later.",
                headers: [.retryAfter: String(failure.retryAfterSeconds ?? defaultRetryAfterSeconds)]
            )
        case .scanTimeout:
            APIError(.gatewayTimeout, .scanTimeout, "The scan took too long; your scan was not counted. Please try again.")
        case .invalidImage:
            APIError(.badRequest, .invalidImage, failure.message.isEmpty ? "The photo could not be read; please take another one." : failure.message)
        }
    }
}

extension APIError {
    /// This error, about `scan`: a server error (5xx) names the scan in its body and the scan's resource as its
    /// `Location`, where the client finds the scan's outcome; a client error is the request's own and stays as it is.
    func about(_ scan: ScanRecord) -> APIError {
        guard status.code >= 500 else { return self }
        var (body, headers) = (self.body, self.headers)
        body.scanId = scan.id
        headers[.location] = scan.location
        return APIError(status, body: body, headers: headers)
    }
}

extension ScanRecord {
    /// The path of the scan's resource.
    var location: String { "/v1/scans/\(id.uuidString.lowercased())" }

    /// The scan as the API shows it.
    var resource: ScanResource {
        ScanResource(
            id: id,
            status: state.rawValue,
            createdAt: createdAt,
            result: state == .succeeded ? result : nil,
            error: failure.map { ScanOutcome.apiError(for: $0).body }
        )
    }

    /// Why a failed scan failed; nil for any other.
    var failure: ScanFailure? {
        state == .failed ? ScanFailure(errorCode ?? .llmUnavailable, errorMessage, retryAfterSeconds: retryAfterSeconds) : nil
    }

    /// The outcome of a final scan; nil while it is open. A success whose result the retention period cleared reads
    /// as a failure to read recipes, since there is nothing to show.
    var outcome: ScanJobResult? {
        switch state {
        case .queued, .running: nil
        case .succeeded: result.map { .ok($0) } ?? .error(ScanFailure(.invalidModelResponse, ""))
        case .failed: failure.map { .error($0) }
        }
    }
}

extension HTTPField.Name {
    static let serverTiming = Self("Server-Timing")!
}
