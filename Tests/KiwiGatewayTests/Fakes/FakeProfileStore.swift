import Foundation
import KiwiModels
import Synchronization

@testable import KiwiGateway

/// Kitchen profiles in memory, kept the way ``PostgresProfileStore`` keeps them.
final class FakeProfileStore: ProfileStore {
    private let profiles = Mutex<[UUID: KitchenProfile]>([:])

    func profile(of userID: UUID) async throws -> KitchenProfile? {
        profiles.withLock { $0[userID] }
    }

    func profiles(of userIDs: [UUID]) async throws -> [UUID: KitchenProfile] {
        profiles.withLock { kept in kept.filter { userIDs.contains($0.key) } }
    }

    func save(_ profile: KitchenProfile, for userID: UUID) async throws {
        profiles.withLock { $0[userID] = profile }
    }

    func adoptCurrency(_ currency: String, for userID: UUID) async throws {
        profiles.withLock { profiles in
            var profile = profiles[userID] ?? KitchenProfile()
            guard profile.currency == nil else { return }
            profile.currency = currency
            profiles[userID] = profile
        }
    }

    func delete(of userID: UUID) async throws {
        _ = profiles.withLock { $0.removeValue(forKey: userID) }
    }
}
