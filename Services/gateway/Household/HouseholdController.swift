import Foundation
import HTTPTypes
import Hummingbird
import KiwiModels
import KiwiServiceSupport
import Logging

/// Households (`/v1/household`): people who share one kitchen and whose answers are made safe for each other. A person
/// is in at most one; without one, Kiwi cooks for them alone, as it always has. Creating one moves the creator's
/// kitchen into it; joining is by an invitation a member makes, merges the joiner's kitchen into the household's, and
/// shares the joiner's allergies and diets with the other members, which the join must agree to
/// (`"shareProfile": true`). Leaving leaves the kitchen with the household. The routes answer only about the caller's
/// own household: another's ids are 404.
struct HouseholdController: Sendable {
    let households: any HouseholdStore
    let profiles: any ProfileStore
    /// Creating, joining and leaving change which list is whose: the streams of every list concerned read it again,
    /// a stream of the mover's own list among them, which then follows them to their new kitchen.
    let listNews: ShoppingListNews
    /// Invitations made and codes tried, per person (``GatewayDependencies/householdCodeLimit``).
    let codeLimiter: ClientRateLimiter
    /// When a household is made or joined, and an invitation expires (``GatewayDependencies/now``).
    let now: @Sendable () -> Date

    /// How long an invitation works.
    static let invitationLifetime: TimeInterval = 24 * 3600
    /// The largest body read; a valid one is far smaller.
    static let largestBody = 4 * 1024
    /// The longest household name and display name, in characters once trimmed.
    static let longestName = 40

    func addRoutes(to group: RouterGroup<GatewayRequestContext>) {
        group.post("household", use: create)
        group.get("household", use: show)
        group.post("household/invitations", use: invite)
        group.post("household/members", use: join)
        group.delete("household/members/:id", use: removeMember)
    }

    /// `POST /v1/household` `{"name", "displayName"}`: 201 with the household, its creator its only member.
    @Sendable func create(request: Request, context: GatewayRequestContext) async throws -> Response {
        let session = try context.authenticatedSession
        let body = try await request.decodedBody(
            as: HouseholdCreationRequest.self,
            largest: Self.largestBody,
            example: #"{"name": "Home", "displayName": "Sam"}"#
        )
        let at = now().rounded()
        let household = HouseholdRecord(id: UUID(), name: body.name, createdAt: at, members: [])
        let creator = HouseholdMemberRecord(id: UUID(), userID: session.userID, displayName: body.displayName, joinedAt: at)
        guard case .created(let created) = try await households.create(household, creator: creator) else { throw Self.alreadyInHousehold }
        context.logger.info("household created", metadata: ["householdId": "\(created.id)"])
        await listNews.announcer.announce(session.userID)
        return try Response.json(try await answer(created, for: session.userID), status: .created, headers: [.location: "/v1/household"])
    }

    /// `GET /v1/household`: the caller's household with every member's allergies and diets as they are now.
    @Sendable func show(request: Request, context: GatewayRequestContext) async throws -> Response {
        let session = try context.authenticatedSession
        guard let household = try await households.household(of: session.userID) else { throw Self.notInHousehold }
        return try Response.json(try await answer(household, for: session.userID))
    }

    /// `POST /v1/household/invitations`: 201 with a new code, which lets one person join within 24 hours.
    @Sendable func invite(request: Request, context: GatewayRequestContext) async throws -> Response {
        let session = try context.authenticatedSession
        try limit("invite", session)
        let (code, hash) = InvitationCode.make()
        let at = now()
        let expiresAt = at.addingTimeInterval(Self.invitationLifetime).rounded()
        guard try await households.invite(codeHash: hash, by: session.userID, expiresAt: expiresAt, now: at) else { throw Self.notInHousehold }
        context.logger.info("household invitation made")
        return try Response.json(HouseholdInvitation(code: code, expiresAt: expiresAt), status: .created)
    }

    /// `POST /v1/household/members` `{"code", "displayName", "shareProfile": true}`: joins the household the code
    /// invites to; 200 with it.
    @Sendable func join(request: Request, context: GatewayRequestContext) async throws -> Response {
        let session = try context.authenticatedSession
        let body = try await request.decodedBody(
            as: HouseholdJoinRequest.self,
            largest: Self.largestBody,
            example: #"{"code": "…", "displayName": "Sam", "shareProfile": true}"#
        )
        try limit("join", session)
        guard let hash = InvitationCode.hash(of: body.code) else { throw Self.invitationNotFound }
        let at = now()
        let member = HouseholdMemberRecord(id: UUID(), userID: session.userID, displayName: body.displayName, joinedAt: at.rounded())
        switch try await households.join(codeHash: hash, member: member, now: at, capacity: Household.capacity, limits: .standard) {
        case .joined(let household):
            context.logger.info("household joined", metadata: ["householdId": "\(household.id)"])
            // The household's list gained the joiner's items, and the joiner's own list is gone into it.
            await listNews.announcer.announce(household.id)
            await listNews.announcer.announce(session.userID)
            return try Response.json(try await answer(household, for: session.userID))
        case .invitationUnknown: throw Self.invitationNotFound
        case .alreadyMember: throw Self.alreadyInHousehold
        case .full: throw APIError(.conflict, .householdFull, "The household has \(Household.capacity) members, as many as one may have.")
        case .kitchenTooFull(let overflow):
            throw APIError(
                .conflict,
                .kitchenTooFull,
                """
                Joining would give the household's \(overflow.part.rawValue) \(overflow.merged) items (the household's \(overflow.household), \
                yours \(overflow.yours), each duplicate once); it holds at most \(overflow.limit). Nothing was merged: remove \
                \(overflow.merged - overflow.limit) from yours, or ask a member to, and join again with the same code.
                """
            )
        }
    }

