import Crypto
import Foundation
import KiwiModels
import KiwiScans

/// What a scan is started from, the one thing a photo scan, a refinement, a pantry scan, a plan and a planned meal's
/// recipe or replacement start differently: the photos of an upload, a refinement's confirmed ingredient names, the
/// pantry's items, a plan's request with them, a planned meal's outline with its items, or its slot beside the plan's
/// other meals.
struct ScanInput: Sendable {
    /// What an `Idempotency-Key` is checked against (the scan's `photo_sha256`).
    var digest: Data
    /// The photos; none for a refinement or a pantry scan.
    var photos: [[UInt8]]
    var mode: ScanMode
    /// The scan refined and the names; nil for a photo scan.
    var refinement: QueuedScan.Refinement?
    /// A pantry scan's items, soonest to use first; nil for any other scan.
    var pantry: [OfferedPantryItem]?
    /// A plan's request, outlined from ``pantry`` (which may then be empty); nil for any other scan.
    var plan: PlanRequest?
    /// A planned meal whose recipe the scan writes, included in its plan's price; nil for any other scan.
    var meal: MealRecipeRequest?
    /// A planned meal's replacement, outlined as a plan's one slot; nil for any other scan.
    var replacement: MealReplacement?

    /// A photo scan's input.
    init(_ upload: ScanUpload) {
        self.init(digest: upload.digest, photos: upload.photos, mode: upload.mode, refinement: nil)
    }

    /// A refinement's input.
    init(_ refinement: QueuedScan.Refinement) {
        self.init(digest: RefinementRequest.digest(of: refinement), photos: [], mode: .fridge, refinement: refinement)
    }

    /// A pantry scan's input (``PantryScanRequest``).
    init(pantry: [OfferedPantryItem]) {
        self.init(digest: PantryScanRequest.digest, photos: [], mode: .fridge, refinement: nil, pantry: pantry)
    }

    /// A plan's input: what an `Idempotency-Key` is checked against is `digest`, the body's (``PlanRequestBody``), not
    /// the pantry, so that a retry finds its plan even when the pantry changed in between.
    init(plan: PlanRequest, pantry: [OfferedPantryItem], digest: Data) {
        self.init(digest: digest, photos: [], mode: .fridge, refinement: nil, pantry: pantry, plan: plan)
    }

    /// A planned meal's recipe's input. It takes no `Idempotency-Key` (``ScanCoordinator/startMealRecipe(_:context:input:keeping:)``):
    /// its digest names the plan and the meal, for the record.
    init(meal: MealRecipeRequest, planID: UUID, mealID: UUID) {
        self.init(digest: Self.digest("kiwi-meal-recipe-v1", planID, mealID), photos: [], mode: .fridge, refinement: nil, meal: meal)
    }

    /// A planned meal's replacement's input: what an `Idempotency-Key` is checked against is the plan's and the meal's
    /// ids, so that a retry finds its scan even when the plan changed in between.
    init(replacement: MealReplacement, planID: UUID, mealID: UUID) {
        self.init(
            digest: Self.digest("kiwi-meal-replacement-v1", planID, mealID),
            photos: [],
            mode: .fridge,
            refinement: nil,
            replacement: replacement
        )
    }

    /// The digest of a planned meal's scan: its kind's name, its plan's id and its meal's.
    private static func digest(_ kind: String, _ planID: UUID, _ mealID: UUID) -> Data {
        Data(SHA256.hash(data: Data("\(kind):\(planID.uuidString.lowercased()):\(mealID.uuidString.lowercased())".utf8)))
    }

    private init(
        digest: Data,
        photos: [[UInt8]],
        mode: ScanMode,
        refinement: QueuedScan.Refinement?,
        pantry: [OfferedPantryItem]? = nil,
        plan: PlanRequest? = nil,
        meal: MealRecipeRequest? = nil,
        replacement: MealReplacement? = nil
    ) {
        self.digest = digest
        self.photos = photos
        self.mode = mode
        self.refinement = refinement
        self.pantry = pantry
        self.plan = plan
        self.meal = meal
        self.replacement = replacement
    }
}
