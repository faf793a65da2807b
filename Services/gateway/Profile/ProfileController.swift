import Foundation
import Hummingbird
import KiwiModels
import KiwiServiceSupport
import Logging

/// The user's kitchen profile: `GET /v1/profile` (an empty profile until they set one) and `PUT /v1/profile`, which
/// replaces the whole document and answers 400 naming every rule it broke. Scans started afterwards are made for the
/// new profile; those already started keep theirs.
struct ProfileController: Sendable {
    let profiles: any ProfileStore

    /// The largest profile document read; a valid one is far smaller.
    static let largestBody = 16 * 1024

    func addRoutes(to group: RouterGroup<GatewayRequestContext>) {
        group.get("profile", use: show)
        group.put("profile", use: replace)
    }

    @Sendable func show(request: Request, context: GatewayRequestContext) async throws -> Response {
        let session = try context.authenticatedSession
        return try Response.json(try await profiles.profile(of: session.userID) ?? KitchenProfile())
    }

    @Sendable func replace(request: Request, context: GatewayRequestContext) async throws -> Response {
        let session = try context.authenticatedSession
        let body = try await request.collectedBody(largest: Self.largestBody)
        let profile: KitchenProfile
        do {
            profile = try KitchenProfile.validate(Data(body.readableBytesView))
        } catch {
            throw APIError.badRequest("The profile breaks these rules: \(error.description).")
        }
        try await profiles.save(profile, for: session.userID)
        context.logger.info("profile replaced", metadata: ["allergies": "\(profile.allergies.count)", "diets": "\(profile.diets.count)"])
        return try Response.json(profile)
    }
}