    /// `DELETE /v1/household/members/me` leaves the household; `DELETE /v1/household/members/{id}` takes a member out
    /// of it, by the member who manages it (or by that member themselves). 204; the last member out deletes it. The
    /// streams of the household's list hear of it: the one who left streams their own list from then on.
    @Sendable func removeMember(request: Request, context: GatewayRequestContext) async throws -> Response {
        let session = try context.authenticatedSession
        if context.parameters.get("id") == "me" {
            let kitchen = try await households.kitchen(of: session.userID)
            guard try await households.leave(session.userID) else { throw Self.notInHousehold }
            context.logger.info("household left")
            await listNews.announcer.announce(kitchen.id)
            return Response(status: .noContent)
        }
        let memberID = try context.pathID(else: Self.memberNotFound)
        switch try await households.remove(member: memberID, by: session.userID) {
        case .removed:
            context.logger.info("household member removed", metadata: ["memberId": "\(memberID)"])
            await listNews.announcer.announce(try await households.kitchen(of: session.userID).id)
            return Response(status: .noContent)
        case .notFound: throw Self.memberNotFound
        case .notManager:
            throw APIError(.forbidden, .notHouseholdManager, "Only the member who manages the household may remove others; anyone may leave.")
        }
    }

    /// The household as its member `userID` sees it: every member's allergies and diets read from their profile now,
    /// in one read.
    private func answer(_ household: HouseholdRecord, for userID: UUID) async throws -> Household {
        guard let you = household.member(userID) else { throw Self.notInHousehold }
        let found = try await profiles.profiles(of: household.members.map(\.userID))
        let members = household.members.enumerated().map { index, member in
            HouseholdMember(
                id: member.id,
                displayName: member.displayName,
                allergies: found[member.userID]?.allergies ?? [],
                diets: found[member.userID]?.diets ?? [],
                joinedAt: member.joinedAt,
                manages: index == 0
            )
        }
        return Household(id: household.id, name: household.name, createdAt: household.createdAt, members: members, yourMemberId: you.id)
    }

    /// 429 once `session`'s person has made or tried too many codes of the `kind`.
    private func limit(_ kind: String, _ session: AuthenticatedSession) throws {
        try codeLimiter.admit("\(kind) \(session.userID)") { wait in "Too many household invitations made or tried; try again in \(wait) s." }
    }

    private static let notInHousehold = APIError(.notFound, .notInHousehold, "You are in no household; create one or join one with an invitation.")
    private static let alreadyInHousehold = APIError(
        .conflict,
        .alreadyInHousehold,
        "You are in a household already; leave it first (DELETE /v1/household/members/me)."
    )
    private static let invitationNotFound = APIError(
        .notFound,
        .invitationNotFound,
        "No invitation has this code: it may be mistyped, used, or past its 24 hours. Ask for a new one."
    )
    private static let memberNotFound = APIError(.notFound, .notFound, "Your household has no such member.")
}

/// The body of `POST /v1/household`.
struct HouseholdCreationRequest: Decodable {
    var name: String
    var displayName: String

    init(from decoder: any Decoder) throws {
        let body = try decoder.container(keyedBy: BodyMember.self)
        try body.refuseMembers(otherThan: ["name", "displayName"])
        name = try HouseholdName.checked(body, "name")
        displayName = try HouseholdName.checked(body, "displayName")
    }
}

/// The body of `POST /v1/household/members`: the invitation's code, the joiner's name, and their consent to share
/// their allergies and diets with the members.
struct HouseholdJoinRequest: Decodable {
    var code: String
    var displayName: String

    init(from decoder: any Decoder) throws {
        let body = try decoder.container(keyedBy: BodyMember.self)
        try body.refuseMembers(otherThan: ["code", "displayName", "shareProfile"])
        let codeRule = APIError.badRequest("code must be the invitation's code, a string.")
        guard let code: String = try body.value("code", else: codeRule) else { throw codeRule }
        let consent = APIError.badRequest(
            "Joining shares your allergies and diets with the household's members, so that every answer is safe for you too: send \"shareProfile\": true to agree."
        )
        guard try body.value("shareProfile", else: consent) == true else { throw consent }
        self.code = code
        displayName = try HouseholdName.checked(body, "displayName")
    }
}

/// The rule of a household's name and a member's display name: 1 to 40 characters once trimmed of surrounding white
/// space, no control characters or line breaks, and a letter or digit.
enum HouseholdName {
    static func checked(_ body: KeyedDecodingContainer<BodyMember>, _ member: String) throws -> String {
        let rule = APIError.badRequest(
            "\(member) must be 1 to \(HouseholdController.longestName) characters once trimmed, with a letter or digit and no control characters."
        )
        guard let text: String = try body.value(member, else: rule),
            case .success(let trimmed) = TypedName.trimmed(text, lengths: 1...HouseholdController.longestName),
            trimmed.unicodeScalars.contains(where: { $0.properties.isLetterOrDigit })
        else { throw rule }
        return trimmed
    }
}

extension Unicode.Scalar.Properties {
    /// Whether the scalar is in a letter (`L*`) or number (`N*`) category, as a pattern's `[\p{L}\p{N}]` reads it.
    fileprivate var isLetterOrDigit: Bool {
        switch generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter, .decimalNumber, .letterNumber, .otherNumber: true
        default: false
        }
    }
}
