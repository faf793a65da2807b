import KiwiMessaging

/// Sends scan jobs to the workers and waits for their results (DESIGN.md §3): the one way the gateway, the worker's
/// tests and the worker benchmark do it. The job goes to the job queue with this instance's reply queue; the result
/// comes back on it with the job's correlation id.
public struct ScanJobSender: Sendable {
    public let requester: AMQPRequester
    public let jobQueue: String

    public init(requester: AMQPRequester, jobQueue: String) {
        self.requester = requester
        self.jobQueue = jobQueue
    }

    /// Publishes `job` and returns the worker's result and how long the model spent on it. Throws an `AMQPError`
    /// (`timedOut` when no result comes within `timeout`), or a `DecodingError` for a reply that is not a result.
    /// The job, photo and all, is handed over and freed once published, not kept while the worker takes its time.
    public func send(_ job: consuming ScanJob, timeout: Duration) async throws -> (result: ScanJobResult, modelTime: Duration?) {
        let message = job.message()
        _ = consume job
        let reply = try await requester.request(consume message, routingKey: jobQueue, timeout: timeout)
        return (try ScanJobResult(message: reply), ScanJobResult.modelTime(in: reply))
    }
}
