import Foundation
import KiwiModels
import Testing

@testable import KiwiGateway

/// The profile store, each case against ``FakeProfileStore`` and against ``PostgresProfileStore`` on a migrated
/// database of its own.
@Suite("Profile store, fake and PostgreSQL")
struct ProfileStoreTests {
    /// The store of each kind.
    static let stores = PortImplementations<any ProfileStore>(
        fake: { FakeProfileStore() },
        postgres: { PostgresProfileStore(client: $0, logger: testLogger, timeout: .seconds(60)) }
    )

    @Test("a user who never set a profile has none", arguments: StoreKind.allCases)
    func noProfile(_ kind: StoreKind) async throws {
        try await Self.stores.with(kind) { store in
            let found = try await store.profile(of: UUID())
            #expect(found == nil)
        }
    }

    @Test("a saved profile reads back exactly, and the next save replaces it whole", arguments: StoreKind.allCases)
    func saveReplaces(_ kind: StoreKind) async throws {
        try await Self.stores.with(kind) { store in
            let user = UUID()
            let first = KitchenProfile(diets: [.vegan], allergies: [.treeNuts], dislikes: ["olives"], maxCookTimeMinutes: 20, servings: 2)
            try await store.save(first, for: user)
            #expect(try await store.profile(of: user) == first)
            try await store.save(KitchenProfile(allergies: [.milk]), for: user)
            #expect(try await store.profile(of: user) == KitchenProfile(allergies: [.milk]))
        }
    }

    @Test(
        "a currency is adopted only where none is set: into the profile as saved, or as a profile of its own, never over a chosen one",
        arguments: StoreKind.allCases
    )
    func currencyIsAdoptedOnce(_ kind: StoreKind) async throws {
        try await Self.stores.with(kind) { store in
            let (saved, unset) = (UUID(), UUID())
            try await store.save(KitchenProfile(allergies: [.milk]), for: saved)
            try await store.adoptCurrency("GBP", for: saved)
            try await store.adoptCurrency("EUR", for: saved)
            #expect(try await store.profile(of: saved) == KitchenProfile(allergies: [.milk], currency: "GBP"))
            try await store.adoptCurrency("EUR", for: unset)
            #expect(try await store.profile(of: unset) == KitchenProfile(currency: "EUR"))
        }
    }

    @Test("deleting forgets the user's profile and no other's, and deleting none is no error", arguments: StoreKind.allCases)
    func deleteForgetsOne(_ kind: StoreKind) async throws {
        try await Self.stores.with(kind) { store in
            let (user, other) = (UUID(), UUID())
            try await store.save(KitchenProfile(allergies: [.milk]), for: user)
            try await store.save(KitchenProfile(diets: [.halal]), for: other)
            try await store.delete(of: user)
            try await store.delete(of: user)
            #expect(try await store.profile(of: user) == nil)
            #expect(try await store.profile(of: other) == KitchenProfile(diets: [.halal]))
        }
    }

    @Test("several profiles read at once are those of the people asked for who set one", arguments: StoreKind.allCases)
    func profilesReadAtOnce(_ kind: StoreKind) async throws {
        try await Self.stores.with(kind) { store in
            let (sam, alex, kim, stranger) = (UUID(), UUID(), UUID(), UUID())
            try await store.save(KitchenProfile(allergies: [.milk]), for: sam)
            try await store.save(KitchenProfile(diets: [.vegan]), for: alex)
            try await store.save(KitchenProfile(diets: [.halal]), for: stranger)
            let found = try await store.profiles(of: [sam, alex, kim])
            #expect(found == [sam: KitchenProfile(allergies: [.milk]), alex: KitchenProfile(diets: [.vegan])])
            #expect(try await store.profiles(of: []).isEmpty)
        }
    }
}
