import Crypto
import Foundation
import Hummingbird
import KiwiModels
import KiwiServiceSupport

/// The private calendar feeds of plans, `GET /c/{token}` (``PlanCalendar``): public, like share pages, the token being
/// the only key; rate-limited per client address. The meals are at the times and in the time zone of the profile of
/// the person who asked for the plan, as it is when the feed is read.
struct PlanCalendarFeed: Sendable {
    let plans: any MealPlanStore
    let profiles: any ProfileStore
    let limiter: ClientRateLimiter
    let publicBaseURL: URL

    func addRoutes(to router: Router<GatewayRequestContext>) {
        router.get("c/:token", use: feed)
    }

    /// What the store keeps of a feed's token: its SHA-256, so that the database cannot give the link away.
    static func digest(of token: String) -> Data {
        Data(SHA256.hash(data: Data(token.utf8)))
    }

    @Sendable func feed(request: Request, context: GatewayRequestContext) async throws -> Response {
        try limiter.admit(context.remoteAddress ?? "unknown") { _ in "Too many calendars read from this address; please try again in a moment." }
        guard let token = context.parameters.get("token"), token.utf8.count == 43, let plan = try await plans.plan(calendar: Self.digest(of: token))
        else {
            throw APIError(.notFound, .notFound, "There is no such calendar; its link may have been withdrawn.")
        }
        var profile: KitchenProfile?
        if let creator = plan.createdBy { profile = try await profiles.profile(of: creator) }
        let text = PlanCalendar.feed(
            of: plan,
            times: profile?.mealTimes ?? .standard,
            zone: (profile ?? KitchenProfile()).zone,
            link: publicBaseURL.appending(path: "v1/plans/\(plan.id.uuidString.lowercased())"),
            now: Date()
        )
        var response = Response(status: .ok, body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
        response.headers[.contentType] = "text/calendar; charset=utf-8"
        response.headers[.cacheControl] = "private, no-cache"
        return response
    }
}
