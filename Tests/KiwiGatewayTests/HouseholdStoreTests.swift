import Foundation
import Testing

@testable import KiwiGateway

/// The household store, each case against ``FakeHouseholdStore`` and against ``PostgresHouseholdStore`` on a migrated
/// database of its own.
@Suite("Household store, fake and PostgreSQL")
struct HouseholdStoreTests {
    static let stores = PortImplementations<any HouseholdStore>(
        fake: { FakeHouseholdStore() },
        postgres: { PostgresHouseholdStore(client: $0, logger: testLogger, timeout: .seconds(60)) }
    )

    /// A whole second, so that dates read back from PostgreSQL's microseconds exactly.
    static let now = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
    static let tomorrow = now.addingTimeInterval(24 * 3600)

    /// A person of `name` joining `seconds` after ``now``.
    static func person(_ name: String, after seconds: TimeInterval = 0) -> HouseholdMemberRecord {
        HouseholdMemberRecord(id: UUID(), userID: UUID(), displayName: name, joinedAt: now.addingTimeInterval(seconds))
    }

    /// A new invitation's code hash.
    static func code() -> Data { InvitationCode.make().hash }

    /// A household of `creator`, made at ``now``.
    static func created(by creator: HouseholdMemberRecord, in store: any HouseholdStore) async throws -> HouseholdRecord {
        let household = HouseholdRecord(id: UUID(), name: "Home", createdAt: now, members: [])
        guard case .created(let created) = try await store.create(household, creator: creator) else {
            Issue.record("the household was not created")
            return household
        }
        return created
    }

    /// `person` joined to the household of `member` with a fresh invitation.
    @discardableResult
    static func join(
        _ person: HouseholdMemberRecord,
        householdOf member: UUID,
        in store: any HouseholdStore,
        capacity: Int = 12
    ) async throws
        -> HouseholdJoining
    {
        let code = code()
        #expect(try await store.invite(codeHash: code, by: member, expiresAt: tomorrow, now: now))
        return try await store.join(codeHash: code, member: person, now: now, capacity: capacity, limits: .standard)
    }

    /// Expects `code` to let `person` join now: a join refused before it left the invitation unused.
    static func expectStillUsable(
        _ code: Data,
        by person: HouseholdMemberRecord = person("Guest"),
        in store: any HouseholdStore,
        capacity: Int = 12
    ) async throws {
        guard case .joined = try await store.join(codeHash: code, member: person, now: now, capacity: capacity, limits: .standard) else {
            Issue.record("the invitation was used up by a join that did not happen")
            return
        }
    }

    @Test("a created household reads back with its creator as its only member", arguments: StoreKind.allCases)
    func createdReadsBack(_ kind: StoreKind) async throws {
        try await Self.stores.with(kind) { store async throws in
            let sam = Self.person("Sam")
            let created = try await Self.created(by: sam, in: store)
            #expect(created.members == [sam])
            #expect(try await store.household(of: sam.userID) == created)
            #expect(try await store.household(of: UUID()) == nil)
        }
    }

    @Test("a person in a household cannot create another, and nothing is made", arguments: StoreKind.allCases)
    func createWhileMemberIsRefused(_ kind: StoreKind) async throws {
        try await Self.stores.with(kind) { store async throws in
            let sam = Self.person("Sam")
            let first = try await Self.created(by: sam, in: store)
            let second = HouseholdRecord(id: UUID(), name: "Elsewhere", createdAt: Self.now, members: [])
            var again = sam
            again.id = UUID()
            #expect(try await store.create(second, creator: again) == .alreadyMember)
            #expect(try await store.household(of: sam.userID) == first)
        }
    }

    @Test("an invitation lets one person join, once, and the members read back in the order they joined", arguments: StoreKind.allCases)
    func invitationWorksOnce(_ kind: StoreKind) async throws {
        try await Self.stores.with(kind) { store async throws in
            let (sam, alex, kim) = (Self.person("Sam"), Self.person("Alex", after: 1), Self.person("Kim", after: 2))
            let household = try await Self.created(by: sam, in: store)
            let code = Self.code()
            #expect(try await store.invite(codeHash: code, by: sam.userID, expiresAt: Self.tomorrow, now: Self.now))
            var expected = household
            expected.members = [sam, alex]
            #expect(try await store.join(codeHash: code, member: alex, now: Self.now, capacity: 12, limits: .standard) == .joined(expected))
            #expect(try await store.join(codeHash: code, member: kim, now: Self.now, capacity: 12, limits: .standard) == .invitationUnknown)
            #expect(try await store.household(of: alex.userID) == expected)
            #expect(try await store.household(of: kim.userID) == nil)
        }
    }

