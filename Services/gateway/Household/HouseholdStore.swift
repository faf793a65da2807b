import Foundation

/// A household as stored: its members with the user each is, which only the gateway sees.
struct HouseholdRecord: Sendable, Hashable {
    var id: UUID
    var name: String
    var createdAt: Date
    /// Longest-standing first, in the order they joined: the first manages the household.
    var members: [HouseholdMemberRecord]

    /// The entry of `userID`, who is a member.
    func member(_ userID: UUID) -> HouseholdMemberRecord? { members.first { $0.userID == userID } }
}

/// One person's place in a household.
struct HouseholdMemberRecord: Sendable, Hashable {
    /// What other members know them by; not their user id.
    var id: UUID
    var userID: UUID
    var displayName: String
    var joinedAt: Date
}

/// What became of creating a household.
enum HouseholdCreation: Sendable, Hashable {
    case created(HouseholdRecord)
    /// The person is in a household already: nothing was made.
    case alreadyMember
}

/// What became of joining a household with an invitation.
enum HouseholdJoining: Sendable, Hashable {
    case joined(HouseholdRecord)
    /// No such invitation: never made, used, expired, or its household gone. One answer for all, so that a code tells
    /// nothing about why it failed. It stays unused.
    case invitationUnknown
    /// The person is in a household already: the invitation stays unused.
    case alreadyMember
    /// The household has as many members as it may: the invitation stays unused.
    case full
    /// The joiner's kitchen and the household's, merged, would pass a limit: nothing was merged, and the invitation
    /// stays unused.
    case kitchenTooFull(KitchenOverflow)
}

/// What became of a member's removal by another.
enum HouseholdRemoval: Sendable, Hashable {
    case removed
    /// The remover is in no household, or the member is not in theirs.
    case notFound
    /// The remover does not manage the household.
    case notManager
}

/// Who shares a kitchen with whom (`/v1/household`). Real: ``PostgresHouseholdStore`` (the `households`,
/// `household_members` and `household_invitations` tables, and the kitchen's tables as people move in and out); fake:
/// `FakeHouseholdStore`. A person is in at most one household; the last member out deletes it with its invitations
/// and its kitchen.
protocol HouseholdStore: Sendable {
    /// The household `userID` is in, nil when none.
    func household(of userID: UUID) async throws -> HouseholdRecord?
    /// The kitchen `userID` cooks in now: their household's, or their own.
    func kitchen(of userID: UUID) async throws -> Kitchen
    /// Makes a household with `creator` its only member, moving the creator's kitchen into it.
    func create(_ household: HouseholdRecord, creator: HouseholdMemberRecord) async throws -> HouseholdCreation
    /// Records an invitation to the household `userID` is in, known by the hash of its code; false when they are in
    /// none. Invitations of that household past their expiry are forgotten on the way.
    func invite(codeHash: Data, by userID: UUID, expiresAt: Date, now: Date) async throws -> Bool
    /// Uses up the invitation of `codeHash` unexpired at `now` to add `member` to its household, which holds at most
    /// `capacity` members, and merges the member's kitchen into the household's (docs/architecture.md, "Households"),
    /// which must stay within `limits`. All or nothing: an invitation is used only by a join that happened.
    func join(codeHash: Data, member: HouseholdMemberRecord, now: Date, capacity: Int, limits: KitchenLimits) async throws -> HouseholdJoining
    /// Takes `userID` out of their household, deleting it with its kitchen when they were its last member: by hand, and
    /// when their account goes. The leaver's notes and ratings on the household's recipes go; their own kitchen is
    /// empty. False when they were in none.
    func leave(_ userID: UUID) async throws -> Bool
    /// Takes member `memberID` out of the household `userID` manages, as ``leave(_:)`` takes a leaver.
    func remove(member memberID: UUID, by userID: UUID) async throws -> HouseholdRemoval
}
