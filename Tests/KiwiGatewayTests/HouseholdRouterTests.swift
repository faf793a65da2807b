import Foundation
import HTTPTypes
import HummingbirdTesting
import KiwiInternalAPI
import KiwiModels
import KiwiTestSupport
import NIOCore
import Testing

@testable import KiwiGateway

/// `/v1/household`: creating, inviting, joining, leaving and removing, in-process on fakes.
@Suite("Gateway router: households")
struct HouseholdRouterTests {
    /// A person signed in to `gateway`: their token and user id.
    typealias Person = (token: String, userID: UUID)

    static func person(_ gateway: FakeGateway, allergies: [KitchenProfile.Allergen] = [], diets: [KitchenProfile.Diet] = []) async throws -> Person {
        let (token, session, _) = gateway.signIn()
        if !allergies.isEmpty || !diets.isEmpty {
            try await gateway.profiles.save(KitchenProfile(diets: diets, allergies: allergies), for: session.userId)
        }
        return (token, session.userId)
    }

    static func household(_ answer: TestResponse) throws -> Household {
        try KiwiJSON.decoder().decode(Household.self, from: Data(answer.body.readableBytesView))
    }

    static func create(
        _ client: any TestClientProtocol,
        _ person: Person,
        name: String = "Home",
        as displayName: String = "Sam"
    ) async throws -> TestResponse {
        try await client.execute(
            .post,
            "/v1/household",
            token: person.token,
            body: ByteBuffer(string: #"{"name": "\#(name)", "displayName": "\#(displayName)"}"#)
        )
    }

    static func invitation(_ client: any TestClientProtocol, _ person: Person) async throws -> HouseholdInvitation {
        let answer = try await client.execute(.post, "/v1/household/invitations", token: person.token)
        #expect(answer.status == .created)
        return try KiwiJSON.decoder().decode(HouseholdInvitation.self, from: Data(answer.body.readableBytesView))
    }

    static func join(
        _ client: any TestClientProtocol,
        _ person: Person,
        code: String,
        as displayName: String = "Alex",
        share: String = "true"
    ) async throws
        -> TestResponse
    {
        let body = #"{"code": "\#(code)", "displayName": "\#(displayName)", "shareProfile": \#(share)}"#
        return try await client.execute(.post, "/v1/household/members", token: person.token, body: ByteBuffer(string: body))
    }

    /// `second` joined to `first`'s new household.
    static func twoPeople(_ client: any TestClientProtocol, _ first: Person, _ second: Person) async throws -> Household {
        #expect(try await create(client, first).status == .created)
        let joined = try await join(client, second, code: try await invitation(client, first).code)
        #expect(joined.status == .ok)
        return try household(joined)
    }

    @Test("creating a household answers 201 with its creator as its only member, who manages it")
    func createAnswersHousehold() async throws {
        let gateway = FakeGateway()
        let sam = try await Self.person(gateway, allergies: [.peanuts])
        try await gateway.test { client async throws in
            let answer = try await Self.create(client, sam, name: "  The Flat ", as: " Sam ")
            #expect(answer.status == .created)
            #expect(answer.headers[.location] == "/v1/household")
            let household = try Self.household(answer)
            #expect(household.name == "The Flat")
            #expect(household.members.map(\.displayName) == ["Sam"])
            #expect(household.members.first?.allergies == [.peanuts])
            #expect(household.members.first?.manages == true)
            #expect(household.yourMemberId == household.members.first?.id)
            #expect(try Self.household(try await client.execute(.get, "/v1/household", token: sam.token)) == household)
        }
    }

    @Test("a member's JSON names them and their shared profile, never their user id")
    func memberJSONHasNoUserID() async throws {
        let gateway = FakeGateway()
        let sam = try await Self.person(gateway)
        try await gateway.test { client async throws in
            let answer = try await Self.create(client, sam)
            let member = try #require((try answer.json()["members"] as? [[String: Any]])?.first)
            #expect(member.keys.sorted() == ["allergies", "diets", "displayName", "id", "joinedAt", "manages"])
            #expect(!String(buffer: answer.body).lowercased().contains(sam.userID.uuidString.lowercased()))
        }
    }

    @Test("a person in no household gets 404 not_in_household")
    func noHouseholdIsNotFound() async throws {
        let gateway = FakeGateway()
        let sam = try await Self.person(gateway)
        try await gateway.test { client async throws in
            for (method, path) in [
                (HTTPRequest.Method.get, "/v1/household"), (.post, "/v1/household/invitations"), (.delete, "/v1/household/members/me"),
            ] {
                let answer = try await client.execute(method, path, token: sam.token)
                #expect(answer.status == .notFound)
                #expect(answer.errorCode == "not_in_household")
            }
        }
    }

    @Test("creating a second household is 409 already_in_household")
    func secondHouseholdIsRefused() async throws {
        let gateway = FakeGateway()
        let sam = try await Self.person(gateway)
        try await gateway.test { client async throws in
            _ = try await Self.create(client, sam)
            let again = try await Self.create(client, sam, name: "Other")
            #expect(again.status == .conflict)
            #expect(again.errorCode == "already_in_household")
            #expect(try Self.household(try await client.execute(.get, "/v1/household", token: sam.token)).name == "Home")
        }
    }

    @Test(
        "a blank or over-long name is 400 bad_request",
        arguments: [#""   ""#, #""\#(String(repeating: "a", count: 41))""#, #""a\nb""#, "7", #""--""#]
    )
    func badNameIsRefused(_ name: String) async throws {
        let gateway = FakeGateway()
        let sam = try await Self.person(gateway)
        try await gateway.test { client async throws in
            let body = #"{"name": \#(name), "displayName": "Sam"}"#
            let answer = try await client.execute(.post, "/v1/household", token: sam.token, body: ByteBuffer(string: body))
            #expect(answer.status == .badRequest)
            #expect(answer.errorCode == "bad_request")
        }
    }

    @Test("an invitation's code joins its household, and each member sees the other's allergies and diets")
    func invitationJoins() async throws {
        let gateway = FakeGateway()
        let sam = try await Self.person(gateway, allergies: [.milk])
        let alex = try await Self.person(gateway, allergies: [.peanuts], diets: [.vegetarian])
        try await gateway.test { client async throws in
            let joined = try await Self.twoPeople(client, sam, alex)
            #expect(joined.members.map(\.displayName) == ["Sam", "Alex"])
            #expect(joined.members.map(\.allergies) == [[.milk], [.peanuts]])
            #expect(joined.members.map(\.diets) == [[], [.vegetarian]])
            #expect(joined.members.map(\.manages) == [true, false])
            #expect(joined.yourMemberId == joined.members[1].id)
            let seenBySam = try Self.household(try await client.execute(.get, "/v1/household", token: sam.token))
            #expect(seenBySam.members == joined.members)
            #expect(seenBySam.yourMemberId == joined.members[0].id)
        }
    }

    @Test("a code works once: used again it is 404 invitation_not_found")
    func codeWorksOnce() async throws {
        let gateway = FakeGateway()
        let (sam, alex, kim) = (try await Self.person(gateway), try await Self.person(gateway), try await Self.person(gateway))
        try await gateway.test { client async throws in
            _ = try await Self.create(client, sam)
            let code = try await Self.invitation(client, sam).code
            #expect(try await Self.join(client, alex, code: code).status == .ok)
            let again = try await Self.join(client, kim, code: code, as: "Kim")
            #expect(again.status == .notFound)
            #expect(again.errorCode == "invitation_not_found")
        }
    }

    @Test("a code is read in any case and with spaces or hyphens between its letters")
    func codeIsReadAsTyped() async throws {
        let gateway = FakeGateway()
        let (sam, alex) = (try await Self.person(gateway), try await Self.person(gateway))
        try await gateway.test { client async throws in
            _ = try await Self.create(client, sam)
            let code = try await Self.invitation(client, sam).code
            #expect(code.count == InvitationCode.length)
            let typed = code.uppercased().enumerated().map { $0.offset % 4 == 3 ? "\($0.element)-" : "\($0.element)" }.joined()
            #expect(try await Self.join(client, alex, code: typed).status == .ok)
        }
    }

    @Test("an invitation expires 24 hours after it is made")
    func invitationExpiresInADay() async throws {
        let gateway = FakeGateway()
        let sam = try await Self.person(gateway)
        try await gateway.test { client async throws in
            _ = try await Self.create(client, sam)
            let invitation = try await Self.invitation(client, sam)
            let made = gateway.dependencies.now()
            #expect(abs(invitation.expiresAt.timeIntervalSince(made) - 24 * 3600) < 60)
        }
    }

    @Test("joining without agreeing to share the profile is 400, and the code still works", arguments: ["false", "null", #""yes""#])
    func joinNeedsConsent(_ share: String) async throws {
        let gateway = FakeGateway()
        let (sam, alex) = (try await Self.person(gateway), try await Self.person(gateway))
        try await gateway.test { client async throws in
            _ = try await Self.create(client, sam)
            let code = try await Self.invitation(client, sam).code
            let refused = try await Self.join(client, alex, code: code, share: share)
            #expect(refused.status == .badRequest)
            #expect(refused.errorCode == "bad_request")
            #expect((try refused.json()["message"] as? String)?.contains("shareProfile") == true)
            #expect(try await Self.join(client, alex, code: code).status == .ok)
        }
    }

    @Test("joining a second household is 409 already_in_household, and the code still works")
    func joinWhileMemberIsRefused() async throws {
        let gateway = FakeGateway()
        let (sam, alex, kim) = (try await Self.person(gateway), try await Self.person(gateway), try await Self.person(gateway))
        try await gateway.test { client async throws in
            _ = try await Self.create(client, sam)
            _ = try await Self.create(client, alex, as: "Alex")
            let code = try await Self.invitation(client, sam).code
            let refused = try await Self.join(client, alex, code: code)
            #expect(refused.status == .conflict)
            #expect(refused.errorCode == "already_in_household")
            #expect(try await Self.join(client, kim, code: code, as: "Kim").status == .ok)
        }
    }

    @Test("codes tried past the limit are 429 with Retry-After")
    func codeTriesAreLimited() async throws {
        let gateway = FakeGateway(householdCodeLimit: RateLimit(burst: 3, perSecond: 1.0 / 60))
        let alex = try await Self.person(gateway)
        try await gateway.test { client async throws in
            for _ in 0..<3 { #expect(try await Self.join(client, alex, code: InvitationCode.make().code).status == .notFound) }
            let limited = try await Self.join(client, alex, code: InvitationCode.make().code)
            #expect(limited.status == .tooManyRequests)
            #expect(limited.errorCode == "rate_limit_exceeded")
            #expect(limited.headers[.retryAfter].flatMap(Int.init) ?? 0 > 0)
        }
    }

    @Test("a member leaves with 204, and the others see them gone")
    func memberLeaves() async throws {
        let gateway = FakeGateway()
        let (sam, alex) = (try await Self.person(gateway), try await Self.person(gateway))
        try await gateway.test { client async throws in
            _ = try await Self.twoPeople(client, sam, alex)
            #expect(try await client.execute(.delete, "/v1/household/members/me", token: alex.token).status == .noContent)
            #expect(try await client.execute(.get, "/v1/household", token: alex.token).status == .notFound)
            #expect(try Self.household(try await client.execute(.get, "/v1/household", token: sam.token)).members.map(\.displayName) == ["Sam"])
        }
    }

    @Test("the manager removes a member with 204; another member removing someone is 403 not_household_manager")
    func onlyTheManagerRemoves() async throws {
        let gateway = FakeGateway()
        let (sam, alex, kim) = (try await Self.person(gateway), try await Self.person(gateway), try await Self.person(gateway))
        try await gateway.test { client async throws in
            _ = try await Self.twoPeople(client, sam, alex)
            let withKim = try Self.household(try await Self.join(client, kim, code: try await Self.invitation(client, sam).code, as: "Kim"))
            let kimID = try #require(withKim.members.last?.id)
            let refused = try await client.execute(.delete, "/v1/household/members/\(kimID)", token: alex.token)
            #expect(refused.status == .forbidden)
            #expect(refused.errorCode == "not_household_manager")
            #expect(try await client.execute(.delete, "/v1/household/members/\(kimID)", token: sam.token).status == .noContent)
            #expect(try await client.execute(.get, "/v1/household", token: kim.token).status == .notFound)
        }
    }

    @Test("a member id of another household, or no id, is 404 not_found")
    func otherHouseholdsMemberIsNotFound() async throws {
        let gateway = FakeGateway()
        let (sam, alex) = (try await Self.person(gateway), try await Self.person(gateway))
        try await gateway.test { client async throws in
            _ = try await Self.create(client, sam)
            let alexID = try Self.household(try await Self.create(client, alex, as: "Alex")).yourMemberId
            for path in ["/v1/household/members/\(alexID)", "/v1/household/members/someone"] {
                let answer = try await client.execute(.delete, path, token: sam.token)
                #expect(answer.status == .notFound)
                #expect(answer.errorCode == "not_found")
            }
            #expect(try await client.execute(.get, "/v1/household", token: alex.token).status == .ok)
        }
    }

    @Test("deleting an account takes the person out of their household, and no member sees their name")
    func accountDeletionLeaves() async throws {
        let gateway = FakeGateway()
        let (sam, alex) = (try await Self.person(gateway), try await Self.person(gateway))
        try await gateway.test { client async throws in
            _ = try await Self.twoPeople(client, sam, alex)
            #expect(try await client.execute(.delete, "/v1/account", token: alex.token).status == .ok)
            let left = try await client.execute(.get, "/v1/household", token: sam.token)
            #expect(try Self.household(left).members.map(\.displayName) == ["Sam"])
            #expect(!String(buffer: left.body).contains("Alex"))
        }
        #expect(try await gateway.households.household(of: alex.userID) == nil)
    }

    @Test("a member's scan is made for every member's allergies and diets; once the other has left, for the cook's alone")
    func scanIsMadeForTheTable() async throws {
        let gateway = FakeGateway()
        let sam = try await Self.person(gateway, allergies: [.milk])
        let alex = try await Self.person(gateway, allergies: [.peanuts], diets: [.vegetarian])
        try await gateway.test { client async throws in
            _ = try await Self.twoPeople(client, sam, alex)
            #expect(try await client.scan(testPhoto, token: sam.token).status == .ok)
            #expect(try await client.execute(.delete, "/v1/household/members/me", token: alex.token).status == .noContent)
            #expect(try await client.scan(testPhoto, token: sam.token).status == .ok)
        }
        #expect(
            gateway.workers.profiles == [KitchenProfile(diets: [.vegetarian], allergies: [.peanuts, .milk]), KitchenProfile(allergies: [.milk])]
        )
    }

    @Test("a scan for some members is made for their rules and the cook's time and servings, and its job seats only them")
    func scanForNarrowsTheTable() async throws {
        let gateway = FakeGateway()
        let (samsToken, samsSession, _) = gateway.signIn()
        try await gateway.profiles.save(KitchenProfile(allergies: [.milk], servings: 3), for: samsSession.userId)
        let sam: Person = (samsToken, samsSession.userId)
        let alex = try await Self.person(gateway, allergies: [.peanuts], diets: [.vegetarian])
        try await gateway.test { client async throws in
            let household = try await Self.twoPeople(client, sam, alex)
            let alexsID = household.yourMemberId
            let samsID = try #require(household.members.first { $0.id != alexsID }?.id)
            #expect(try await client.scan(testPhoto, token: sam.token, path: "/v1/scan?for=\(alexsID.uuidString)").status == .ok)
            #expect(try await client.scan(testPhoto, token: sam.token, path: "/v1/scan?for=\(samsID.uuidString),\(alexsID.uuidString)").status == .ok)
            #expect(gateway.workers.tables.map { $0?.map(\.memberId) } == [[alexsID], [samsID, alexsID]])
        }
        #expect(
            gateway.workers.profiles == [
                KitchenProfile(diets: [.vegetarian], allergies: [.peanuts], servings: 3),
                KitchenProfile(diets: [.vegetarian], allergies: [.peanuts, .milk], servings: 3),
            ]
        )
    }

    @Test(
        "a scan for anyone not in the caller's household is 404, for nobody or for a malformed id 400, and starts nothing",
        arguments: [
            ("for=\(UUID().uuidString)", HTTPResponse.Status.notFound), ("for=", .badRequest), ("for=not-a-member", .badRequest),
        ]
    )
    func scanForStrangersIsRefused(_ query: String, _ status: HTTPResponse.Status) async throws {
        let gateway = FakeGateway()
        let (sam, alex) = (try await Self.person(gateway), try await Self.person(gateway))
        try await gateway.test { client async throws in
            _ = try await Self.twoPeople(client, sam, alex)
            #expect(try await client.scan(testPhoto, token: sam.token, path: "/v1/scan?\(query)").status == status)
        }
        #expect(gateway.workers.profiles.isEmpty)
    }

    @Test("a saved recipe conflicts with another member's allergy, which its owner never had")
    func savedRecipeMeetsTheTable() async throws {
        let (gateway, token, userID) = try await SavedRecipeConflictRouterTests.gateway(profile: KitchenProfile())
        let alex = try await Self.person(gateway, allergies: [.peanuts])
        try await gateway.test { client async throws in
            _ = try await Self.twoPeople(client, (token, userID), alex)
            let shown = try SavedRecipeConflictRouterTests.saved(
                try await client.execute(.get, "/v1/recipes/\(SavedRecipeConflictRouterTests.noodles.id)", token: token)
            )
            #expect(shown.conflicts.map(\.name) == ["peanuts"])
        }
    }

    @Test("members share one pantry and one shopping list: what one adds, the other reads and changes")
    func membersShareTheKitchen() async throws {
        let gateway = FakeGateway()
        let (sam, alex) = (try await Self.person(gateway), try await Self.person(gateway))
        try await gateway.test { client async throws in
            _ = try await Self.twoPeople(client, sam, alex)
            let milk = ByteBuffer(string: #"{"name": "Milk"}"#)
            #expect(try await client.execute(.post, "/v1/pantry/items", token: sam.token, body: milk).status == .created)
            #expect(try await client.execute(.post, "/v1/shopping-list/items", token: sam.token, body: milk).status == .ok)
            let pantry = try KiwiJSON.decoder().decode(
                PantryList.self,
                from: Data(try await client.execute(.get, "/v1/pantry", token: alex.token).body.readableBytesView)
            )
            #expect(pantry.items.map(\.name) == ["Milk"])
            let item = try #require(pantry.items.first)
            #expect(try await client.execute(.delete, "/v1/pantry/items/\(item.id)", token: alex.token).status == .noContent)
            #expect(try await client.execute(.delete, "/v1/shopping-list", token: alex.token).status == .noContent)
            let emptied = try KiwiJSON.decoder().decode(
                PantryList.self,
                from: Data(try await client.execute(.get, "/v1/pantry", token: sam.token).body.readableBytesView)
            )
            #expect(emptied.items.isEmpty)
        }
        #expect(try await gateway.shoppingList.items(of: try await gateway.households.kitchen(of: sam.userID)).isEmpty)
    }

    @Test("a join whose pantry would pass the limit is 409 kitchen_too_full naming the counts, and the code still works")
    func overfullJoinIsRefused() async throws {
        let gateway = FakeGateway()
        let (sam, alex) = (try await Self.person(gateway), try await Self.person(gateway))
        let items = { (prefix: String, count: Int) in (0..<count).map { SharedKitchenStoreTests.pantryItem("\(prefix) \($0)") } }
        _ = try await gateway.pantry.add(items("Sam", 300), for: .own(sam.userID), capacity: PantryController.capacity)
        _ = try await gateway.pantry.add(items("Alex", 250), for: .own(alex.userID), capacity: PantryController.capacity)
        try await gateway.test { client async throws in
            #expect(try await Self.create(client, sam).status == .created)
            let code = try await Self.invitation(client, sam).code
            let refused = try await Self.join(client, alex, code: code)
            #expect(refused.status == .conflict)
            let error = try KiwiJSON.decoder().decode(ErrorBody.self, from: Data(refused.body.readableBytesView))
            #expect(error.error == .kitchenTooFull)
            #expect(["550", "300", "250", "500"].allSatisfy(error.message.contains), "\(error.message)")
            _ = try await gateway.pantry.deleteAll(of: .own(alex.userID))
            #expect(try await Self.join(client, alex, code: code).status == .ok)
        }
    }

    @Test("a leaver keeps nothing of the household's kitchen and starts with an empty one of their own")
    func leaverStartsEmpty() async throws {
        let gateway = FakeGateway()
        let (sam, alex) = (try await Self.person(gateway), try await Self.person(gateway))
        _ = try await gateway.pantry.add([SharedKitchenStoreTests.pantryItem("Rice")], for: .own(alex.userID), capacity: PantryController.capacity)
        try await gateway.test { client async throws in
            _ = try await Self.twoPeople(client, sam, alex)
            #expect(try await client.execute(.delete, "/v1/household/members/me", token: alex.token).status == .noContent)
            let alexs = try KiwiJSON.decoder().decode(
                PantryList.self,
                from: Data(try await client.execute(.get, "/v1/pantry", token: alex.token).body.readableBytesView)
            )
            #expect(alexs.items.isEmpty)
            let sams = try KiwiJSON.decoder().decode(
                PantryList.self,
                from: Data(try await client.execute(.get, "/v1/pantry", token: sam.token).body.readableBytesView)
            )
            #expect(sams.items.map(\.name) == ["Rice"])
        }
    }

    /// The `list` events of a shopping list stream: each event's id and its list's item names.
    /// The `list` events of a shopping list stream: each event's id and its list's item names, a ticked one ending "✓".
    static func listEvents(_ answer: TestResponse) throws -> [(id: String, names: [String])] {
        try serverSentEvents(in: String(buffer: answer.body)).compactMap { fields in
            guard fields["event"] == "list", let id = fields["id"], let data = fields["data"] else { return nil }
            let list = try KiwiJSON.decoder().decode(ShoppingList.self, from: Data(data.utf8))
            return (id, list.sections.flatMap(\.items).map { $0.checked ? "\($0.name) ✓" : $0.name })
        }
    }

    @Test("a member's add and tick on the shopping list reach the other member's event stream; an id already seen sends nothing")
    func listChangesReachTheOtherMember() async throws {
        let gateway = FakeGateway(listStreamLifetime: .seconds(3))
        let (sam, alex) = (try await Self.person(gateway), try await Self.person(gateway))
        try await gateway.test { client async throws in
            _ = try await Self.twoPeople(client, sam, alex)
            let adding = Task {
                while gateway.listNews.watchedKitchens == 0 { try await Task.sleep(for: .milliseconds(5)) }
                let milk = ByteBuffer(string: #"{"name": "Milk"}"#)
                let added = try await client.execute(.post, "/v1/shopping-list/items", token: sam.token, body: milk)
                let item = try #require(
                    try KiwiJSON.decoder().decode(ShoppingListAddition.self, from: Data(added.body.readableBytesView)).added.first
                )
                let tick = ByteBuffer(string: #"{"checked": true}"#)
                #expect(try await client.execute(.patch, "/v1/shopping-list/items/\(item.id)", token: sam.token, body: tick).status == .ok)
            }
            let stream = try await client.execute(.get, "/v1/shopping-list/events", token: alex.token)
            try await adding.value
            #expect(stream.headers[.contentType] == "text/event-stream")
            let events = try Self.listEvents(stream)
            // The add's and the tick's news may come together and be read as one change.
            #expect(events.first?.names == [] && events.last?.names == ["Milk ✓"], "\(events.map(\.names))")
            let again = try await client.execute(
                .get,
                "/v1/shopping-list/events",
                token: sam.token,
                headers: [.lastEventID: try #require(events.last?.id)]
            )
            #expect(try Self.listEvents(again).isEmpty)
        }
    }

    @Test("a stream of a person's own list follows them into the household they join, without waiting for its recheck")
    func streamFollowsTheJoiner() async throws {
        let gateway = FakeGateway(listStreamLifetime: .seconds(3))
        let (sam, alex) = (try await Self.person(gateway), try await Self.person(gateway))
        try await gateway.test { client async throws in
            #expect(try await Self.create(client, sam).status == .created)
            let milk = ByteBuffer(string: #"{"name": "Milk"}"#)
            #expect(try await client.execute(.post, "/v1/shopping-list/items", token: sam.token, body: milk).status == .ok)
            let code = try await Self.invitation(client, sam).code
            let joining = Task {
                while gateway.listNews.watchedKitchens == 0 { try await Task.sleep(for: .milliseconds(5)) }
                #expect(try await Self.join(client, alex, code: code).status == .ok)
            }
            let stream = try await client.execute(.get, "/v1/shopping-list/events", token: alex.token)
            try await joining.value
            #expect(try Self.listEvents(stream).map(\.names) == [[], ["Milk"]])
        }
    }
}
