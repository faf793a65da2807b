import Crypto
import Foundation
import Hummingbird
import KiwiModels
import KiwiServiceSupport

/// The body of `POST /v1/plans`, `{"from", "days", "meals", "servings"}`, each member optional: from today in the
/// asker's time zone, for 7 days, dinner alone, for the profile's servings (else 2). More than ``PlanRequest/mostDays``
/// days, more than three meals a day, a meal twice, a first day more than a year from today, or any other member is
/// 400 `bad_request`.
struct PlanRequestBody: Decodable {
    var from: CalendarDay?
    var days: Int?
    var meals: [MealTime]?
    var servings: Int?

    static let example = #"{"from": "2026-11-30", "days": 7, "meals": ["dinner"], "servings": 2}"#
    static let defaultDays = 7
    static let defaultServings = 2

    init(from decoder: any Decoder) throws {
        let body = try decoder.container(keyedBy: BodyMember.self)
        try body.refuseMembers(otherThan: ["from", "days", "meals", "servings"])
        from = try body.value("from", else: APIError.badRequest("from must be a date, yyyy-MM-dd."))
        days = try body.value("days", else: APIError.badRequest("days must be a whole number from 1 to \(PlanRequest.mostDays)."))
        meals = try body.value("meals", else: APIError.badRequest("meals must list breakfast, lunch or dinner, each once."))
        servings = try body.value("servings", else: APIError.badRequest("servings must be a whole number from 1 to 12."))
    }

    /// The plan asked for, today being `today` and `profile` the asker's.
    func request(today: CalendarDay, profile: KitchenProfile?) throws -> PlanRequest {
        let from = from ?? today
        guard abs(from.daysSince1970 - today.daysSince1970) <= 366 else {
            throw APIError.badRequest("from must be within a year of today.")
        }
        let days = days ?? Self.defaultDays
        guard (1...PlanRequest.mostDays).contains(days) else {
            throw APIError.badRequest("days must be a whole number from 1 to \(PlanRequest.mostDays): a plan covers two weeks at most.")
        }
        let meals = meals ?? [.dinner]
        guard (1...MealTime.allCases.count).contains(meals.count), Set(meals).count == meals.count else {
            throw APIError.badRequest("meals must list breakfast, lunch or dinner, each once: three meals a day at most.")
        }
        let servings = servings ?? profile?.servings ?? Self.defaultServings
        guard (1...12).contains(servings) else { throw APIError.badRequest("servings must be a whole number from 1 to 12.") }
        return PlanRequest(from: from, days: days, meals: meals, servings: servings)
    }

    /// What an `Idempotency-Key` of a plan is checked against: the body as sent (a member left out as such, not as its
    /// default, so that a retry after midnight still finds its plan), whatever the pantry holds by then; a key sent
    /// with another body is refused.
    var digest: Data {
        let meals = meals.map { $0.map(\.rawValue).joined(separator: ",") } ?? "-"
        let text = "kiwi-plan-v1 \(from.map(\.description) ?? "-") \(days.map(String.init) ?? "-") \(meals) \(servings.map(String.init) ?? "-")"
        return Data(SHA256.hash(data: Data(text.utf8)))
    }
}
