import CoreMetrics
import Foundation
import HTTPTypes
import Hummingbird
import KiwiModels
import KiwiScans
import KiwiServiceSupport

/// The API's errors about scans, in one place: a start refused (counted in ``GatewayMetrics``), a scan's failure as
/// the error its client gets, and the errors of a scan its request lost sight of.
struct ScanAPIErrors: Sendable {
    let policy: QuotaPolicy
    let metrics: GatewayMetrics

    /// A start refused by the quota: a person out of scans or tokens gets 429 with `resetsAt`, counted as a quota
    /// rejection; everyone, once the day's budget is spent, 503 `scan_unavailable`, counted as a budget rejection.
    /// Both until midnight UTC.
    func refusal(_ refusal: QuotaPolicy.Refusal, at now: Date) -> APIError {
        let retryAfter: HTTPFields = [.retryAfter: String(policy.retryAfterSeconds(at: now))]
        switch refusal {
        case .scans, .tokens:
            metrics.quotaRejections.increment()
            return APIError(
                .tooManyRequests,
                body: ErrorBody(error: .rateLimitExceeded, message: "You've reached your daily scan limit.", resetsAt: policy.resetsAt(after: now)),
                headers: retryAfter
            )
        case .budget:
            metrics.budgetRejections.increment()
            return APIError(
                .serviceUnavailable,
                .scanUnavailable,
                "Scanning is paused for today; it resumes at midnight UTC. Your scan was not counted.",
                headers: retryAfter
            )
        }
    }

    /// Too many scans are starting on this gateway (``ScanStartLimiter``): 503 with `Retry-After`.
    static let busy = APIError.unavailableForAMoment(.scanUnavailable, "Too many scans are starting right now; please try again in a moment.")

    /// No scan of the caller has this id: another user's, unknown, deleted, or past its retention.
    static let noSuchScan = APIError(.notFound, .notFound, "There is no such scan; it may have passed its retention period.")

    /// A refinement of a scan that has no confirmed ingredients to start from: open, failed, or a dish scan.
    static let notRefinable = APIError(
        .conflict,
        .scanNotRefinable,
        "Only a fridge scan that succeeded can be refined; wait for an open scan to succeed, or start a new scan."
    )

    /// The scan's job could not be sealed (``ScanJobEncodingError``): never sent without its profile, and refunded.
    static let unsealable = APIError(.internalServerError, .internalError, "Something went wrong on our side; your scan was not counted.")

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

    /// The error a client gets for a scan that failed with `failure`.
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
        case .notAReceipt:
            APIError(
                .unprocessableContent,
                .notAReceipt,
                "These photos don't show a shopping receipt; your scan was not counted. Photograph the whole receipt, flat and in good light."
            )
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
