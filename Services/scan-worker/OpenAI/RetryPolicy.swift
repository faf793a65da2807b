import Foundation
import KiwiConcurrency
import KiwiOpenAI
import NIOHTTP1

/// When to try a failed OpenAI call again, as the official SDKs do (openai-python `_base_client.py`), bounded by
/// the job's deadline: 408, 409, 429, 5xx and connection errors are retried after an exponential backoff
/// (0.5 s doubling to 8 s, minus up to 25 % jitter) or after the server's `retry-after-ms`/`retry-after`;
/// `x-should-retry` overrides the status rules; a 429 for `insufficient_quota` (billing) is never retried.
/// A wait that would end past the deadline is not waited: the call gives up at once.
struct RetryPolicy: Sendable {
    enum Decision: Equatable, Sendable {
        case retry(after: Duration)
        case giveUp(reason: String)
    }

    /// Retries after the first attempt.
    var maxRetries: Int
    var initialBackoff = Duration.milliseconds(500)
    var maxBackoff = Duration.seconds(8)
    /// Each backoff shortened by up to a quarter, so many workers that failed together do not retry together.
    var jitter = RetrySchedule.Jitter.shortening(byUpTo: 0.25)

    /// What to do after `failure`, the failure of the attempt that followed `retries` retries, with `timeLeft` until the deadline.
    func decision(after failure: ChatCompletionsClient.Failure, retries: Int, timeLeft: Duration) -> Decision {
        guard isRetryable(failure) else { return .giveUp(reason: "\(failure.summary) (not retryable)") }
        guard retries < maxRetries else { return .giveUp(reason: "\(failure.summary) (after \(retries + 1) attempts)") }
        let wait = failure.retryAfter ?? backoff(afterRetries: retries)
        guard wait < timeLeft else {
            return .giveUp(reason: "\(failure.summary) (a retry in \(wait) would end past the deadline)")
        }
        return .retry(after: wait)
    }

    func isRetryable(_ failure: ChatCompletionsClient.Failure) -> Bool {
        if failure.code == OpenAIErrorBody.insufficientQuota { return false }
        if let shouldRetry = failure.shouldRetry { return shouldRetry }
        guard let status = failure.status else { return true }  // no response: connection error or timeout
        return status == 408 || status == 409 || status == 429 || status >= 500
    }

    /// 0.5 s, 1 s, 2 s, 4 s, 8 s, 8 s, …, each shortened by the jitter.
    func backoff(afterRetries retries: Int) -> Duration {
        RetrySchedule.doubling(from: initialBackoff, upTo: maxBackoff, jitter: jitter).wait(afterRetries: retries)
    }

    /// The wait a response asks for: `retry-after-ms` (milliseconds), else `retry-after` (seconds or an HTTP date).
    /// Waits beyond a day are read as a day: far past any deadline, and safe from overflow.
    static func retryAfter(in headers: HTTPHeaders, now: Date = Date()) -> Duration? {
        func duration(milliseconds: Double) -> Duration? {
            guard milliseconds.isFinite, milliseconds >= 0 else { return nil }
            return .milliseconds(min(milliseconds, 86_400_000))
        }
        if let wait = headers.first(name: "retry-after-ms").flatMap(Double.init).flatMap({ duration(milliseconds: $0) }) {
            return wait
        }
        guard let value = headers.first(name: "retry-after") else { return nil }
        if let seconds = Double(value) { return duration(milliseconds: seconds * 1000) }
        guard let date = httpDate(value) else { return nil }
        return duration(milliseconds: max(0, date.timeIntervalSince(now)) * 1000)
    }

    private static func httpDate(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.date(from: text)
    }
}
