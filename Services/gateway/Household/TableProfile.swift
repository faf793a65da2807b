import Foundation
import HTTPTypes
import KiwiModels
import KiwiServiceSupport

/// Who an answer is made for: the profile it must meet, and for a household member the seats of those it cooks for.
struct Table: Sendable, Hashable {
    /// Nil when nobody at the table set a profile.
    var profile: KitchenProfile?
    /// Nil for a person in no household.
    var seats: [TableSeat]?
}

/// The table an answer for a person is made for: their own profile, and when they are in a household, with the
/// allergies and diets of every member it cooks for (``KitchenProfile/atTable(with:)``), read as they are now. Scans
/// and the checks of saved recipes read it here, so that every answer is safe for everyone at the table
/// (docs/architecture.md, "Households").
struct TableProfile: Sendable {
    let profiles: any ProfileStore
    let households: any HouseholdStore

    /// The table of `userID`, cooking for `members` (their household's member ids) or, when nil, for every member.
    /// Their own profile and their household are read at once, so that a person without one pays no extra wait; the
    /// other members' profiles only then, in one read. A cook not among `members` keeps their cook time, servings, language and units,
    /// not their rules. Throws 404 when `members` names anyone not in the person's household, or they are in none:
    /// another household's member ids are unknown here, like any id of another person's.
    func table(of userID: UUID, for members: [UUID]? = nil) async throws -> Table {
        async let own = profiles.profile(of: userID)
        guard let household = try await households.household(of: userID) else {
            if members != nil { throw Self.notForYourHousehold }
            return Table(profile: try await own, seats: nil)
        }
        if let members, !Set(members).isSubset(of: household.members.map(\.id)) { throw Self.notForYourHousehold }
        let seated = household.members.filter { members?.contains($0.id) ?? true }
        let mine = try await own
        var found = try await profiles.profiles(of: seated.map(\.userID).filter { $0 != userID })
        found[userID] = mine
        let seats = seated.map { member in
            TableSeat(memberId: member.id, allergies: found[member.userID]?.allergies ?? [], diets: found[member.userID]?.diets ?? [])
        }
        let cookSits = seated.contains { $0.userID == userID }
        let others = seated.filter { $0.userID != userID }.compactMap { found[$0.userID] }
        let cook =
            cookSits
            ? mine
            : mine.map {
                KitchenProfile(maxCookTimeMinutes: $0.maxCookTimeMinutes, servings: $0.servings, language: $0.language, units: $0.units)
            }
        guard !others.isEmpty else { return Table(profile: cook, seats: seats) }
        return Table(profile: (cook ?? KitchenProfile()).atTable(with: others), seats: seats)
    }

    private static let notForYourHousehold = APIError(
        .notFound,
        .notFound,
        "for names someone who is not a member of your household (GET /v1/household lists them); without a household, leave it out."
    )
}
