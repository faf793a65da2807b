import Foundation
import KiwiDatabase
import Logging
import PostgresNIO

/// The `households`, `household_members` and `household_invitations` tables, and the kitchen's as people move in and
/// out (``PostgresKitchen``). Every change to a household's members or invitations runs in a transaction that first
/// locks the household's row, so that two joins cannot pass its capacity, an invitation is used once, and a join
/// cannot land in a household its last member is deleting.
struct PostgresHouseholdStore: HouseholdStore {
    let client: PostgresClient
    let logger: Logger
    /// The longest one operation may take; past it the request fails (503) instead of hanging on a stuck database.
    var timeout = StatementTimeout.default

    func household(of userID: UUID) async throws -> HouseholdRecord? {
        try await withStatementDeadline("household read", timeout: timeout) {
            try await client.withConnection { connection in try await Self.household(of: userID, on: connection, logger: logger) }
        }
    }

    func kitchen(of userID: UUID) async throws -> Kitchen {
        try await withStatementDeadline("household kitchen", timeout: timeout) {
            let rows = try await client.query("SELECT household_id FROM household_members WHERE user_id = \(userID)", logger: logger)
            let household = try await Self.first(rows.decode(UUID.self))
            return Kitchen(id: household ?? userID, member: userID)
        }
    }

    /// The member's row and the household's in one statement, the household's only if the member's went in (the
    /// foreign key is checked at the statement's end, when both are there); then the creator's kitchen moves in.
    func create(_ household: HouseholdRecord, creator: HouseholdMemberRecord) async throws -> HouseholdCreation {
        try await withStatementDeadline("household create", timeout: timeout) {
            try await client.withTransaction(logger: logger) { connection in
                let rows = try await connection.query(
                    """
                    WITH member AS (
                        INSERT INTO household_members (id, user_id, household_id, display_name, joined_at)
                        VALUES (\(creator.id), \(creator.userID), \(household.id), \(creator.displayName), \(creator.joinedAt))
                        ON CONFLICT (user_id) DO NOTHING
                        RETURNING household_id
                    )
                    INSERT INTO households (id, name, created_at) SELECT household_id, \(household.name), \(household.createdAt) FROM member
                    RETURNING 1
                    """,
                    logger: logger
                )
                guard try await Self.first(rows.decode(Int.self)) != nil else { return .alreadyMember }
                // A new household's kitchen is empty: the merge moves everything and passes no limit.
                _ = try await PostgresKitchen.merge(creator.userID, into: household.id, limits: .unbounded, on: connection, logger: logger)
                var created = household
                created.members = [creator]
                return .created(created)
            }
        }
    }

    func invite(codeHash: Data, by userID: UUID, expiresAt: Date, now: Date) async throws -> Bool {
        try await withStatementDeadline("household invite", timeout: timeout) {
            try await client.withTransaction(logger: logger) { connection in
                guard let household = try await Self.lockHousehold(of: userID, on: connection, logger: logger) else { return false }
                try await connection.execute(
                    "DELETE FROM household_invitations WHERE household_id = \(household) AND expires_at <= \(now)",
                    logger: logger
                )
                try await connection.execute(
                    "INSERT INTO household_invitations (code_hash, household_id, expires_at) VALUES (\(codeHash), \(household), \(expiresAt))",
                    logger: logger
                )
                return true
            }
        }
    }

    func join(codeHash: Data, member: HouseholdMemberRecord, now: Date, capacity: Int, limits: KitchenLimits) async throws -> HouseholdJoining {
        try await withStatementDeadline("household join", timeout: timeout) {
            try await client.withTransaction(logger: logger) { connection in
                let invited = try await connection.query(
                    "SELECT household_id FROM household_invitations WHERE code_hash = \(codeHash) AND expires_at > \(now)",
                    logger: logger
                )
                guard let household = try await Self.first(invited.decode(UUID.self)) else { return .invitationUnknown }
                let locked = try await connection.query("SELECT id FROM households WHERE id = \(household) FOR UPDATE", logger: logger)
                guard try await Self.first(locked.decode(UUID.self)) != nil else { return .invitationUnknown }
                // Read again under the lock: a join or a leave that held it may have used or dropped the invitation.
                let state = try await connection.query(
                    """
                    SELECT EXISTS (SELECT 1 FROM household_invitations WHERE code_hash = \(codeHash) AND expires_at > \(now)),
                           EXISTS (SELECT 1 FROM household_members WHERE user_id = \(member.userID)),
                           (SELECT count(*) FROM household_members WHERE household_id = \(household))
                    """,
                    logger: logger
                )
                guard let (stillInvited, isMember, count) = try await Self.first(state.decode((Bool, Bool, Int).self)), stillInvited else {
                    return .invitationUnknown
                }
                if isMember { return .alreadyMember }
                guard count < capacity else { return .full }
                let inserted = try await connection.query(
                    """
                    INSERT INTO household_members (id, user_id, household_id, display_name, joined_at)
                    VALUES (\(member.id), \(member.userID), \(household), \(member.displayName), \(member.joinedAt))
                    ON CONFLICT (user_id) DO NOTHING
                    RETURNING 1
                    """,
                    logger: logger
                )
                // A creation or a join of another household by the same person, at the same moment, got there first.
                guard try await Self.first(inserted.decode(Int.self)) != nil else { return .alreadyMember }
                if let overflow = try await PostgresKitchen.merge(member.userID, into: household, limits: limits, on: connection, logger: logger) {
                    try await connection.execute("DELETE FROM household_members WHERE id = \(member.id)", logger: logger)
                    return .kitchenTooFull(overflow)
                }
                try await connection.execute("DELETE FROM household_invitations WHERE code_hash = \(codeHash)", logger: logger)
                guard let joined = try await Self.household(of: member.userID, on: connection, logger: logger) else { throw PostgresRowMissing() }
                return .joined(joined)
            }
        }
    }

