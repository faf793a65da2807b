import Foundation
import Synchronization

@testable import KiwiGateway

/// Households in memory, kept the way ``PostgresHouseholdStore`` keeps them, moving kitchens between the fakes of
/// their parts as people come and go.
final class FakeHouseholdStore: HouseholdStore {
    private let pantry: FakePantryStore
    private let shoppingList: FakeShoppingListStore
    private let recipes: FakeSavedRecipeStore

    init(
        pantry: FakePantryStore = FakePantryStore(),
        shoppingList: FakeShoppingListStore = FakeShoppingListStore(),
        recipes: FakeSavedRecipeStore = FakeSavedRecipeStore()
    ) {
        (self.pantry, self.shoppingList, self.recipes) = (pantry, shoppingList, recipes)
    }

    private var parts: [(KitchenOverflow.Part, any FakeKitchenPart)] { [(.pantry, pantry), (.shoppingList, shoppingList), (.recipeBox, recipes)] }

    private struct Invitation {
        var household: UUID
        var expiresAt: Date
    }

    private struct State {
        var households: [UUID: HouseholdRecord] = [:]
        var invitations: [Data: Invitation] = [:]

        func householdID(of userID: UUID) -> UUID? { households.values.first { $0.member(userID) != nil }?.id }

        /// Deletes the member at `index` of `household`, and the household with its invitations once it is empty;
        /// the member's user id, and whether the household went.
        mutating func removeMember(at index: Int, of household: UUID) -> (userID: UUID, householdGone: Bool) {
            let userID = households[household]!.members.remove(at: index).userID
            guard households[household]?.members.isEmpty == true else { return (userID, false) }
            households[household] = nil
            invitations = invitations.filter { $0.value.household != household }
            return (userID, true)
        }
    }

    /// What leaving takes with it: the leaver's notes and own kitchen, and the household's kitchen when it went.
    private func clear(after removal: (userID: UUID, householdGone: Bool), of household: UUID) {
        recipes.forgetNotes(of: removal.userID)
        for (_, part) in parts {
            part.empty(removal.userID)
            if removal.householdGone { part.empty(household) }
        }
    }

    private let state = Mutex(State())

    func household(of userID: UUID) async throws -> HouseholdRecord? {
        state.withLock { state in state.householdID(of: userID).flatMap { state.households[$0] } }
    }

    func kitchen(of userID: UUID) async throws -> Kitchen {
        state.withLock { state in Kitchen(id: state.householdID(of: userID) ?? userID, member: userID) }
    }

    func create(_ household: HouseholdRecord, creator: HouseholdMemberRecord) async throws -> HouseholdCreation {
        state.withLock { state in
            guard state.householdID(of: creator.userID) == nil else { return .alreadyMember }
            var created = household
            created.members = [creator]
            state.households[created.id] = created
            for (_, part) in parts { part.merge(creator.userID, into: created.id) }
            return .created(created)
        }
    }

    func invite(codeHash: Data, by userID: UUID, expiresAt: Date, now: Date) async throws -> Bool {
        state.withLock { state in
            guard let household = state.householdID(of: userID) else { return false }
            state.invitations = state.invitations.filter { $0.value.household != household || $0.value.expiresAt > now }
            state.invitations[codeHash] = Invitation(household: household, expiresAt: expiresAt)
            return true
        }
    }

    func join(codeHash: Data, member: HouseholdMemberRecord, now: Date, capacity: Int, limits: KitchenLimits) async throws -> HouseholdJoining {
        state.withLock { state in
            guard let invitation = state.invitations[codeHash], invitation.expiresAt > now, let household = state.households[invitation.household]
            else { return .invitationUnknown }
            guard state.householdID(of: member.userID) == nil else { return .alreadyMember }
            guard household.members.count < capacity else { return .full }
            for (part, store) in parts {
                let counts = store.counts(of: household.id, and: member.userID)
                let limit = limits.limit(of: part)
                if counts.merged > limit {
                    return .kitchenTooFull(
                        KitchenOverflow(part: part, household: counts.target, yours: counts.source, merged: counts.merged, limit: limit)
                    )
                }
            }
            for (_, store) in parts { store.merge(member.userID, into: household.id) }
            state.households[household.id]?.members.append(member)
            state.invitations[codeHash] = nil
            return .joined(state.households[household.id]!)
        }
    }

    func leave(_ userID: UUID) async throws -> Bool {
        state.withLock { state in
            guard let household = state.householdID(of: userID),
                let index = state.households[household]?.members.firstIndex(where: { $0.userID == userID })
            else { return false }
            clear(after: state.removeMember(at: index, of: household), of: household)
            return true
        }
    }

    func remove(member memberID: UUID, by userID: UUID) async throws -> HouseholdRemoval {
        state.withLock { state in
            guard let household = state.householdID(of: userID), let members = state.households[household]?.members,
                let index = members.firstIndex(where: { $0.id == memberID })
            else { return .notFound }
            guard members[index].userID == userID || members.first?.userID == userID else { return .notManager }
            clear(after: state.removeMember(at: index, of: household), of: household)
            return .removed
        }
    }
}
