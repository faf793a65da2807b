import Foundation

/// A machine-readable error code. Kept open (not an enum) so a client built today still decodes codes added later.
public struct APIErrorCode: RawRepresentable, Codable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    public var rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public init(stringLiteral value: String) {
        self.rawValue = value
    }

    public init(from decoder: any Decoder) throws {
        self.rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public var description: String { rawValue }

    public static let badRequest: APIErrorCode = "bad_request"
    public static let unauthorized: APIErrorCode = "unauthorized"
    public static let invalidToken: APIErrorCode = "invalid_token"
    /// The caller is known but not allowed (the internal API without the right internal token).
    public static let forbidden: APIErrorCode = "forbidden"
    public static let invalidImage: APIErrorCode = "invalid_image"
    public static let notFound: APIErrorCode = "not_found"
    public static let methodNotAllowed: APIErrorCode = "method_not_allowed"
    /// 406: an `Accept` that allows none of the forms a resource comes in.
    public static let notAcceptable: APIErrorCode = "not_acceptable"
    public static let rateLimitExceeded: APIErrorCode = "rate_limit_exceeded"
    /// 422: an `Idempotency-Key` sent again for another scan (other photos, or another refinement).
    public static let idempotencyKeyReused: APIErrorCode = "idempotency_key_reused"
    /// 409: `DELETE /v1/scans/{id}` of a scan a worker is asking the model about.
    public static let scanInProgress: APIErrorCode = "scan_in_progress"
    /// 409: `POST /v1/scans/{id}/refinements` of a scan that is open, failed, or a dish scan.
    public static let scanNotRefinable: APIErrorCode = "scan_not_refinable"
    /// 422: `POST /v1/scans/{id}/refinements` with ingredient names that break a rule.
    public static let invalidIngredients: APIErrorCode = "invalid_ingredients"
    /// 409: `POST /v1/scans` with `{"source": "pantry"}` when the pantry holds nothing to cook from.
    public static let pantryEmpty: APIErrorCode = "pantry_empty"
    /// 409: `POST /v1/recipes` when the user keeps as many recipes as they may.
    public static let recipeBoxFull: APIErrorCode = "recipe_box_full"
    /// 409: `GET /v1/recipes/{id}` (or a share page) asking for `servings` or `units` of a recipe saved before Kiwi
    /// wrote quantities, which has nothing to scale.
    public static let recipeNotScalable: APIErrorCode = "recipe_not_scalable"
    /// 409: `PATCH /v1/plans/{id}/meals/{mealId}` with a box recipe that breaks the profile of someone at the table.
    public static let recipeBreaksProfile: APIErrorCode = "recipe_breaks_profile"
    /// A planned meal without an outline has no recipe to write (`GET /v1/plans/{id}/meals/{mealId}`).
    public static let mealEmpty: APIErrorCode = "meal_empty"
    /// 400: `POST /v1/pantry/items` when the new items would take the pantry past its 500 items.
    public static let pantryFull: APIErrorCode = "pantry_full"
    /// 409: `PATCH /v1/pantry/items/{id}` with a name whose key is another item's.
    public static let pantryItemExists: APIErrorCode = "pantry_item_exists"
    /// 409: `POST /v1/pantry/items` with a receipt scan when another scan of the same receipt (the same shop, day and
    /// time, total and number of lines) went into the pantry; `scanId` names that scan. `again=true` adds it anyway.
    public static let receiptAlreadyAdded: APIErrorCode = "receipt_already_added"
    /// 409: `POST /v1/pantry/items` with a scan that has no ingredients to add: failed, of a dish, or none found.
    public static let scanHasNoIngredients: APIErrorCode = "scan_has_no_ingredients"
    /// 400: `POST /v1/shopping-list/items` when the new items would take the list past its 500 items.
    public static let shoppingListFull: APIErrorCode = "shopping_list_full"
    /// 404: a `/v1/household` route for a person who is in no household.
    public static let notInHousehold: APIErrorCode = "not_in_household"
    /// 409: `POST /v1/household` or `POST /v1/household/members` by a person who is in a household already.
    public static let alreadyInHousehold: APIErrorCode = "already_in_household"
    /// 404: `POST /v1/household/members` with a code that is unknown, used, expired, or of a household that is gone.
    public static let invitationNotFound: APIErrorCode = "invitation_not_found"
    /// 409: `POST /v1/household/members` when the household has as many members as it may.
    public static let householdFull: APIErrorCode = "household_full"
    /// 409: `POST /v1/household/members` when the joiner's pantry, shopping list or recipe box merged into the
    /// household's would pass its limit; the message names the counts, and nothing was merged.
    public static let kitchenTooFull: APIErrorCode = "kitchen_too_full"
    /// 403: `DELETE /v1/household/members/{id}` of another member by one who does not manage the household.
    public static let notHouseholdManager: APIErrorCode = "not_household_manager"
    public static let invalidModelResponse: APIErrorCode = "invalid_model_response"
    /// 422: a receipt scan (`mode=receipt`) whose photos the model found show no receipt; the scan was refunded.
    public static let notAReceipt: APIErrorCode = "not_a_receipt"
    public static let scanUnavailable: APIErrorCode = "scan_unavailable"
    public static let scanTimeout: APIErrorCode = "scan_timeout"
    public static let authUnavailable: APIErrorCode = "auth_unavailable"
    public static let internalError: APIErrorCode = "internal_error"
    /// The database behind the service is unreachable for the moment (restarting, failing over).
    public static let serviceUnavailable: APIErrorCode = "service_unavailable"
}

/// Every error the API returns: `{"error": "<code>", "message": "<human text>"}`, plus `resetsAt` on a 429 and
/// `scanId` on a server error about a scan that was started.
public struct ErrorBody: Codable, Hashable, Sendable {
    public var error: APIErrorCode
    public var message: String
    /// When the daily quota refills; present only with `rate_limit_exceeded`.
    public var resetsAt: Date?
    /// The scan a 5xx of a scan route is about, when one was reserved: its outcome is at `/v1/scans/{scanId}`
    /// (also the response's `Location`), so a client that lost the answer fetches it instead of paying again. With
    /// `receipt_already_added`, the scan of the same receipt added first.
    public var scanId: UUID?

    public init(error: APIErrorCode, message: String, resetsAt: Date? = nil, scanId: UUID? = nil) {
        self.error = error
        self.message = message
        self.resetsAt = resetsAt
        self.scanId = scanId
    }
}
