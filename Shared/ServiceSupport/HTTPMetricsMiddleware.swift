import CoreMetrics
import HTTPTypes
import Hummingbird
import KiwiConcurrency

/// Counts and times every request as `kiwi_http_requests_total` and `kiwi_http_request_duration_seconds`, by route
/// pattern (`/v1/scan`; `unmatched` for paths no route answers), method and status. Labels never hold a raw path or
/// an unknown method, so a scanner probing random URLs cannot multiply the series.
///
/// Add it first, so that it sees the status of the response the client gets.
public struct HTTPMetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    private static var knownMethods: Set<HTTPRequest.Method> { [.get, .head, .post, .put, .delete, .patch, .options] }

    public init() {}

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let started = ContinuousClock.now
        do {
            let response = try await next(request, context)
            record(request, context: context, status: response.status, since: started)
            return response
        } catch {
            record(request, context: context, status: (error as? any HTTPResponseError)?.status ?? .internalServerError, since: started)
            throw error
        }
    }

    private func record(_ request: Request, context: Context, status: HTTPResponse.Status, since started: ContinuousClock.Instant) {
        let dimensions = [
            ("route", context.endpointPath ?? "unmatched"),
            ("method", Self.knownMethods.contains(request.method) ? request.method.rawValue : "OTHER"),
            ("status", String(status.code)),
        ]
        Counter(label: "kiwi_http_requests_total", dimensions: dimensions).increment()
        Timer(label: "kiwi_http_request_duration_seconds", dimensions: dimensions, preferredDisplayUnit: .seconds)
            .recordInterval(since: started)
    }
}

extension CoreMetrics.Timer {
    /// Records the time from `start` until now.
    public func recordInterval(since start: ContinuousClock.Instant) {
        recordNanoseconds((ContinuousClock.now - start).nanoseconds)
    }
}
