import KiwiConcurrency
import KiwiMessaging

extension AMQPPublisher {
    /// How a refused job is offered again: a busy broker's refusals pass within a second or two.
    static let jobRefusals = RetrySchedule.doubling(from: .milliseconds(250), upTo: .seconds(1))
    /// How long a refused job is offered again for.
    static let jobRefusalPatience = Duration.seconds(2)

    /// Publishes a scan job's `message` to `queue`, offering it again while the broker refuses it (`basic.nack`), for
    /// up to ``jobRefusalPatience``.
    ///
    /// A quorum queue refuses the first message a channel sends when the queue's leader does not answer in time, as on
    /// a busy broker; the refused message is not on the queue, so offering it again cannot make a second job. Other
    /// failures, and the last refusal, are thrown as they are.
    public func publishJob(_ message: AMQPMessage, to queue: String) async throws {
        let refused: (any Error) -> Bool = { ($0 as? AMQPError) == .nacked }
        try await retrying(Self.jobRefusals, until: .now + Self.jobRefusalPatience, isRetryable: refused) {
            try await publish(message, routingKey: queue)
        }
    }
}
