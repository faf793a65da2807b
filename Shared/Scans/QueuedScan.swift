import Foundation
import KiwiModels

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
    /// What its `Idempotency-Key` is checked against: the photos' digest, or a refinement's request's.
    public let photoSHA256: Data
    public let deadline: Date
    /// What a refinement refines and the names it starts from; nil for a photo scan.
    public let refinement: Refinement?
    /// What its job's photos are sealed under: fresh for each scan, kept on its row while it is open. A refinement
    /// has one too, unused, so that every open scan of this release has a key.
    public let photoKey: PhotoKey
    /// Whether the scan is included in the price of another (a planned meal's recipe, in its plan's): it meets only the
    /// token limit and the budget, and counts in no allowance. A refinement is priced by its chain instead.
    public let free: Bool
    /// What its photos show; what the list of scans filters by (``ScanMode/listedByDefault``).
    public let mode: ScanMode

    public init(
        id: UUID = UUID(),
        userID: UUID,
        quotaKey: Data,
        day: String,
        idempotencyKey: String?,
        photoSHA256: Data,
        deadline: Date,
        refinement: Refinement? = nil,
        photoKey: PhotoKey = PhotoKey(),
        free: Bool = false,
        mode: ScanMode = .fridge
    ) {
        self.id = id
        self.userID = userID
        self.quotaKey = quotaKey
        self.day = day
        self.idempotencyKey = idempotencyKey
        self.photoSHA256 = photoSHA256
        self.deadline = deadline
        self.refinement = refinement
        self.photoKey = photoKey
        self.free = free
        self.mode = mode
    }

    /// A scan made from a succeeded scan's ingredients as the person confirmed them, with no photo.
    public struct Refinement: Sendable, Hashable {
        /// The scan refined: the user's succeeded fridge scan, or a succeeded refinement.
        public let parentID: UUID
        /// The ingredient names, checked and trimmed.
        public let ingredients: [String]

        public init(parentID: UUID, ingredients: [String]) {
            self.parentID = parentID
            self.ingredients = ingredients
        }
    }
}
