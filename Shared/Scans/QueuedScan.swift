import Foundation

/// A scan about to be reserved, `queued`.
public struct QueuedScan: Sendable {
    public var id: UUID
    public let userID: UUID
    /// The person's quota key, which the day's allowance is counted under.
    public let quotaKey: Data
    /// The UTC day it counts against, `yyyy-MM-dd`.
    public let day: String
    /// The client's `Idempotency-Key`, if it sent one.
    public let idempotencyKey: String?
    public let photoSHA256: Data
    public let deadline: Date

    public init(id: UUID = UUID(), userID: UUID, quotaKey: Data, day: String, idempotencyKey: String?, photoSHA256: Data, deadline: Date) {
        self.id = id
        self.userID = userID
        self.quotaKey = quotaKey
        self.day = day
        self.idempotencyKey = idempotencyKey
        self.photoSHA256 = photoSHA256
        self.deadline = deadline
    }
}
