import Foundation
import KiwiModels

/// The profile an answer for a person is made for: their own, and when they are in a household, with every member's
/// allergies and diets (``KitchenProfile/atTable(with:)``), read as they are now. Scans and the checks of saved recipes
/// read it here, so that every answer is safe for everyone at the table (docs/architecture.md, "Households").
struct TableProfile: Sendable {
    let profiles: any ProfileStore
    let households: any HouseholdStore

    /// The profile for `userID`'s table; nil when nobody at it set a profile. Their own profile and their household are
    /// read at once, so that a person without one pays no extra wait; the other members' profiles only then.
    func profile(of userID: UUID) async throws -> KitchenProfile? {
        async let own = profiles.profile(of: userID)
        async let household = households.household(of: userID)
        var others: [KitchenProfile] = []
        for member in try await household?.members ?? [] where member.userID != userID {
            if let profile = try await profiles.profile(of: member.userID) { others.append(profile) }
        }
        let mine = try await own
        guard !others.isEmpty else { return mine }
        return (mine ?? KitchenProfile()).atTable(with: others)
    }
}
