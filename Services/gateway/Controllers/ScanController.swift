import Foundation
import Hummingbird
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
    let dispatcher: ScanDispatcher
    let uploads: UploadLimiter

    func addRoutes(to group: RouterGroup<GatewayRequestContext>) {
        group.post("scan", use: scan)
    }

    @Sendable func scan(request: Request, context: GatewayRequestContext) async throws -> Response {
        let session = try context.authenticatedSession
        let now = Date()
        let day = policy.day(of: now)
        guard try await quota.used(by: session.userID, on: day) < policy.limit else { throw rateLimited(at: now) }
        guard let jpeg = try await uploads.withSlot({ try await ImageUpload.read(from: request, context: context) }) else {
            throw APIError(.serviceUnavailable, .scanUnavailable, "Too many photos are being uploaded right now; please try again in a moment.",
                           headers: [.retryAfter: "1"])
        }
        guard let reservation = try await quota.reserve(for: session.userID, on: day, limit: policy.limit) else { throw rateLimited(at: now) }

        let result: ScanJobResult
        do {
            result = try await dispatcher.scan(jpeg, userID: session.userID, requestID: context.requestID)
        } catch {
            await refund(reservation, because: "\(error)", context: context)
            throw Self.apiError(for: error)
        }
        switch result {
        case .ok(let response):
            if !context.isClientConnected {
                await refund(reservation, because: "the client left before the answer", context: context)
            }
            return try Response.json(response)
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
                return
            } catch {
                context.logger.warning("could not refund a failed scan yet", metadata: ["reason": .string(reason), "error": "\(error)"])
            }
        }
        context.logger.error("gave up refunding a failed scan", metadata: ["reason": .string(reason)])
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
