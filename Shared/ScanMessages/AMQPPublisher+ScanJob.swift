import KiwiMessaging

extension AMQPPublisher {
    /// The pauses before a refused job is offered again: a busy broker's refusals pass within a second.
    static let jobRefusalPauses: [Duration] = [.milliseconds(250), .seconds(1)]

    /// Publishes a scan job's `message` to `queue`, offering it again when the broker refuses it (`basic.nack`).
    ///
    /// A quorum queue refuses the first message a channel sends when the queue's leader does not answer in time, as on
    /// a busy broker; the refused message is not on the queue, so offering it again cannot make a second job. Other
    /// failures, and a third refusal, are thrown as they are.
    public func publishJob(_ message: AMQPMessage, to queue: String) async throws {
        for pause in Self.jobRefusalPauses {
            do {
                return try await publish(message, routingKey: queue)
            } catch AMQPError.nacked {
                try await Task.sleep(for: pause)
            }
        }
        try await publish(message, routingKey: queue)
    }
}
