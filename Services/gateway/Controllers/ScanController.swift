import CoreMetrics
import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import KiwiConcurrency
import KiwiMessaging
import KiwiModels
import KiwiScanJobs
import KiwiServiceSupport
import Logging

/// `POST /v1/scan`: quota first (429 before the body is read), then the photo, then the scan reserved in the ledger
/// (atomically, or found again by its `Idempotency-Key`), the job sent and its answer awaited and recorded. A scan is
/// charged when it succeeds, whether or not its client is still connected, and given back only when it fails.
struct ScanController: Sendable {
    let ledger: any ScanLedger
    let policy: QuotaPolicy
    let scans: any ScanBackend
    let uploads: UploadLimiter
    let metrics: GatewayMetrics
    /// How long a scan may take (`SCAN_TIMEOUT_SECONDS`).
    let timeout: Duration

    func addRoutes(to group: RouterGroup<GatewayRequestContext>) {
        group.post("scan", use: scan)
        group.get("scans/:id", use: scanResource)
    }

    /// `GET /v1/scans/{id}`: one of the caller's scans. Another user's scan, or an id that is no scan, is 404: whether
    /// a scan exists is nobody else's business.
    @Sendable func scanResource(request: Request, context: GatewayRequestContext) async throws -> Response {
        let session = try context.authenticatedSession
        let id = context.parameters.get("id").flatMap(UUID.init(uuidString:))
        guard let id, let scan = try await ledger.scan(id, of: session.userID) else {
            throw APIError(.notFound, .notFound, "There is no such scan; it may have passed its retention period.")
        }
        return try Response.json(scan.resource)
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
        let idempotencyKey = try IdempotencyKey.of(request)
        let now = Date()
        let day = policy.day(of: now)
        guard try await ledger.used(by: session.quotaKey, on: day) < policy.limit else { throw rateLimited(at: now) }
        guard let jpeg = try await uploads.withSlot({ try await ImageUpload.read(from: request, context: context) }) else {
            throw APIError(
                .serviceUnavailable,
                .scanUnavailable,
                "Too many photos are being uploaded right now; please try again in a moment.",
                headers: [.retryAfter: "1"]
            )
        }
        let reservation = try await ledger.reserve(
            NewScan(
                userID: session.userID,
                quotaKey: session.quotaKey,
                day: day,
                idempotencyKey: idempotencyKey,
                photoSHA256: Data(SHA256.hash(data: jpeg)),
                deadline: now.addingTimeInterval(timeout.seconds)
            ),
            limit: policy.limit
        )
        let scan: ScanRecord
        switch reservation {
        case .limitReached: throw rateLimited(at: now)
        case .keyReused: throw IdempotencyKey.reused
        case .replay(let earlier):
            context.logger.info("answering a repeated request with its earlier scan", metadata: ["scanId": "\(earlier.id)"])
            return try Self.answer(for: try await outcome(of: earlier, context: context), of: earlier)
        case .reserved(let reserved): scan = reserved
        }

        let (result, modelTime): (ScanJobResult, Duration?)
        do {
            metrics.scansInFlight.increment()
            defer { metrics.scansInFlight.decrement() }
            (result, modelTime) = try await scans.scan(consume jpeg, userID: session.userID, requestID: context.requestID)
        } catch {
            let failure = Self.failure(for: error)
            await record(scan, as: .error(failure), because: "\(error)", context: context)
            throw Self.apiError(for: failure)
        }
        let recorded = await record(scan, as: result, because: nil, context: context)
        var response = try Self.answer(for: recorded, of: scan)
        // The model's share of the wait, as a standard header: clients and load tests see what Kiwi itself adds.
        if let modelTime, case .ok = recorded { response.headers[.serverTiming] = Self.serverTiming(modelTime: modelTime) }
        return response
    }

    private func rateLimited(at now: Date) -> APIError {
        APIError(
            .tooManyRequests,
            body: ErrorBody(error: .rateLimitExceeded, message: "You've reached your daily scan limit.", resetsAt: policy.resetsAt(after: now)),
            headers: [.retryAfter: String(policy.retryAfterSeconds(at: now))]
        )
    }