    func leave(_ userID: UUID) async throws -> Bool {
        try await withStatementDeadline("household leave", timeout: timeout) {
            try await client.withTransaction(logger: logger) { connection in
                guard let household = try await Self.lockHousehold(of: userID, on: connection, logger: logger) else { return false }
                return try await Self.delete(memberWhere: "user_id", is: userID, from: household, on: connection, logger: logger)
            }
        }
    }

    func remove(member memberID: UUID, by userID: UUID) async throws -> HouseholdRemoval {
        try await withStatementDeadline("household remove member", timeout: timeout) {
            try await client.withTransaction(logger: logger) { connection in
                guard let household = try await Self.lockHousehold(of: userID, on: connection, logger: logger) else { return .notFound }
                let rows = try await connection.query(
                    "SELECT id, user_id FROM household_members WHERE household_id = \(household) ORDER BY position",
                    logger: logger
                )
                var members: [(id: UUID, userID: UUID)] = []
                for try await member in rows.decode((UUID, UUID).self) { members.append(member) }
                guard let remover = members.first(where: { $0.userID == userID }), members.contains(where: { $0.id == memberID }) else {
                    return .notFound
                }
                guard remover.id == memberID || members.first?.userID == userID else { return .notManager }
                _ = try await Self.delete(memberWhere: "id", is: memberID, from: household, on: connection, logger: logger)
                return .removed
            }
        }
    }

    /// Locks the row of the household `userID` is in, and answers its id; nil when they are in none.
    private static func lockHousehold(of userID: UUID, on connection: PostgresConnection, logger: Logger) async throws -> UUID? {
        let rows = try await connection.query(
            """
            SELECT h.id FROM household_members m JOIN households h ON h.id = m.household_id
            WHERE m.user_id = \(userID) FOR UPDATE OF h
            """,
            logger: logger
        )
        return try await first(rows.decode(UUID.self))
    }

    /// Deletes the member whose `column` (`id` or `user_id`) is `value` from the locked `household`, with their notes
    /// and whatever their own kitchen holds (written there while they joined), and the household with its invitations
    /// and kitchen when nobody is left; whether there was such a member.
    private static func delete(
        memberWhere column: String,
        is value: UUID,
        from household: UUID,
        on connection: PostgresConnection,
        logger: Logger
    ) async throws -> Bool {
        let gone = try await connection.query(
            "DELETE FROM household_members WHERE \(unescaped: column) = \(value) AND household_id = \(household) RETURNING user_id",
            logger: logger
        )
        guard let userID = try await first(gone.decode(UUID.self)) else { return false }
        try await PostgresKitchen.forgetNotes(of: userID, on: connection, logger: logger)
        try await PostgresKitchen.forgetPlans(of: userID, on: connection, logger: logger)
        try await PostgresKitchen.empty(userID, on: connection, logger: logger)
        let deleted = try await connection.query(
            """
            DELETE FROM households WHERE id = \(household) AND NOT EXISTS (SELECT 1 FROM household_members WHERE household_id = \(household))
            RETURNING 1
            """,
            logger: logger
        )
        if try await first(deleted.decode(Int.self)) != nil { try await PostgresKitchen.empty(household, on: connection, logger: logger) }
        return true
    }

    private static func household(of userID: UUID, on connection: PostgresConnection, logger: Logger) async throws -> HouseholdRecord? {
        let rows = try await connection.query(
            """
            SELECT h.id, h.name, h.created_at, m.id, m.user_id, m.display_name, m.joined_at
            FROM household_members me
            JOIN households h ON h.id = me.household_id
            JOIN household_members m ON m.household_id = h.id
            WHERE me.user_id = \(userID)
            ORDER BY m.position
            """,
            logger: logger
        )
        var household: HouseholdRecord?
        for try await (id, name, createdAt, memberID, memberUser, displayName, joinedAt) in rows.decode(
            (UUID, String, Date, UUID, UUID, String, Date).self
        ) {
            let member = HouseholdMemberRecord(id: memberID, userID: memberUser, displayName: displayName, joinedAt: joinedAt)
            if household == nil { household = HouseholdRecord(id: id, name: name, createdAt: createdAt, members: []) }
            household?.members.append(member)
        }
        return household
    }

    private static func first<Element>(_ sequence: some AsyncSequence<Element, any Error>) async throws -> Element? {
        for try await element in sequence { return element }
        return nil
    }
}
