import Foundation
import KiwiModels

/// Each user's kitchen profile (`/v1/profile`). Real: ``PostgresProfileStore`` (the `profiles` table); fake:
/// `FakeProfileStore`.
protocol ProfileStore: Sendable {
    /// The user's profile; nil when they never set one.
    func profile(of userID: UUID) async throws -> KitchenProfile?
    /// The profiles of those of `userIDs` who set one, in one read: a household's members.
    func profiles(of userIDs: [UUID]) async throws -> [UUID: KitchenProfile]
    /// Replaces the user's profile.
    func save(_ profile: KitchenProfile, for userID: UUID) async throws
    /// Makes `currency` the profile's ``KitchenProfile/currency`` if it has none (a profile of only that if the user
    /// set none), in one step: a profile saved meanwhile is never written over.
    func adoptCurrency(_ currency: String, for userID: UUID) async throws
    /// Forgets the user's profile, when their account goes.
    func delete(of userID: UUID) async throws
}
