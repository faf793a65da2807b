import Crypto
import Foundation
import KiwiModels

/// The photos of one scan to turn into recipes, or a refinement's confirmed ingredients: what the gateway publishes to
/// ``KiwiTopology/scanJobQueue`` and a scan worker consumes (docs/architecture.md, "2. The scan data flow", step 6).
///
/// On the queue the body is the raw JPEG (no base64), or the JPEGs one after the other with their sizes in a header,
/// sealed under the scan's ``PhotoKey``; the profile is sealed under the same key in its own header, since allergies
/// and diets are health data; everything else travels in properties and headers. A refinement's body is empty, its
/// names in a header. A broker may write the job to its disk, but never the photos in the clear
/// (docs/architecture.md, "Photos at rest: crypto-shredding"). The worker writes the outcome on the scan's record, not
/// in a reply.
public struct ScanJob: Sendable, Hashable {
    /// The scan this job is the work of: its record in the `scans` table.
    public var scanID: UUID
    /// The JPEGs exactly as the client uploaded them: one to ``ScanPhoto/maximumCount``; none for a refinement.
    public var photos: [[UInt8]]
    /// A refinement's ingredient names as the person confirmed them (docs/architecture.md, "Refinements"); nil for a
    /// photo scan.
    public var ingredients: [String]?
    /// A pantry scan's pantry items, soonest to use first (docs/architecture.md, "Scans from the pantry"); its
    /// ``ingredients`` are their names, so that a worker of the release before answers it as a refinement. Nil for
    /// any other scan.
    public var pantry: [OfferedPantryItem]?
    /// A plan's request (docs/architecture.md, "Meal plans"): the scan outlines a plan of its ``pantry``, which may be
    /// empty; its ``ingredients`` are nil. Nil for any other scan.
    public var plan: PlanRequest?
    /// A planned meal whose full recipe the scan writes (docs/architecture.md, "Meal plans"), with the pantry items it
    /// uses up; its ``ingredients`` and ``pantry`` are nil. Nil for any other scan.
    public var meal: MealRecipeRequest?
    /// A replacement of one planned meal (docs/architecture.md, "Meal plans"): the scan outlines that one slot as a plan
    /// does, beside the plan's other meals; its ``ingredients``, ``pantry`` and ``plan`` are nil. Nil for any other scan.
    public var replacement: MealReplacement?
    /// What the photos show.
    public var mode: ScanMode
    /// When the gateway stops waiting; a worker answers before it or not at all.
    public var deadline: Date
    /// The client's request id, for correlating logs across services.
    public var requestID: String?
    /// A pseudonym of the user (see ``userKey(forUserID:)``); never the user id itself.
    public var userKey: String
    /// The user's profile as it was when the scan started; nil when they have none (sent as an empty profile: every
    /// job carries one). A redelivered job is answered for the same profile.
    public var profile: KitchenProfile?
    /// For a household member's scan, each member it cooks for with their allergies and diets, so that a withheld
    /// recipe can say for whom; nil otherwise, and in a job of a gateway of the release before.
    public var table: [TableSeat]?
    /// The gateway instance that started the scan, whose subscription hears the scan's news without asking
    /// (``KiwiTopology/scanNewsKey(of:startedBy:)``); nil in a job of a gateway of the release before.
    public var gateway: String?
    /// Whether the worker shows the answer's elements as they stream (docs/architecture.md, "Streamed scans"): not for
    /// a scan whose client waits for the result alone (`POST /v1/scan`), which would pay to store and announce what
    /// nobody watches. True in a job of a gateway of the release before.
    public var showsPartials: Bool

    public init(
        scanID: UUID,
        photos: [[UInt8]],
        mode: ScanMode = .fridge,
        deadline: Date,
        requestID: String?,
        userKey: String,
        profile: KitchenProfile? = nil,
        table: [TableSeat]? = nil,
        ingredients: [String]? = nil,
        pantry: [OfferedPantryItem]? = nil,
        plan: PlanRequest? = nil,
        meal: MealRecipeRequest? = nil,
        replacement: MealReplacement? = nil,
        gateway: String? = nil,
        showsPartials: Bool = true
    ) {
        self.scanID = scanID
        self.photos = photos
        // A plan's names go nowhere: a worker of the release before must not answer it as a pantry scan.
        self.ingredients = ingredients ?? (plan == nil ? pantry?.map(\.name) : nil)
        self.pantry = pantry
        self.plan = plan
        self.meal = meal
        self.replacement = replacement
        self.mode = mode
        self.deadline = deadline
        self.requestID = requestID
        self.userKey = userKey
        self.profile = profile
        self.table = table
        self.gateway = gateway
        self.showsPartials = showsPartials
    }

    /// The pseudonymous key of a user: 32 hex digits of a SHA-256 over the user id. Stable, so OpenAI's abuse
    /// detection (`safety_identifier`) and logs can tell users apart, but it is not the id.
    public static func userKey(forUserID userID: String) -> String {
        let digest = SHA256.hash(data: Data("kiwi-user-key-v1:\(userID)".utf8))
        return digest.prefix(16).hexEncodedString
    }
}

/// A job that cannot be sent as it is: the gateway fails its scan, refunded, rather than send it unguarded.
public struct ScanJobEncodingError: Error, Hashable, Sendable, CustomStringConvertible {
    public let reason: String

    public init(_ reason: String) {
        self.reason = reason
    }

    public var description: String { reason }
}

/// A message that is not a scan job.
public struct ScanJobDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
    public let reason: String

    public init(_ reason: String) {
        self.reason = reason
    }

    public var description: String { reason }
}