    /// Records the scan's outcome in the ledger, trying three times over about a second: a database blip must neither
    /// cost the user a failed scan nor give away a successful one. Returns the outcome the ledger holds: when the scan
    /// was already final (the sweeper failed it after this gateway stalled), that one, not `result`. If every try
    /// fails, the scan stays open and the sweeper fails it after its deadline, so a failure is refunded all the same.
    @discardableResult
    private func record(
        _ scan: ScanRecord,
        as result: ScanJobResult,
        because reason: String?,
        context: GatewayRequestContext
    ) async
        -> ScanJobResult
    {
        for wait in [Duration.zero, .milliseconds(200), .milliseconds(800)] {
            try? await Task.sleep(for: wait)
            do {
                let changed: Bool
                switch result {
                case .ok(let response): changed = try await ledger.succeed(scan.id, result: response)
                case .error(let failure): changed = try await ledger.fail(scan.id, code: failure.code)
                }
                if case .error(let failure) = result, changed {
                    context.logger.info("scan refunded", metadata: ["reason": .string(reason ?? failure.code.rawValue)])
                    metrics.refunded(true)
                }
                guard !changed, let final = try await ledger.scan(scan.id, of: scan.userID), let outcome = final.outcome else { return result }
                context.logger.warning("the scan was already finished", metadata: ["scanId": "\(scan.id)", "state": "\(final.state)"])
                return outcome
            } catch {
                context.logger.warning("could not record a scan's outcome yet", metadata: ["scanId": "\(scan.id)", "error": "\(error)"])
            }
        }
        context.logger.error("gave up recording a scan's outcome; the sweeper will fail it", metadata: ["scanId": "\(scan.id)"])
        if case .error = result { metrics.refunded(false) }
        return result
    }

    /// The outcome of a scan another request started (the same `Idempotency-Key`), waiting for it while it is open,
    /// up to its deadline and the sweeper's grace.
    private func outcome(of scan: ScanRecord, context: GatewayRequestContext) async throws -> ScanJobResult {
        var current = scan
        let giveUp = scan.deadline.addingTimeInterval(ScanSweeper.grace.seconds)
        while true {
            if let outcome = current.outcome { return outcome }
            guard Date() < giveUp else { return .error(ScanFailure(.scanTimeout, "")) }
            try await Task.sleep(for: .milliseconds(250))
            guard let next = try await ledger.scan(scan.id, of: scan.userID) else { return .error(ScanFailure(.scanTimeout, "")) }
            current = next
        }
    }

    /// The answer of a finished scan: 200 with its result and `Location` of its resource, or its failure's error.
    private static func answer(for outcome: ScanJobResult, of scan: ScanRecord) throws -> Response {
        switch outcome {
        case .ok(let response): try Response.json(response, headers: [.location: "/v1/scans/\(scan.id.uuidString.lowercased())"])
        case .error(let failure): throw apiError(for: failure)
        }
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
            // A repeated request's scan is answered from the ledger, which keeps the code but not the worker's words.
            APIError(.badRequest, .invalidImage, failure.message.isEmpty ? "The photo could not be read; please take another one." : failure.message)
        }
    }

    /// The failure a scan that got no usable reply is recorded with.
    static func failure(for error: any Error) -> ScanFailure {
        switch error {
        case AMQPError.timedOut: ScanFailure(.scanTimeout, "")
        case is DecodingError: ScanFailure(.invalidModelResponse, "")  // a worker reply that is not a result
        default: ScanFailure(.llmUnavailable, "")
        }
    }
}

extension ScanRecord {
    /// The scan as `GET /v1/scans/{id}` shows it.
    var resource: ScanResource {
        ScanResource(
            id: id,
            status: state.rawValue,
            createdAt: createdAt,
            result: state == .succeeded ? result : nil,
            error: state == .failed ? ScanController.apiError(for: ScanFailure(errorCode ?? .llmUnavailable, "")).body : nil
        )
    }

    /// The outcome of a final scan; nil while it is open.
    var outcome: ScanJobResult? {
        switch state {
        case .queued, .running: nil
        case .succeeded: result.map { .ok($0) } ?? .error(ScanFailure(.invalidModelResponse, ""))
        case .failed: .error(ScanFailure(errorCode ?? .llmUnavailable, ""))
        }
    }
}

extension HTTPField.Name {
    static let serverTiming = Self("Server-Timing")!
}
