import CoreMetrics
import KiwiConcurrency
import Logging
import Synchronization

/// How many jobs the worker may have in flight, lowered ahead of OpenAI's rate limits instead of learning them from
/// 429s. After each answer of the first model route (where the traffic goes) it reads the `x-ratelimit-*` headers:
/// while the requests left in the window — or the tokens left, divided by what a scan takes — are fewer than
/// `WORKER_CONCURRENCY`, the worker starts no more jobs than that (none, at zero) until the window's reset has passed
/// (OpenAI's resets are the time until the bucket is full again). `kiwi_worker_intake_limit` shows the limit.
final class IntakeGovernor: Sendable {
    private struct Limit {
        /// The most jobs in flight, and until when it holds (nil: the configured concurrency).
        var jobs: Int
        var until: ContinuousClock.Instant?
    }

    let concurrency: Int
    private let limit: Mutex<Limit>
    private let gauge = Gauge(label: "kiwi_worker_intake_limit")
    private let logger: Logger

    init(concurrency: Int, logger: Logger) {
        self.concurrency = concurrency
        self.limit = Mutex(Limit(jobs: concurrency, until: nil))
        self.logger = logger
        gauge.record(concurrency)
    }

    /// The most jobs that may be in flight at `now`.
    func allowedJobs(at now: ContinuousClock.Instant = .now) -> Int {
        let (jobs, lifted) = limit.withLock { limit -> (Int, Bool) in
            guard let until = limit.until, now >= until else { return (limit.jobs, false) }
            limit = Limit(jobs: concurrency, until: nil)
            return (concurrency, true)
        }
        if lifted {
            gauge.record(concurrency)
            logger.info("OpenAI's rate-limit window has reset; full intake")
        }
        return jobs
    }

    /// When a lowered limit lifts; nil when there is none.
    var liftsAt: ContinuousClock.Instant? { limit.withLock { $0.until } }

    /// Takes in what an answer's headers said; `tokensPerScan` is what one scan's call spent, to turn tokens left
    /// into scans left.
    func observe(_ status: RateLimitStatus, tokensPerScan: Int, at now: ContinuousClock.Instant = .now) {
        var jobs = concurrency
        var resetIn = Duration.zero
        if let requests = status.remainingRequests, requests < concurrency {
            jobs = min(jobs, max(0, requests))
            resetIn = max(resetIn, status.requestsResetIn ?? .seconds(1))
        }
        if let tokens = status.remainingTokens, tokensPerScan > 0, tokens / tokensPerScan < concurrency {
            jobs = min(jobs, max(0, tokens / tokensPerScan))
            resetIn = max(resetIn, status.tokensResetIn ?? .seconds(1))
        }
        // Answers arrive out of order: a lowered limit only goes lower until its window resets, never up.
        let (before, after) = limit.withLock { limit -> (Int, Int) in
            let before = limit.jobs
            let active = limit.until.map { now < $0 } ?? false
            if jobs < concurrency {
                limit = active ? Limit(jobs: min(limit.jobs, jobs), until: max(limit.until!, now + resetIn)) : Limit(jobs: jobs, until: now + resetIn)
            } else if !active {
                limit = Limit(jobs: concurrency, until: nil)
            }
            return (before, limit.jobs)
        }
        gauge.record(after)
        if before == concurrency, after < concurrency {
            logger.warning(
                "slowing intake ahead of OpenAI's rate limit",
                metadata: [
                    "jobs": "\(after)", "remainingRequests": "\(status.remainingRequests.map(String.init) ?? "-")",
                    "remainingTokens": "\(status.remainingTokens.map(String.init) ?? "-")", "resetMs": "\(resetIn.milliseconds)",
                ]
            )
        }
    }
}
