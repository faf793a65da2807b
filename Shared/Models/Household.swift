import Foundation

/// The people who share one kitchen (`/v1/household`), as a member sees them: each by the name they chose and the
/// allergies and diets they agreed to share on joining, so that the others can cook for them. Never an Apple id, an
/// email or a user id.
public struct Household: Codable, Hashable, Sendable, Identifiable {
    /// The most members one household may have: a table's worth.
    public static let capacity = 12

    public var id: UUID
    public var name: String
    public var createdAt: Date
    /// Everyone in it, longest-standing first: the first is the one who may remove others (``HouseholdMember/manages``).
    public var members: [HouseholdMember]
    /// The caller's own entry in `members`.
    public var yourMemberId: UUID

    public init(id: UUID, name: String, createdAt: Date, members: [HouseholdMember], yourMemberId: UUID) {
        self.id = id
        self.name = name
        self.createdAt = createdAt
        self.members = members
        self.yourMemberId = yourMemberId
    }
}

/// One person of a household.
public struct HouseholdMember: Codable, Hashable, Sendable, Identifiable {
    /// The member's id in this household; not their user id, which no other person sees.
    public var id: UUID
    /// The name they chose on creating or joining (Kiwi keeps no name from Apple).
    public var displayName: String
    /// Their profile's allergies and diets as they are now: what every answer for them is checked against.
    public var allergies: [KitchenProfile.Allergen]
    public var diets: [KitchenProfile.Diet]
    public var joinedAt: Date
    /// Whether this member may remove others: the creator, and once the creator has left, whoever has been in the
    /// household longest.
    public var manages: Bool

    public init(
        id: UUID,
        displayName: String,
        allergies: [KitchenProfile.Allergen],
        diets: [KitchenProfile.Diet],
        joinedAt: Date,
        manages: Bool
    ) {
        self.id = id
        self.displayName = displayName
        self.allergies = allergies
        self.diets = diets
        self.joinedAt = joinedAt
        self.manages = manages
    }
}

/// `POST /v1/household/invitations`: a code that lets one person join, once, until it expires. Kiwi keeps only its
/// hash, so this answer is the only place the code is ever seen.
public struct HouseholdInvitation: Codable, Hashable, Sendable {
    public var code: String
    public var expiresAt: Date

    public init(code: String, expiresAt: Date) {
        self.code = code
        self.expiresAt = expiresAt
    }
}
