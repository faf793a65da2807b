import CoreMetrics
import Foundation
import HTTPTypes
import Hummingbird
import KiwiConcurrency
import KiwiMessaging
import KiwiModels
import KiwiScanJobs
import KiwiServiceSupport
import Logging

/// `POST /v1/scan`: quota first (429 before the body is read), then the photo, then one scan reserved atomically,
/// the job sent and its answer awaited. Any failure gives the reserved scan back.
struct ScanController: Sendable {
    let quota: any QuotaRepository
    let policy: QuotaPolicy
    let scans: any ScanBackend
    let uploads: UploadLimiter
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
        let session = try context.authenticatedSession
        let now = Date()
        let day = policy.day(of: now)
        guard try await quota.used(by: session.quotaKey, on: day) < policy.limit else { throw rateLimited(at: now) }
        guard let jpeg = try await uploads.withSlot({ try await ImageUpload.read(from: request, context: context) }) else {
            throw APIError(
                .serviceUnavailable,
                .scanUnavailable,
                "Too many photos are being uploaded right now; please try again in a moment.",
                headers: [.retryAfter: "1"]
            )
        }
        guard let reservation = try await quota.reserve(for: session.quotaKey, on: day, limit: policy.limit) else { throw rateLimited(at: now) }

        let (result, modelTime): (ScanJobResult, Duration?)
        do {
            metrics.scansInFlight.increment()
            defer { metrics.scansInFlight.decrement() }
            (result, modelTime) = try await scans.scan(consume jpeg, userID: session.userID, requestID: context.requestID)
        } catch {
            await refund(reservation, because: "\(error)", context: context)
            throw Self.apiError(for: error)
        }
        switch result {
        case .ok(let response):
            if !context.isClientConnected {
                await refund(reservation, because: "the client left before the answer", context: context)
            }
            // The model's share of the wait, as a standard header: clients and load tests see what Kiwi itself adds.
            return try Response.json(response, headers: modelTime.map { [.serverTiming: Self.serverTiming(modelTime: $0)] } ?? [:])
        case .error(let failure):
            await refund(reservation, because: failure.code.rawValue, context: context)
            throw Self.apiError(for: failure)
        }
    }

    private func rateLimited(at now: Date) -> APIError {
        APIError(
            .tooManyRequests,
            body: ErrorBody(error: .rateLimitExceeded, message: "You've reached your daily scan limit.", resetsAt: policy.resetsAt(after: now)),
            headers: [.retryAfter: String(policy.retryAfterSeconds(at: now))]
        )
    }

    /// Gives the scan back, trying three times over about a second: a database blip must not cost the user a scan.
    private func refund(_ reservation: QuotaReservation, because reason: String, context: GatewayRequestContext) async {
        for wait in [Duration.zero, .milliseconds(200), .milliseconds(800)] {
            try? await Task.sleep(for: wait)
            do {
                try await quota.refund(reservation)
                context.logger.info("scan refunded", metadata: ["reason": .string(reason)])
                metrics.refunded(true)
                return
            } catch {
                context.logger.warning("could not refund a failed scan yet", metadata: ["reason": .string(reason), "error": "\(error)"])
            }
        }
        context.logger.error("gave up refunding a failed scan", metadata: ["reason": .string(reason)])
        metrics.refunded(false)
    }

    /// `Server-Timing: llm;dur=<milliseconds>` (W3C Server Timing).
    static func serverTiming(modelTime: Duration) -> String {
        "llm;dur=" + String(format: "%.1f", modelTime.seconds * 1000)
    }

    static func apiError(for failure: ScanFailure) -> APIError {
        switch failure.code {
        case .invalidModelResponse:
            APIError(.badGateway, .invalidModelResponse, "We couldn't read recipes from this photo; your scan was not counted. Please try again.")
        case .llmUnavailable:
            APIError(.serviceUnavailable, .scanUnavailable, "Scanning is unavailable right now; your scan was not counted. Please try again later.")
        case .scanTimeout:
            APIError(.gatewayTimeout, .scanTimeout, "The scan took too long; your scan was not counted. Please try again.")
        case .invalidImage:
            APIError(.badRequest, .invalidImage, failure.message)
        }
    }

    static func apiError(for error: any Error) -> APIError {
        switch error {
        case AMQPError.timedOut: apiError(for: ScanFailure(.scanTimeout, ""))
        case is DecodingError: apiError(for: ScanFailure(.invalidModelResponse, ""))  // a worker reply that is not a result
        default: apiError(for: ScanFailure(.llmUnavailable, ""))
        }
    }
}

extension HTTPField.Name {
    static let serverTiming = Self("Server-Timing")!
}
