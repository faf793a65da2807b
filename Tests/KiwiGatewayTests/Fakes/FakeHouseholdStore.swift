import Foundation
import Synchronization

@testable import KiwiGateway

/// Households in memory, kept the way ``PostgresHouseholdStore`` keeps them.
final class FakeHouseholdStore: HouseholdStore {
    private struct Invitation {
        var household: UUID
        var expiresAt: Date
    }

    private struct State {
        var households: [UUID: HouseholdRecord] = [:]
        var invitations: [Data: Invitation] = [:]

        func householdID(of userID: UUID) -> UUID? { households.values.first { $0.member(userID) != nil }?.id }

        /// Deletes the member at `index` of `household`, and the household with its invitations once it is empty.
        mutating func removeMember(at index: Int, of household: UUID) {
            households[household]?.members.remove(at: index)
            if households[household]?.members.isEmpty == true {
                households[household] = nil
                invitations = invitations.filter { $0.value.household != household }
            }
        }
    }

    private let state = Mutex(State())

    func household(of userID: UUID) async throws -> HouseholdRecord? {
        state.withLock { state in state.householdID(of: userID).flatMap { state.households[$0] } }
    }

    func create(_ household: HouseholdRecord, creator: HouseholdMemberRecord) async throws -> HouseholdCreation {
        state.withLock { state in
            guard state.householdID(of: creator.userID) == nil else { return .alreadyMember }
            var created = household
            created.members = [creator]
            state.households[created.id] = created
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

    func join(codeHash: Data, member: HouseholdMemberRecord, now: Date, capacity: Int) async throws -> HouseholdJoining {
        state.withLock { state in
            guard let invitation = state.invitations[codeHash], invitation.expiresAt > now, let household = state.households[invitation.household]
            else { return .invitationUnknown }
            guard state.householdID(of: member.userID) == nil else { return .alreadyMember }
            guard household.members.count < capacity else { return .full }
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
            state.removeMember(at: index, of: household)
            return true
        }
    }

    func remove(member memberID: UUID, by userID: UUID) async throws -> HouseholdRemoval {
        state.withLock { state in
            guard let household = state.householdID(of: userID), let members = state.households[household]?.members,
                let index = members.firstIndex(where: { $0.id == memberID })
            else { return .notFound }
            guard members[index].userID == userID || members.first?.userID == userID else { return .notManager }
            state.removeMember(at: index, of: household)
            return .removed
        }
    }
}
