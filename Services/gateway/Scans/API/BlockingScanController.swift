import CoreMetrics
import Foundation
import HTTPTypes
import Hummingbird
import KiwiConcurrency
import KiwiDatabase
import KiwiModels
import KiwiScans
import KiwiServiceSupport
import Logging

/// `POST /v1/scan`, the one blocking call: the scan is started like any other (``ScanCoordinator``) and the request
/// waits for its outcome, up to the scan's deadline, and answers it: 200 with the result (and the scan's
/// `Location`), or the failure's error. A scan still open at its deadline is failed (`scan_timeout`, 504).
/// A scan is charged when it succeeds, whether or not its client is still connected, and given back only when it
/// fails; a client that lost the answer finds it at `GET /v1/scans/{id}`, or by sending the request again with the
/// same `Idempotency-Key`.
struct BlockingScanController: Sendable {
    let scans: ScanCoordinator
    let costs: AnswerCosts
    let metrics: GatewayMetrics

    func addRoutes(to group: RouterGroup<GatewayRequestContext>) {
        group.post("scan", use: scan)
    }

    /// Counts every scan by how it ended (``GatewayMetrics``): `ok`, or the error code the client got; a 429 is a
    /// quota rejection rather than a scan, counted as it is refused (``ScanAPIErrors/refusal(_:at:)``).
    @Sendable func scan(request: Request, context: GatewayRequestContext) async throws -> Response {
        do {
            let response = try await scanning(request, context: context)
            metrics.scanEnded("ok")
            return response
        } catch let error as APIError where error.body.error == .rateLimitExceeded {
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
        // Nobody watches the elements of a scan whose client waits for its result alone: the workers show none.
        let started = try await scans.start(request, showingPartials: false, context: context)
        metrics.scansInFlight.increment()
        defer { metrics.scansInFlight.decrement() }
        let scan = started.scan
        do {
            return try answer(try await costs.costed(try await outcome(of: started, context: context)))
        } catch let error as APIError {
            throw error.about(scan)
        } catch let error where DatabaseFailure(error) == .outage {
            // The store never answered while the scan could still end: its outcome is not known here, so the client
            // is sent to it rather than told to scan again.
            context.logger.warning("could not learn a scan's outcome", metadata: ["scanId": "\(scan.id)", "error": "\(error)"])
            throw ScanAPIErrors.unknown.about(scan)
        }
    }

    /// The started scan once it is final. A new scan still open at its deadline is failed, unless a worker's answer
    /// lands first; while the store is out of reach the failure is tried again until the worker could no longer record
    /// an answer either (the sweeper's grace), so that the client is never told the scan was not counted when it was.
    private func outcome(of started: ScanCoordinator.StartedScan, context: GatewayRequestContext) async throws -> ScanRecord {
        let scan = started.scan
        switch started {
        case .new:
            guard let final = try await scans.follow(started, until: scan.deadlineInstant) else {
                throw ScanAPIErrors.gone
            }
            guard final.state.isOpen else { return final }
            guard let failed = await scans.fail(final, .scanTimeout, until: scan.deadlineInstant + ScanSweeper.grace, context: context) else {
                throw ScanAPIErrors.unknown
            }
            return failed
        case .repeated:
            // Another request's scan: its own request, worker or the sweeper ends it, by its deadline and the grace.
            let giveUp = scan.deadlineInstant + ScanSweeper.grace
            guard let final = try await scans.follow(started, until: giveUp) else { throw ScanAPIErrors.gone }
            guard !final.state.isOpen else { throw ScanAPIErrors.apiError(for: ScanFailure(.scanTimeout, "")) }
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
                response.headers[.serverTiming] = Self.serverTiming(modelTime: modelTime)
            }
            return response
        case .error(let failure)?: throw ScanAPIErrors.apiError(for: failure)
        case nil: throw ScanAPIErrors.apiError(for: ScanFailure(.scanTimeout, ""))
        }
    }

    /// `Server-Timing: llm;dur=<milliseconds>` (W3C Server Timing).
    static func serverTiming(modelTime: Duration) -> String {
        "llm;dur=" + String(format: "%.1f", modelTime.seconds * 1000)
    }
}

extension HTTPField.Name {
    static let serverTiming = Self("Server-Timing")!
}