    @Test("an invitation past its expiry is unknown", arguments: StoreKind.allCases)
    func expiredInvitationIsUnknown(_ kind: StoreKind) async throws {
        try await Self.stores.with(kind) { store async throws in
            let sam = Self.person("Sam")
            _ = try await Self.created(by: sam, in: store)
            let code = Self.code()
            #expect(try await store.invite(codeHash: code, by: sam.userID, expiresAt: Self.tomorrow, now: Self.now))
            #expect(
                try await store.join(codeHash: code, member: Self.person("Alex"), now: Self.tomorrow, capacity: 12, limits: .standard)
                    == .invitationUnknown
            )
        }
    }

    @Test("a person in a household cannot join another, and the invitation stays for someone else", arguments: StoreKind.allCases)
    func joinWhileMemberIsRefused(_ kind: StoreKind) async throws {
        try await Self.stores.with(kind) { store async throws in
            let (sam, alex, kim) = (Self.person("Sam"), Self.person("Alex"), Self.person("Kim"))
            _ = try await Self.created(by: sam, in: store)
            let alexHousehold = try await Self.created(by: alex, in: store)
            let code = Self.code()
            #expect(try await store.invite(codeHash: code, by: sam.userID, expiresAt: Self.tomorrow, now: Self.now))
            #expect(try await store.join(codeHash: code, member: alex, now: Self.now, capacity: 12, limits: .standard) == .alreadyMember)
            #expect(try await store.household(of: alex.userID) == alexHousehold)
            try await Self.expectStillUsable(code, by: kim, in: store)
        }
    }

    @Test("a full household refuses a join and keeps the invitation", arguments: StoreKind.allCases)
    func fullHouseholdRefusesJoin(_ kind: StoreKind) async throws {
        try await Self.stores.with(kind) { store async throws in
            let sam = Self.person("Sam")
            _ = try await Self.created(by: sam, in: store)
            let code = Self.code()
            #expect(try await store.invite(codeHash: code, by: sam.userID, expiresAt: Self.tomorrow, now: Self.now))
            #expect(try await store.join(codeHash: code, member: Self.person("Alex"), now: Self.now, capacity: 1, limits: .standard) == .full)
            try await Self.expectStillUsable(code, in: store, capacity: 2)
        }
    }

    @Test("only a household's members invite to it", arguments: StoreKind.allCases)
    func nonMemberCannotInvite(_ kind: StoreKind) async throws {
        try await Self.stores.with(kind) { store async throws in
            #expect(try await store.invite(codeHash: Self.code(), by: UUID(), expiresAt: Self.tomorrow, now: Self.now) == false)
        }
    }

    @Test("the longest-standing member removes others; anyone else only themselves", arguments: StoreKind.allCases)
    func onlyTheManagerRemovesOthers(_ kind: StoreKind) async throws {
        try await Self.stores.with(kind) { store async throws in
            let (sam, alex, kim) = (Self.person("Sam"), Self.person("Alex", after: 1), Self.person("Kim", after: 2))
            _ = try await Self.created(by: sam, in: store)
            try await Self.join(alex, householdOf: sam.userID, in: store)
            try await Self.join(kim, householdOf: sam.userID, in: store)
            #expect(try await store.remove(member: kim.id, by: alex.userID) == .notManager)
            #expect(try await store.remove(member: kim.id, by: sam.userID) == .removed)
            #expect(try await store.remove(member: alex.id, by: alex.userID) == .removed)
            #expect(try await store.household(of: sam.userID)?.members == [sam])
            #expect(try await store.household(of: kim.userID) == nil)
        }
    }

    @Test("once the creator leaves, the member who joined next manages", arguments: StoreKind.allCases)
    func managementPassesOn(_ kind: StoreKind) async throws {
        try await Self.stores.with(kind) { store async throws in
            let (sam, alex, kim) = (Self.person("Sam"), Self.person("Alex", after: 1), Self.person("Kim", after: 2))
            _ = try await Self.created(by: sam, in: store)
            try await Self.join(alex, householdOf: sam.userID, in: store)
            try await Self.join(kim, householdOf: sam.userID, in: store)
            #expect(try await store.leave(sam.userID))
            #expect(try await store.remove(member: kim.id, by: alex.userID) == .removed)
            #expect(try await store.household(of: alex.userID)?.members == [alex])
        }
    }

    @Test("a member of another household, or a remover in none, is not found", arguments: StoreKind.allCases)
    func otherHouseholdsMembersAreNotFound(_ kind: StoreKind) async throws {
        try await Self.stores.with(kind) { store async throws in
            let (sam, alex) = (Self.person("Sam"), Self.person("Alex"))
            _ = try await Self.created(by: sam, in: store)
            _ = try await Self.created(by: alex, in: store)
            #expect(try await store.remove(member: alex.id, by: sam.userID) == .notFound)
            #expect(try await store.remove(member: sam.id, by: UUID()) == .notFound)
            #expect(try await store.household(of: alex.userID)?.members == [alex])
        }
    }

    @Test("the last member out deletes the household and its invitations", arguments: StoreKind.allCases)
    func lastMemberOutDeletesHousehold(_ kind: StoreKind) async throws {
        try await Self.stores.with(kind) { store async throws in
            let sam = Self.person("Sam")
            _ = try await Self.created(by: sam, in: store)
            let code = Self.code()
            #expect(try await store.invite(codeHash: code, by: sam.userID, expiresAt: Self.tomorrow, now: Self.now))
            #expect(try await store.leave(sam.userID))
            #expect(try await store.leave(sam.userID) == false)
            #expect(try await store.household(of: sam.userID) == nil)
            #expect(
                try await store.join(codeHash: code, member: Self.person("Alex"), now: Self.now, capacity: 12, limits: .standard)
                    == .invitationUnknown
            )
        }
    }

    @Test("people joining at once with one invitation: exactly one gets in", arguments: StoreKind.allCases)
    func concurrentJoinsUseAnInvitationOnce(_ kind: StoreKind) async throws {
        try await Self.stores.with(kind) { store async throws in
            let sam = Self.person("Sam")
            _ = try await Self.created(by: sam, in: store)
            let code = Self.code()
            #expect(try await store.invite(codeHash: code, by: sam.userID, expiresAt: Self.tomorrow, now: Self.now))
            let outcomes = try await withThrowingTaskGroup(of: HouseholdJoining.self) { group in
                for index in 0..<8 {
                    group.addTask {
                        try await store.join(codeHash: code, member: Self.person("Guest \(index)"), now: Self.now, capacity: 12, limits: .standard)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(outcomes.filter { if case .joined = $0 { true } else { false } }.count == 1)
            #expect(outcomes.filter { $0 == .invitationUnknown }.count == 7)
            #expect(try await store.household(of: sam.userID)?.members.count == 2)
        }
    }

    @Test("people joining at once with one place left: exactly one gets in", arguments: StoreKind.allCases)
    func concurrentJoinsKeepTheCapacity(_ kind: StoreKind) async throws {
        try await Self.stores.with(kind) { store async throws in
            let sam = Self.person("Sam")
            _ = try await Self.created(by: sam, in: store)
            var codes: [Data] = []
            for _ in 0..<6 {
                codes.append(Self.code())
                #expect(try await store.invite(codeHash: codes.last!, by: sam.userID, expiresAt: Self.tomorrow, now: Self.now))
            }
            let outcomes = try await withThrowingTaskGroup(of: HouseholdJoining.self) { group in
                for code in codes {
                    group.addTask {
                        try await store.join(codeHash: code, member: Self.person("Guest"), now: Self.now, capacity: 2, limits: .standard)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(outcomes.filter { if case .joined = $0 { true } else { false } }.count == 1)
            #expect(outcomes.filter { $0 == .full }.count == 5)
            #expect(try await store.household(of: sam.userID)?.members.count == 2)
        }
    }
}
